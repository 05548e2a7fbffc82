/**
 * The compiled graph as text other tools draw: Mermaid, Graphviz DOT, and plain JSON.
 *
 * Nodes are calls, labeled with their id and tool and, when they write, their `_outputPath`
 * as written. Edges run from the call depended on to the dependent call and carry the state
 * path that creates them: data edges (a read bound to a write) are solid, order-only edges
 * (write after write, write after read, and program order: an effect's, or `_after`) dashed. A call whose output has `||` alternatives
 * (a branch) is drawn as a hexagon, so the places where a run can take different paths stand out.
 */

import type { CompiledCall, CompiledPlan, DependencyKind, OrderReason } from '../compile/types.js';
import type { ExecutionMode } from '../language/document.js';
import { formatPath } from '../language/paths.js';
import { workflowCalls } from '../tools/workflow-definition.js';
import { edgeLabel, edgePaths } from './edge-label.js';

export interface GraphJsonNode {
  /** The call's id (`_id`, or its index as a string). */
  readonly id: string;
  /** 0-based position in the plan array. */
  readonly index: number;
  readonly tool: string;
  /** Depth in the graph: 0 for calls without dependencies. */
  readonly level: number;
  /** Where the result goes, or null when the call writes nothing. */
  readonly output: GraphJsonOutput | null;
  /** Set when the call's tool is a workflow: the call runs a plan of its own. */
  readonly workflow?: true;
}

export interface GraphJsonOutput {
  /** The `_outputPath` as written. */
  readonly text: string;
  /** `||`: exactly one of `paths` is written (a branch); `&&`: all of them; null: one path. */
  readonly op: '||' | '&&' | null;
  /** Each path in canonical form, in order (for `||`, the alternative's index is its position). */
  readonly paths: readonly string[];
}

export interface GraphJsonEdge {
  /** Id of the call depended on. */
  readonly from: string;
  /** Id of the dependent call. */
  readonly to: string;
  readonly kind: DependencyKind;
  /** The state path that created the edge; `''` for an edge of program order. */
  readonly path: string;
  /** Every state path the edge carries (a reader may take several from one writer); none for program order. */
  readonly paths: readonly string[];
  /**
   * Set on an order edge no state path makes: `effect` (program order around a call that has
   * effects) or `after` (the call's `_after` names the other). Absent on every other edge.
   */
  readonly reason?: OrderReason;
}

export interface GraphJson {
  readonly mode: ExecutionMode;
  readonly nodes: readonly GraphJsonNode[];
  readonly edges: readonly GraphJsonEdge[];
  /** A topological order (ids). */
  readonly order: readonly string[];
  /** The longest chain of dependent calls (ids), first to last. */
  readonly criticalPath: readonly string[];
}

/** The graph as a plain JSON value (what `plan graph --format json` prints). */
export function toGraphJson(plan: CompiledPlan): GraphJson {
  const { calls } = plan;
  const nodes: GraphJsonNode[] = calls.map((call) => ({
    id: call.id,
    index: call.index,
    tool: call.tool,
    level: plan.levels[call.index] ?? 0,
    output: call.outputPath
      ? {
          text: call.outputPath.text,
          op: call.outputPath.op,
          paths: call.outputPath.paths.map((p) => formatPath(p.root, p.segments)),
        }
      : null,
    ...(isWorkflow(plan, call) && { workflow: true as const }),
  }));
  const edges: GraphJsonEdge[] = [];
  for (const call of calls) {
    for (const d of call.dependencies)
      edges.push({
        from: calls[d.from]!.id,
        to: call.id,
        kind: d.kind,
        path: d.path,
        paths: edgePaths(call, d),
        ...(d.reason !== undefined && { reason: d.reason }),
      });
  }
  return {
    mode: plan.mode,
    nodes,
    edges,
    order: plan.order.map((i) => calls[i]!.id),
    criticalPath: plan.criticalPath.map((i) => calls[i]!.id),
  };
}

/** The graph as a Mermaid flowchart. Node ids are `n<index>`, so no call id can break the syntax. */
export function toMermaid(plan: CompiledPlan): string {
  const lines = [
    `%% planmode ${plan.mode} plan: ${plan.calls.length} calls, ${plan.edgeCount} edges`,
    'flowchart TD',
  ];
  for (const call of plan.calls) {
    const label = nodeLabel(call, plan)
      .map((line) => mermaidText(line))
      .join('<br/>');
    // A workflow call is a subroutine: `[[…]]`.
    if (isBranch(call)) lines.push(`  n${call.index}{{"${label}"}}`);
    else if (isWorkflow(plan, call)) lines.push(`  n${call.index}[["${label}"]]`);
    else lines.push(`  n${call.index}["${label}"]`);
  }
  for (const call of plan.calls) {
    for (const d of call.dependencies) {
      const arrow = d.kind === 'data' ? '-->' : '-.->';
      lines.push(
        `  n${d.from} ${arrow}|"${mermaidText(edgeLabel(call, d)).replaceAll('|', '#124;')}"| n${call.index}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The graph as Graphviz DOT. Node ids are `n<index>`; labels are quoted and escaped. */
export function toDot(plan: CompiledPlan): string {
  const lines = [
    `// planmode ${plan.mode} plan: ${plan.calls.length} calls, ${plan.edgeCount} edges`,
    'digraph plan {',
    '  charset="UTF-8";',
    '  node [shape=box];',
  ];
  for (const call of plan.calls) {
    const label = nodeLabel(call, plan).map(dotText).join('\\n');
    const shape = isBranch(call) ? ', shape=hexagon' : isWorkflow(plan, call) ? ', shape=box3d' : '';
    lines.push(`  n${call.index} [label="${label}"${shape}];`);
  }
  for (const call of plan.calls) {
    for (const d of call.dependencies) {
      lines.push(
        `  n${d.from} -> n${call.index} [label="${dotText(edgeLabel(call, d))}"${d.kind === 'order' ? ', style=dashed' : ''}];`,
      );
    }
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/**
 * A call's label, one entry per line: `id: tool` (`id: tool (workflow)` for a workflow), then
 * `→ <_outputPath>` when it writes.
 */
function nodeLabel(call: CompiledCall, plan: CompiledPlan): string[] {
  const title = `${call.id}: ${call.tool}${isWorkflow(plan, call) ? ' (workflow)' : ''}`;
  return call.outputPath ? [title, `→ ${call.outputPath.text}`] : [title];
}

/** The call's tool is a workflow bound in the plan's registry. */
function isWorkflow(plan: CompiledPlan, call: CompiledCall): boolean {
  const tool = plan.tools?.get(call.tool)?.tool;
  return tool !== undefined && workflowCalls(tool) !== undefined;
}

function isBranch(call: CompiledCall): boolean {
  return call.outputPath?.op === '||' && call.outputPath.paths.length > 1;
}

const MERMAID_ENTITIES: Record<string, string> = {
  '#': '#35;',
  '"': '#quot;',
  '<': '#lt;',
  '>': '#gt;',
  '`': '#96;',
  '&': '#38;',
};

/**
 * Text for a quoted Mermaid label. Mermaid decodes `#name;` entities and renders labels as
 * HTML, so `#`, quotes, angle brackets, backticks (markdown strings) and an `&` that could
 * start an HTML entity are written as entities; line breaks become `<br/>`.
 */
function mermaidText(text: string): string {
  return text.replace(/\r\n?|\n|[#"<>`]|&(?=[A-Za-z#])/g, (c) => MERMAID_ENTITIES[c] ?? '<br/>');
}

/** Text for a quoted DOT string: backslashes and quotes escaped, line breaks as `\n`. */
function dotText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r\n?|\n/g, '\\n');
}
