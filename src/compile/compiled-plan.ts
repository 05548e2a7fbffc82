/** The compiled plan object: fields plus an id index built on first use. */
import type { Diagnostic } from '../language/diagnostics.js';
import type { JsonObject, ExecutionMode } from '../language/document.js';
import type { ToolRegistry } from '../tools/registry.js';
import { type DependencyLists, dependencyLists, type OrderGates } from './order/index.js';
import type { CompiledCall, CompiledPlan } from './types.js';

export class Plan implements CompiledPlan {
  readonly mode!: ExecutionMode;
  readonly calls!: readonly CompiledCall[];
  readonly order!: readonly number[];
  readonly levels!: readonly number[];
  readonly criticalPath!: readonly number[];
  readonly edgeCount!: number;
  readonly input?: JsonObject;
  readonly state?: JsonObject;
  readonly stateSchema?: JsonObject;
  readonly outputSchema?: JsonObject | boolean;
  readonly tools?: ToolRegistry;
  readonly diagnostics!: readonly Diagnostic[];
  #ids: Map<string, number> | undefined;

  constructor(fields: Omit<CompiledPlan, 'indexOf'>) {
    Object.assign(this, fields);
  }

  indexOf(id: string): number | undefined {
    this.#ids ??= new Map(this.calls.map((c) => [c.id, c.index]));
    return this.#ids.get(id);
  }
}

/**
 * A compiled plan (what `compile` returns in `plan`), told apart from a plan document by its
 * shape, so one made by another copy of the package counts too.
 */
export function isCompiledPlan(value: unknown): value is CompiledPlan {
  return (
    value !== null &&
    typeof value === 'object' &&
    Array.isArray((value as CompiledPlan).calls) &&
    Array.isArray((value as CompiledPlan).order) &&
    typeof (value as CompiledPlan).indexOf === 'function'
  );
}

/** A plan's edges by the call they leave: call i's dependents are `targets[offsets[i]..offsets[i+1]]`, ascending. */
export interface SuccessorLists {
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
}

/** The edges the compile's order computed, both ways. */
interface EdgeLists {
  readonly successors: SuccessorLists;
  readonly dependencies: DependencyLists;
}

const edgesOf = new WeakMap<CompiledPlan, EdgeLists>();
/** Dependency lists made from `dependencies`, for plans not made by this copy of `compile`. */
const madeFromCalls = new WeakMap<CompiledPlan, DependencyLists>();

/** @internal Called by compile once per plan it makes. */
export function keepEdgeLists(plan: CompiledPlan, edges: EdgeLists): void {
  edgesOf.set(plan, edges);
}

/**
 * @internal The edges the compile's order computed, kept for the executor, which would
 * otherwise make every call's dependency objects only to count and reverse them. Undefined for
 * a plan not made by this copy of `compile` (the executor then reads `dependencies`).
 */
export function successorLists(plan: CompiledPlan): SuccessorLists | undefined {
  return edgesOf.get(plan)?.successors;
}

/**
 * @internal The calls each call waits for, as indices in list order, for code that needs no
 * more of a dependency than where it comes from (the executor's counts, the dry run's critical
 * path and levels): the order's lists when compile kept them, so no call's dependency objects
 * are made; else made from `dependencies`, once per plan.
 */
export function dependencyIndices(plan: CompiledPlan): DependencyLists {
  const kept = edgesOf.get(plan);
  if (kept) return kept.dependencies;
  let lists = madeFromCalls.get(plan);
  if (!lists) {
    lists = dependencyLists(plan.calls);
    madeFromCalls.set(plan, lists);
  }
  return lists;
}

/** What the executor needs of a plan's program order besides its edges. */
export interface ProgramOrderFacts {
  /** Per call, the calls it follows in program order or by `_after`, and why. */
  readonly gates: OrderGates;
  /** The calls that opted out with `_independent: true`. */
  readonly optedOut: ReadonlySet<number>;
}

const programOrders = new WeakMap<CompiledPlan, ProgramOrderFacts>();

/** @internal Called by compile for a plan with gates or opted-out calls. */
export function keepProgramOrder(plan: CompiledPlan, facts: ProgramOrderFacts): void {
  programOrders.set(plan, facts);
}

/**
 * @internal The plan's program order as its compile found it: undefined for a plan without
 * effects, `_after` or `_independent` (or not made by this copy of `compile`).
 */
export function programOrderOf(plan: CompiledPlan): ProgramOrderFacts | undefined {
  return programOrders.get(plan);
}
