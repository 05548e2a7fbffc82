/**
 * The compiled graph as text other tools draw: Mermaid, Graphviz DOT (graph-text.ts), and plain
 * JSON (here).
 *
 * Nodes are calls, labeled with their id and tool and, when they write, their `_outputPath`
 * as written. Edges run from the call depended on to the dependent call and carry the state
 * path that creates them: data edges (a read bound to a write) are solid, order-only edges
 * (write after write, write after read, and program order: an effect's, or `_after`) dashed. A call whose output has `||` alternatives
 * (a branch) is drawn as a hexagon, so the places where a run can take different paths stand out.
 * A `_forEach` call is one node that says what it loops over (and, given a run, how many
 * elements it had and how they ended); a workflow call opens onto its own plan's graph.
 */

import type { CompiledPlan, DependencyKind, OrderReason } from '../compile/types.js';
import type { ExecutionMode } from '../language/document.js';
import { formatPath } from '../language/paths.js';
import { edgePaths } from './edge-label.js';
import { GRAPH_TEXT_OPTIONS, type GraphTextOptions } from './graph-text.js';
import { isWorkflow } from './node-label.js';
import { type ElementCounts, elementCounts, NestedReports, walkNesting } from './workflow-plan.js';
import type { CallStatus } from '../run/types.js';
import { checkOptions } from '../language/option-keys.js';

export { type GraphTextOptions, toDot, toMermaid } from './graph-text.js';
export type { ElementCounts } from './workflow-plan.js';

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
  /**
   * A workflow call's own plan, as a graph of the same shape (its nodes' ids are the workflow
   * plan's own); absent when the call was drawn closed (past `workflowDepth` or
   * `maxWorkflowCalls`).
   */
  readonly workflowGraph?: GraphJsonSubgraph;
  /**
   * Inside a workflow's graph: the ids of the calls from the top plan's down to this one
   * (`["research", "fetch"]`), unique across the nesting. Absent at the top.
   */
  readonly path?: readonly string[];
  /** Set on a `_forEach` call. */
  readonly forEach?: GraphJsonForEach;
  /** With a run's result: how the call ended (inside workflows too, as their sub-runs say). */
  readonly status?: CallStatus;
}

export interface GraphJsonForEach {
  /** The `_forEach` reference as written (`†state.results`). */
  readonly source: string;
  /** With a run's result: how many elements the call had and how they ended. */
  readonly elements?: ElementCounts;
}

/** A workflow call's plan as a graph. */
export interface GraphJsonSubgraph {
  readonly nodes: readonly GraphJsonNode[];
  readonly edges: readonly GraphJsonEdge[];
  readonly order: readonly string[];
  readonly criticalPath: readonly string[];
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

export interface GraphJson extends GraphJsonSubgraph {
  readonly mode: ExecutionMode;
  /** A topological order (ids). */
  readonly order: readonly string[];
  /** The longest chain of dependent calls (ids), first to last. */
  readonly criticalPath: readonly string[];
}

type MutableNode = { -readonly [K in keyof GraphJsonNode]: GraphJsonNode[K] };

/**
 * The graph as a plain JSON value (what `plan graph --format json` prints). Workflow calls carry
 * their plan's graph in `workflowGraph`, nested as deep as `workflowDepth` allows.
 */
export function toGraphJson(plan: CompiledPlan, options: GraphTextOptions = {}): GraphJson {
  checkOptions('toGraphJson', options, GRAPH_TEXT_OPTIONS);
  let top: GraphJsonSubgraph | undefined;
  // The nodes of every drawn plan by their picture name (`n0`, `n0_2`): where a workflow's graph goes.
  const byName = new Map<string, MutableNode>();
  const ids = new Map<string, readonly string[]>();
  const reports = new NestedReports(options.result);
  walkNesting(plan, options, (step) => {
    if (step.kind === 'close') return;
    const { plan: p, prefix, parent } = step;
    const reportOf = reports.of(step);
    const above = parent === null ? null : ids.get(`${parent.prefix}${parent.call.index}`)!;
    const { calls } = p;
    const nodes = calls.map((call): MutableNode => {
      const report = reportOf(call.index);
      const counts = call.forEach ? elementCounts(report) : null;
      const path = above === null ? null : [...above, call.id];
      const node: MutableNode = {
        id: call.id,
        index: call.index,
        tool: call.tool,
        level: p.levels[call.index] ?? 0,
        output: call.outputPath
          ? {
              text: call.outputPath.text,
              op: call.outputPath.op,
              paths: call.outputPath.paths.map((q) => formatPath(q.root, q.segments)),
            }
          : null,
        ...(isWorkflow(p, call) && { workflow: true as const }),
        ...(path !== null && { path }),
        ...(call.forEach && {
          forEach: { source: call.forEach.text, ...(counts !== null && { elements: counts }) },
        }),
        ...(report !== undefined && { status: report.status }),
      };
      byName.set(`${prefix}${call.index}`, node);
      ids.set(`${prefix}${call.index}`, path ?? [call.id]);
      return node;
    });
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
    const graph: GraphJsonSubgraph = {
      nodes,
      edges,
      order: p.order.map((i) => calls[i]!.id),
      criticalPath: p.criticalPath.map((i) => calls[i]!.id),
    };
    if (parent === null) top = graph;
    else byName.get(`${parent.prefix}${parent.call.index}`)!.workflowGraph = graph;
  });
  return { mode: plan.mode, ...top! };
}
