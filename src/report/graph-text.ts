/**
 * The compiled graph as Mermaid and Graphviz DOT text (see graph-export.ts for what is drawn).
 *
 * A workflow call opens onto its own plan: a subgraph (Mermaid) or cluster (DOT) beside it,
 * holding the workflow's calls and edges, nested workflows as nested subgraphs, and a dotted
 * `runs` edge from the call into it. Node names are `n<index>` at the top and `n<i>_<j>` for
 * call j of the workflow run by call i (and so on down), so no call id can break the syntax and
 * no two levels collide. Nesting is walked by workflow-plan.ts, bounded and without recursion.
 */
import type { CompiledPlan } from '../compile/types.js';
import type { RunResult } from '../run/types.js';
import { edgeLabel } from './edge-label.js';
import { isBranch, isWorkflow, nodeLabel } from './node-label.js';
import { type NestingOptions, type NestingStep, NestedReports, walkNesting } from './workflow-plan.js';
import { runStatusOf, STATUS_STYLES } from './call-status.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

export interface GraphTextOptions extends NestingOptions {
  /**
   * A run of the plan: each call's node is coloured by its status, inside workflows too (a
   * workflow call's report holds its sub-run's), and each `_forEach` call's node says how many
   * elements it had and how they ended. Only `calls` is read.
   * @default undefined
   */
  readonly result?: Pick<RunResult, 'calls'>;
}

/** The keys of {@link GraphTextOptions}, and what each holds. */
export const GRAPH_TEXT_OPTIONS: OptionSpec<GraphTextOptions> = {
  result: 'object',
  workflowDepth: 'count',
  maxWorkflowCalls: 'count',
};

/** The graph as a Mermaid flowchart. */
export function toMermaid(plan: CompiledPlan, options: GraphTextOptions = {}): string {
  checkOptions('toMermaid', options, GRAPH_TEXT_OPTIONS);
  const lines = [
    `%% planmode ${plan.mode} plan: ${plan.calls.length} calls, ${plan.edgeCount} edges`,
    'flowchart TD',
  ];
  const runs: string[] = [];
  const reports = new NestedReports(options.result);
  const classes = new Map<string, string[]>();
  walkNesting(plan, options, (step) => {
    if (step.kind === 'close') return void lines.push(`${indent(step)}end`);
    const { plan: p, prefix, parent } = step;
    const reportOf = reports.of(step);
    const pad = '  '.repeat(step.depth + 1);
    if (parent !== null) {
      const name = `${parent.prefix}${parent.call.index}`;
      lines.push(
        `${'  '.repeat(step.depth)}subgraph s_${name}["${mermaidText(`${parent.call.id}: ${parent.call.tool}`)}"]`,
      );
      runs.push(`  ${name} -.->|"runs"| s_${name}`);
    }
    for (const call of p.calls) {
      const report = reportOf(call.index);
      const label = nodeLabel(call, p, report)
        .map((line) => mermaidText(line))
        .join('<br/>');
      const name = `${prefix}${call.index}`;
      if (report !== undefined) {
        const status = runStatusOf(report);
        classes.set(status, [...(classes.get(status) ?? []), name]);
      }
      // A workflow call is a subroutine: `[[…]]`.
      if (isBranch(call)) lines.push(`${pad}${name}{{"${label}"}}`);
      else if (isWorkflow(p, call)) lines.push(`${pad}${name}[["${label}"]]`);
      else lines.push(`${pad}${name}["${label}"]`);
    }
    for (const call of p.calls) {
      for (const d of call.dependencies) {
        const arrow = d.kind === 'data' ? '-->' : '-.->';
        const text = mermaidText(edgeLabel(call, d)).replaceAll('|', '#124;');
        lines.push(`${pad}${prefix}${d.from} ${arrow}|"${text}"| ${prefix}${call.index}`);
      }
    }
  });
  lines.push(...runs);
  // Each status's colour once, then its nodes in one line.
  for (const [status, names] of classes) {
    const style = STATUS_STYLES[status as keyof typeof STATUS_STYLES];
    lines.push(
      `  classDef ${status} fill:${style.fill},stroke:${style.stroke}`,
      `  class ${names.join(',')} ${status}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The graph as Graphviz DOT; labels are quoted and escaped. */
export function toDot(plan: CompiledPlan, options: GraphTextOptions = {}): string {
  checkOptions('toDot', options, GRAPH_TEXT_OPTIONS);
  const lines = [
    `// planmode ${plan.mode} plan: ${plan.calls.length} calls, ${plan.edgeCount} edges`,
    'digraph plan {',
    '  charset="UTF-8";',
    '  node [shape=box];',
  ];
  const runs: string[] = [];
  let compound = false;
  const reports = new NestedReports(options.result);
  walkNesting(plan, options, (step) => {
    if (step.kind === 'close') return void lines.push(`${indent(step)}}`);
    const { plan: p, prefix, parent } = step;
    const reportOf = reports.of(step);
    const pad = '  '.repeat(step.depth + 1);
    if (parent !== null) {
      const name = `${parent.prefix}${parent.call.index}`;
      lines.push(
        `${'  '.repeat(step.depth)}subgraph cluster_${name} {`,
        `${pad}label="${dotText(`${parent.call.id}: ${parent.call.tool}`)}";`,
        `${pad}style=dashed;`,
      );
      // Into the workflow's first call in order, clipped at the cluster's border.
      const first = p.order[0];
      if (first !== undefined) {
        compound = true;
        runs.push(`  ${name} -> ${prefix}${first} [lhead=cluster_${name}, label="runs", style=dotted];`);
      }
    }
    for (const call of p.calls) {
      const report = reportOf(call.index);
      const label = nodeLabel(call, p, report).map(dotText).join('\\n');
      const shape = isBranch(call) ? ', shape=hexagon' : isWorkflow(p, call) ? ', shape=box3d' : '';
      // A for-each call stands for many runs of its tool: a double outline.
      const many = call.forEach ? ', peripheries=2' : '';
      const style = report === undefined ? undefined : STATUS_STYLES[runStatusOf(report)];
      const fill =
        style === undefined ? '' : `, style=filled, fillcolor="${style.fill}", color="${style.stroke}"`;
      lines.push(`${pad}${prefix}${call.index} [label="${label}"${shape}${many}${fill}];`);
    }
    for (const call of p.calls) {
      for (const d of call.dependencies) {
        lines.push(
          `${pad}${prefix}${d.from} -> ${prefix}${call.index} [label="${dotText(edgeLabel(call, d))}"${d.kind === 'order' ? ', style=dashed' : ''}];`,
        );
      }
    }
  });
  if (compound) lines.splice(3, 0, '  compound=true;');
  lines.push(...runs, '}');
  return `${lines.join('\n')}\n`;
}

/** A subgraph's closing line is indented as its opening line. */
function indent(step: Extract<NestingStep, { kind: 'close' }>): string {
  return '  '.repeat(step.depth);
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
