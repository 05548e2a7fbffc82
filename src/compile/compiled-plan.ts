/** The compiled plan object: fields plus an id index built on first use. */
import type { Diagnostic } from '../language/diagnostics.js';
import type { JsonObject, ExecutionMode } from '../language/document.js';
import type { ToolRegistry } from '../tools/registry.js';
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

const successorsOf = new WeakMap<CompiledPlan, SuccessorLists>();

/**
 * @internal The edges the compile's order computed, kept for the executor, which would
 * otherwise make every call's dependency objects only to count and reverse them. Undefined for
 * a plan not made by this copy of `compile` (the executor then reads `dependencies`).
 */
export function successorLists(plan: CompiledPlan): SuccessorLists | undefined {
  return successorsOf.get(plan);
}

/** @internal Called by compile once per plan it makes. */
export function keepSuccessorLists(plan: CompiledPlan, lists: SuccessorLists): void {
  successorsOf.set(plan, lists);
}

/** Each call's dependencies as call indices: call i's are `from[offsets[i]..offsets[i+1]]`. */
export interface DependencyIndices {
  readonly offsets: Int32Array;
  readonly from: Int32Array;
}

const dependencyIndicesOf = new WeakMap<CompiledPlan, DependencyIndices>();

/**
 * @internal The calls each call waits for, as indices, for code that needs no more of a
 * dependency than where it comes from (the dry run's critical path and levels): from the
 * order's lists when compile kept them, so no call's dependency objects are made; else from
 * `dependencies`. Within a call, the order of its entries is unspecified. Made once per plan.
 */
export function dependencyIndices(plan: CompiledPlan): DependencyIndices {
  let indices = dependencyIndicesOf.get(plan);
  if (indices) return indices;
  const n = plan.calls.length;
  const lists = successorLists(plan);
  const offsets = new Int32Array(n + 1);
  if (lists) {
    for (const to of lists.targets) offsets[to + 1]!++;
    for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
    const from = new Int32Array(lists.targets.length);
    const fill = offsets.slice(0, n);
    for (let v = 0; v < n; v++) {
      for (let k = lists.offsets[v]!; k < lists.offsets[v + 1]!; k++) from[fill[lists.targets[k]!]!++] = v;
    }
    indices = { offsets, from };
  } else {
    for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + plan.calls[i]!.dependencies.length;
    const from = new Int32Array(offsets[n]!);
    let k = 0;
    for (const call of plan.calls) for (const d of call.dependencies) from[k++] = d.from;
    indices = { offsets, from };
  }
  dependencyIndicesOf.set(plan, indices);
  return indices;
}
