/**
 * Who waits for whom: per call, the calls that depend on it, in the order they were added. One
 * representation for a whole plan and for a plan that arrives as a stream: linked lists in
 * typed arrays (head, tail and next per edge), which a stream can append to and which cost no
 * object per call. A whole plan's lists are made once per compiled plan and shared by its runs
 * (nothing appends to them).
 */
import { successorLists, type SuccessorLists } from '../../compile/compiled-plan.js';
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';

const NONE = -1;

export class Successors {
  /** Per call, its first and last edge, or NONE. */
  #head: Int32Array;
  #tail: Int32Array;
  /** Per edge, the dependent call and the next edge of the same call. */
  #to: Int32Array;
  #next: Int32Array;
  #edges = 0;

  constructor(options: { calls: number; edges: number }) {
    const calls = Math.max(options.calls, 1);
    const edges = Math.max(options.edges, 1);
    this.#head = new Int32Array(calls).fill(NONE);
    this.#tail = new Int32Array(calls).fill(NONE);
    this.#to = new Int32Array(edges);
    this.#next = new Int32Array(edges);
  }

  /** Records that `to` waits for `from`, after every call recorded before for `from`. */
  add(from: number, to: number): void {
    if (from >= this.#head.length) this.#growCalls(from + 1);
    if (this.#edges === this.#to.length) this.#growEdges();
    const e = this.#edges++;
    this.#to[e] = to;
    this.#next[e] = NONE;
    const last = this.#tail[from]!;
    if (last === NONE) this.#head[from] = e;
    else this.#next[last] = e;
    this.#tail[from] = e;
  }

  /**
   * Counts call i's ending against each of its dependents (`remaining`), and appends those that
   * have nothing left to wait for to `ready`, in the order they were added.
   */
  release(i: number, remaining: Int32Array | number[], ready: number[]): void {
    if (i >= this.#head.length) return;
    const to = this.#to;
    const next = this.#next;
    for (let e = this.#head[i]!; e !== NONE; e = next[e]!) {
      const t = to[e]!;
      if (--remaining[t]! === 0) ready.push(t);
    }
  }

  #growCalls(least: number): void {
    const size = Math.max(least, this.#head.length * 2);
    this.#head = grown(this.#head, size);
    this.#tail = grown(this.#tail, size);
  }

  #growEdges(): void {
    const size = this.#to.length * 2;
    const to = new Int32Array(size);
    to.set(this.#to);
    this.#to = to;
    const next = new Int32Array(size);
    next.set(this.#next);
    this.#next = next;
  }
}

function grown(array: Int32Array, size: number): Int32Array {
  const bigger = new Int32Array(size).fill(NONE);
  bigger.set(array);
  return bigger;
}

const ofPlan = new WeakMap<CompiledPlan, Successors>();

/** A whole plan's successors, made once per compiled plan; callers must not add to them. */
export function planSuccessors(plan: CompiledPlan): Successors {
  let successors = ofPlan.get(plan);
  if (!successors) {
    const lists = successorLists(plan);
    successors = lists ? fromLists(plan.calls.length, lists) : fromCalls(plan.calls);
    ofPlan.set(plan, successors);
  }
  return successors;
}

/** From the compile's own lists: the same edges, in the same order, as from the calls' lists. */
function fromLists(calls: number, { offsets, targets }: SuccessorLists): Successors {
  const successors = new Successors({ calls, edges: targets.length });
  for (let from = 0; from < calls; from++)
    for (let k = offsets[from]!; k < offsets[from + 1]!; k++) successors.add(from, targets[k]!);
  return successors;
}

function fromCalls(calls: readonly CompiledCall[]): Successors {
  let edges = 0;
  for (const call of calls) edges += call.dependencies.length;
  const successors = new Successors({ calls: calls.length, edges });
  for (let i = 0; i < calls.length; i++) for (const d of calls[i]!.dependencies) successors.add(d.from, i);
  return successors;
}
