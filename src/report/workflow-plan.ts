/**
 * What the pictures draw inside a call: a workflow call's own compiled plan (kept on the bound
 * tool, see tools/workflow-definition.ts), and a `_forEach` call's element source and counts.
 *
 * Workflows nest (a workflow's plan may call workflows), so the pictures walk the nesting with
 * an explicit stack, never recursion, and within two bounds: how deep (`workflowDepth`) and how
 * many calls in all (`maxWorkflowCalls`). The bind already refuses a workflow that reaches
 * itself, but one workflow may be called from many places, so the drawn size can still grow
 * with every level: past either bound, a workflow call is drawn closed, as one node.
 */
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import type { CallReport } from '../run/types.js';
import { workflowPlanValue } from '../tools/workflow-definition.js';

/** The compiled plan a workflow call runs, or undefined when the call's tool is no bound workflow. */
export function workflowPlanOf(plan: CompiledPlan, call: CompiledCall): CompiledPlan | undefined {
  const tool = plan.tools?.get(call.tool)?.tool;
  if (tool === undefined) return undefined;
  const inner = workflowPlanValue(tool) as CompiledPlan | undefined;
  return inner !== undefined && Array.isArray(inner.calls) ? inner : undefined;
}

/** A `_forEach` call's elements as a run ended them (from CallReport.elements). */
export interface ElementCounts {
  readonly count: number;
  readonly succeeded: number;
  readonly failed: number;
  /** Elements that never started: the call failed or was cancelled first. */
  readonly notRun: number;
}

/** The counts of a report's elements, or null when the call never started its elements. */
export function elementCounts(report: CallReport | undefined): ElementCounts | null {
  const elements = report?.elements;
  if (elements === undefined) return null;
  let succeeded = 0;
  let failed = 0;
  for (const e of elements) {
    if (e.status === 'succeeded') succeeded++;
    else if (e.status === 'failed') failed++;
  }
  return { count: elements.length, succeeded, failed, notRun: elements.length - succeeded - failed };
}

/** `3 elements: 2 succeeded, 1 failed` (the zero counts left out). */
export function elementSummary(counts: ElementCounts): string {
  const parts: string[] = [];
  if (counts.succeeded > 0) parts.push(`${counts.succeeded} succeeded`);
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  if (counts.notRun > 0) parts.push(`${counts.notRun} not run`);
  const noun = counts.count === 1 ? 'element' : 'elements';
  return parts.length === 0 ? `${counts.count} ${noun}` : `${counts.count} ${noun}: ${parts.join(', ')}`;
}

export interface NestingOptions {
  /**
   * How many workflows deep the pictures draw inside workflow calls; 0 draws every workflow
   * call closed, as one node.
   * @default 8
   */
  readonly workflowDepth?: number;
  /**
   * Most calls drawn inside workflow calls, over all of them; a workflow call whose plan would
   * go past it is drawn closed.
   * @default 2000
   */
  readonly maxWorkflowCalls?: number;
}

export const NESTING_DEFAULTS = { workflowDepth: 8, maxWorkflowCalls: 2000 } as const;

/** Where a workflow's plan opens from: the call that runs it, in the plan drawn under `prefix`. */
export interface NestingParent {
  readonly plan: CompiledPlan;
  readonly call: CompiledCall;
  readonly prefix: string;
}

/** One step of a walk over a plan and the workflow plans opened inside it, in drawing order. */
export type NestingStep =
  /**
   * Draw this plan's calls, named under `prefix`; `opens` holds the indices of its workflow
   * calls that open (the others are drawn closed); `parent` is null at the top.
   */
  | {
      readonly kind: 'open';
      readonly plan: CompiledPlan;
      readonly prefix: string;
      readonly depth: number;
      readonly opens: ReadonlySet<number>;
      readonly parent: NestingParent | null;
    }
  /** The plan opened by the matching `open` (at this depth) is done: its subgraph closes. */
  | { readonly kind: 'close'; readonly depth: number };

type Pending =
  Omit<Extract<NestingStep, { kind: 'open' }>, 'opens'> | Extract<NestingStep, { kind: 'close' }>;

/**
 * The walk: `open` the top plan, then, right after each plan's own calls, `open` and `close`
 * each opened workflow call's plan in call order (nested ones in between). `prefix` names a
 * plan's calls uniquely across the nesting: `n` at the top, `n<i>_` inside the workflow of call
 * i, `n<i>_<j>_` inside the workflow of its call j, and so on.
 */
export function walkNesting(
  top: CompiledPlan,
  options: NestingOptions,
  visit: (step: NestingStep) => void,
): void {
  const maxDepth = options.workflowDepth ?? NESTING_DEFAULTS.workflowDepth;
  let budget = options.maxWorkflowCalls ?? NESTING_DEFAULTS.maxWorkflowCalls;
  const stack: Pending[] = [{ kind: 'open', plan: top, prefix: 'n', depth: 0, parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    if (step.kind === 'close') {
      visit(step);
      continue;
    }
    // Which workflow calls open is decided before the plan is drawn, so that each is drawn
    // as a cluster or as a closed node.
    const children: Pending[] = [];
    const opens = new Set<number>();
    if (step.depth < maxDepth) {
      for (const call of step.plan.calls) {
        const inner = workflowPlanOf(step.plan, call);
        if (inner === undefined || inner.calls.length > budget) continue;
        budget -= inner.calls.length;
        opens.add(call.index);
        children.push({
          kind: 'open',
          plan: inner,
          prefix: `${step.prefix}${call.index}_`,
          depth: step.depth + 1,
          parent: { plan: step.plan, call, prefix: step.prefix },
        });
      }
    }
    visit({ ...step, opens });
    for (let k = children.length - 1; k >= 0; k--)
      stack.push({ kind: 'close', depth: step.depth + 1 }, children[k]!);
  }
}

/**
 * The run's report of each call drawn, inside workflows too: a workflow call's report carries
 * its sub-run's (`workflow`), so the plan opened under a call gets that call's. A report is
 * given to a call only where its id matches (a result of another plan draws nothing). A
 * `_forEach` call over a workflow ran one sub-run per element: its opened plan has no reports.
 */
export class NestedReports {
  readonly #byPrefix = new Map<string, readonly CallReport[]>();

  constructor(result: { readonly calls: readonly CallReport[] } | undefined) {
    if (result !== undefined) this.#byPrefix.set('n', result.calls);
  }

  /** The reports of an `open` step's calls (by index), noting those of the workflows it opens. */
  of(step: Extract<NestingStep, { kind: 'open' }>): (index: number) => CallReport | undefined {
    const reports = this.#byPrefix.get(step.prefix);
    if (reports === undefined) return () => undefined;
    const calls = step.plan.calls;
    const at = (i: number) => {
      const report = reports[i];
      return report !== undefined && report.id === calls[i]?.id ? report : undefined;
    };
    for (const i of step.opens) {
      const inner = at(i)?.workflow?.calls;
      if (inner !== undefined) this.#byPrefix.set(`${step.prefix}${i}_`, inner);
    }
    return at;
  }
}
