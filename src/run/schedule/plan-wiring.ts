/**
 * Who waits for whom in a run of a whole plan: the compile's edges, and the gates of program
 * order (see compile/order/order-gates.ts). Effects follow program order by the tools the run has:
 * when the plan was compiled without tools, or with tools that say otherwise of effects, the
 * effect edges are derived here from the run's tools (the plan's own edges all still hold).
 * The common case, a plan compiled with the tools it runs with (or with tools of the same
 * program order, plain tools above all), shares the compile's lists and costs one string
 * comparison.
 */
import { dependencyIndices, type ProgramOrderFacts, programOrderOf } from '../../compile/compiled-plan.js';
import { EffectOrder, type OrderEdgeSink, NO_GATES, OrderGates } from '../../compile/order/index.js';
import type { CompiledPlan } from '../../compile/types.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { planSuccessors, Successors } from './successors.js';

export interface PlanWiring {
  /** Per call, how many of its dependencies have not ended yet (the run's own copy). */
  readonly remaining: number[];
  /** Per call, the calls that wait for it. */
  readonly successors: Successors;
  /** Per call, the calls it follows in program order or by `_after`. */
  readonly gates: OrderGates;
}

/** The wiring of a run of `plan` with `tools`. */
export function planWiring(plan: CompiledPlan, tools: ToolRegistry): PlanWiring {
  const facts = programOrderOf(plan);
  const compiledWith = plan.tools?.programOrderKey ?? '';
  if (plan.tools === tools || compiledWith === tools.programOrderKey) {
    return {
      remaining: dependencyCounts(plan).slice(),
      successors: planSuccessors(plan),
      gates: facts?.gates ?? NO_GATES,
    };
  }
  return derivedWiring(plan, tools, facts);
}

const dependencyCountsCache = new WeakMap<CompiledPlan, number[]>();

/** Per call of a compiled plan, how many dependencies it has: made once, copied by each run. */
function dependencyCounts(plan: CompiledPlan): number[] {
  let counts = dependencyCountsCache.get(plan);
  if (!counts) {
    const { offsets } = dependencyIndices(plan);
    counts = plan.calls.map((_, i) => offsets[i + 1]! - offsets[i]!);
    dependencyCountsCache.set(plan, counts);
  }
  return counts;
}

/**
 * The plan's edges and gates, and those effect order adds by the run's tools, deduplicated
 * against the plan's own. One pass in array order, as the compile's (linear in the plan).
 */
function derivedWiring(
  plan: CompiledPlan,
  tools: ToolRegistry,
  facts: ProgramOrderFacts | undefined,
): PlanWiring {
  const calls = plan.calls;
  const n = calls.length;
  const { offsets, from } = dependencyIndices(plan);
  const gates = new OrderGates();
  if (facts) gates.addAll(facts.gates);
  const extra = new ExtraEdges(n);
  const order = new EffectOrder(extra, gates);
  for (let i = 0; i < n; i++) {
    extra.open(i);
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) extra.mark(from[k]!, i);
    const registered = tools.get(calls[i]!.tool);
    const outside = facts?.optedOut.has(i) === true || registered?.tool.independent === true;
    order.add(i, registered?.programOrder === true, outside);
  }
  // Every call's dependencies, the plan's then the new, as successor lists by the call waited for.
  const remaining = new Array<number>(n);
  const fanOut = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    remaining[i] = offsets[i + 1]! - offsets[i]! + extra.countInto(i);
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) fanOut[from[k]! + 1]!++;
  }
  extra.forEach((source) => fanOut[source + 1]!++);
  for (let i = 0; i < n; i++) fanOut[i + 1]! += fanOut[i]!;
  const targets = new Int32Array(fanOut[n]!);
  const fill = fanOut.slice(0, n);
  for (let i = 0; i < n; i++) {
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) targets[fill[from[k]!]!++] = i;
    extra.forEachInto(i, (source) => (targets[fill[source]!++] = i));
  }
  const successors = new Successors({ calls: n, edges: targets.length });
  for (let source = 0; source < n; source++)
    for (let k = fanOut[source]!; k < fanOut[source + 1]!; k++) successors.add(source, targets[k]!);
  return { remaining, successors, gates };
}

/** The edges effect order adds to a plan's, by the call they go into (made in array order). */
class ExtraEdges implements OrderEdgeSink {
  /** `#marked[j] === i` when call i waits for call j already. */
  readonly #marked: Int32Array;
  readonly #sources: number[] = [];
  /** Per call, where its edges start in #sources (calls are visited in order). */
  readonly #start: Int32Array;
  #current = -1;

  constructor(n: number) {
    this.#marked = new Int32Array(n).fill(-1);
    this.#start = new Int32Array(n + 1);
  }

  /** The edges into call `to` come next (calls come in array order). */
  open(to: number): void {
    this.#current = to;
    this.#start[to] = this.#sources.length;
  }

  /** Call `to` waits for call `source` by the plan's own edges. */
  mark(source: number, to: number): void {
    this.#marked[source] = to;
  }

  addOrderEdge(to: number, source: number): boolean {
    if (source === to || this.#marked[source] === to) return false;
    this.#marked[source] = to;
    this.#sources.push(source);
    return true;
  }

  countInto(to: number): number {
    return this.#end(to) - this.#start[to]!;
  }

  forEachInto(to: number, visit: (source: number) => void): void {
    for (let k = this.#start[to]!; k < this.#end(to); k++) visit(this.#sources[k]!);
  }

  forEach(visit: (source: number) => void): void {
    for (const source of this.#sources) visit(source);
  }

  #end(to: number): number {
    return to < this.#current ? this.#start[to + 1]! : this.#sources.length;
  }
}
