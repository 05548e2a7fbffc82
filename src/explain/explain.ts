/**
 * `explainCall`: questions about one call of a compiled plan, answered with graphlib on the
 * plan's graph: why it waits (its dependencies, and the longest chain that ends at it), what
 * its failure or skip would block (its descendants, by the status they would end in), and which
 * parts of the plan are independent of each other (weakly connected components).
 *
 * A `PlanExplainer` builds the Graph once and keeps what serves every call (the longest chains,
 * the components), so the report asks it about each call without building them again. Every
 * walk is iterative (see graph-walks.ts) and every list is bounded by `limit`.
 */
import { programOrderOf } from '../compile/compiled-plan.js';
import { nearest } from '../compile/nearest.js';
import type { OrderGates } from '../compile/order/index.js';
import type { CompiledPlan } from '../compile/types.js';
import { UnknownCallError } from '../errors/plan-errors.js';
import { edgesBetween } from './edges.js';
import { type PlanGraph, planGraph } from './plan-graph.js';
import {
  type Components,
  type LongestChains,
  longestChains,
  reachable,
  weakComponents,
} from './graph-walks.js';
import { downstreamFates, FAILED, type Fate, HANDLED, SKIPPED, UPSTREAM_FAILED } from './outcomes.js';
import type {
  BlockedOutcome,
  BoundedIds,
  CallExplanation,
  ExplainDependency,
  ExplainOptions,
} from './types.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

const DEFAULT_LIMIT = 50;

/** One plan's graph, ready for questions about any of its calls. */
export class PlanExplainer {
  readonly plan: CompiledPlan;
  /** The plan as a graphlib Graph: a node per call, named by its index (see plan-graph.ts). */
  readonly graph: PlanGraph;
  readonly #gates: OrderGates | undefined;
  #chains: LongestChains | undefined;
  #components: Components | undefined;

  constructor(plan: CompiledPlan) {
    this.plan = plan;
    this.graph = planGraph(plan);
    this.#gates = programOrderOf(plan)?.gates;
  }

  /**
   * @throws {UnknownCallError} when the plan has no call `callId` (with the nearest id, if any).
   * @throws {TypeError} when `options.limit` is not a whole number >= 1.
   */
  explain(callId: string, options: ExplainOptions = {}): CallExplanation {
    checkOptions('PlanExplainer.explain', options, EXPLAIN_OPTIONS);
    const limit = checkLimit(options);
    const plan = this.plan;
    const x = plan.indexOf(callId);
    if (x === undefined) {
      throw new UnknownCallError(
        callId,
        nearest(
          callId,
          plan.calls.map((c) => c.id),
        ),
      );
    }
    const call = plan.calls[x]!;
    return {
      call: call.id,
      tool: call.tool,
      index: x,
      waitsFor: this.#waitsFor(x, limit),
      longestChain: this.#longestChain(x, limit),
      blocks: this.#blocks(x, limit),
      independent: this.#independent(x, limit),
    };
  }

  #waitsFor(x: number, limit: number): CallExplanation['waitsFor'] {
    const plan = this.plan;
    const from = (this.graph.predecessors(String(x)) ?? []).map(Number);
    // Gates the compile made no edge of are dependencies too (see edges.ts): their calls are predecessors already.
    from.sort((a, b) => a - b);
    const dependencies: ExplainDependency[] = from.slice(0, limit).map((j) => ({
      call: plan.calls[j]!.id,
      tool: plan.calls[j]!.tool,
      edges: edgesBetween(plan, this.#gates, j, x),
    }));
    return { dependencies, total: from.length, more: from.length - dependencies.length };
  }

  #longestChain(x: number, limit: number): CallExplanation['longestChain'] {
    const plan = this.plan;
    this.#chains ??= longestChains(plan, this.graph);
    const { length, previous } = this.#chains;
    const chain: number[] = [];
    for (let i = x; i !== -1 && chain.length < limit; i = previous[i]!) chain.push(i);
    chain.reverse();
    const links = [];
    for (let k = 1; k < chain.length; k++) {
      links.push({
        from: plan.calls[chain[k - 1]!]!.id,
        to: plan.calls[chain[k]!]!.id,
        edges: edgesBetween(plan, this.#gates, chain[k - 1]!, chain[k]!),
      });
    }
    const total = length[x]!;
    return {
      calls: chain.map((i) => plan.calls[i]!.id),
      links,
      length: total,
      omitted: total - chain.length,
    };
  }

  #blocks(x: number, limit: number): CallExplanation['blocks'] {
    const plan = this.plan;
    const descendants = reachable(this.graph, x, 'down');
    // Plan order is not topological (forward references): sort by the compile's order.
    const position = topologicalPositions(plan);
    descendants.sort((a, b) => position[a]! - position[b]!);
    const outcome = (fate: typeof FAILED | typeof HANDLED | typeof SKIPPED): BlockedOutcome =>
      group(
        plan,
        descendants,
        downstreamFates({ plan, gates: this.#gates, origin: x, fate, descendants }),
        limit,
      );
    const call = plan.calls[x]!;
    const errorPath =
      call.errorAlternative !== null ? call.outputPath?.refs[call.errorAlternative]?.text : undefined;
    return {
      descendants: descendants.length,
      ifFailed: outcome(FAILED),
      ifHandled: errorPath !== undefined ? { errorPath, ...outcome(HANDLED) } : null,
      ifSkipped: outcome(SKIPPED),
    };
  }

  #independent(x: number, limit: number): CallExplanation['independent'] {
    const plan = this.plan;
    this.#components ??= weakComponents(plan, this.graph);
    const { of, members } = this.#components;
    const own = of[x]!;
    const others: BoundedIds[] = [];
    let skipped = 0;
    for (let k = 0; k < members.length; k++) {
      if (k === own) continue;
      if (others.length < limit) others.push(bounded(plan, members[k]!, limit));
      else skipped++;
    }
    return { components: members.length, own: bounded(plan, members[own]!, limit), others, more: skipped };
  }
}

/**
 * Explains one call of a compiled plan (see {@link CallExplanation}). To ask about several calls
 * of one plan, make a {@link PlanExplainer} once and ask it.
 *
 * @throws {UnknownCallError} when the plan has no such call; its `suggestion` is the nearest id.
 * @throws {TypeError} when `options.limit` is not a whole number >= 1.
 */
/** limit has its own check (a whole number >= 1). */
const EXPLAIN_OPTIONS: OptionSpec<ExplainOptions> = { limit: 'any' };

export function explainCall(
  plan: CompiledPlan,
  callId: string,
  options: ExplainOptions = {},
): CallExplanation {
  checkOptions('explainCall', options, EXPLAIN_OPTIONS);
  checkLimit(options);
  return new PlanExplainer(plan).explain(callId, options);
}

function checkLimit(options: ExplainOptions): number {
  const limit = options.limit ?? DEFAULT_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new TypeError(`explainCall: limit must be a whole number >= 1, not ${String(limit)}`);
  return limit;
}

const positionsCache = new WeakMap<CompiledPlan, Int32Array>();

function topologicalPositions(plan: CompiledPlan): Int32Array {
  let position = positionsCache.get(plan);
  if (!position) {
    position = new Int32Array(plan.calls.length);
    plan.order.forEach((i, k) => (position![i] = k));
    positionsCache.set(plan, position);
  }
  return position;
}

function group(
  plan: CompiledPlan,
  calls: readonly number[],
  fates: readonly Fate[],
  limit: number,
): BlockedOutcome {
  // Fates are found in topological order; each group lists its calls in plan order.
  const by = (want: (f: Fate) => boolean) =>
    bounded(
      plan,
      calls.filter((_, k) => want(fates[k]!)).sort((a, b) => a - b),
      limit,
    );
  return {
    upstreamFailed: by((f) => f === UPSTREAM_FAILED),
    skipped: by((f) => f === SKIPPED),
    mayRun: by((f) => f !== UPSTREAM_FAILED && f !== SKIPPED),
  };
}

function bounded(plan: CompiledPlan, calls: readonly number[], limit: number): BoundedIds {
  const ids = calls.slice(0, limit).map((i) => plan.calls[i]!.id);
  return { ids, total: calls.length, more: calls.length - ids.length };
}
