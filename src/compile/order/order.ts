/**
 * Topological order (Kahn's algorithm, ties broken by array order with a binary heap),
 * levels and the critical path, all iterative: a 100k-call chain must not touch the stack.
 */
import type { EdgeList } from '../storage/index.js';
import type { Dependency } from '../types.js';

/** Anything with a list of dependencies: a call spec or a compiled call. */
export interface HasDependencies {
  readonly dependencies: readonly Dependency[];
}

export interface Ordering {
  /** Call indices in a topological order; shorter than n when there is a cycle. */
  readonly order: number[];
  /**
   * Depth of each call (0 without dependencies, 1 more than its deepest dependency); -1 for
   * calls on or after a cycle.
   */
  readonly levels: number[];
  /** Longest chain of dependent calls that can all run in one scenario, first to last. */
  readonly criticalPath: number[];
  /** Successors in compressed form: call i's are `targets[offsets[i]..offsets[i+1]]`. */
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  /** Dependencies in compressed form, in list order: call i's are `from[offsets[i]..offsets[i+1]]`. */
  readonly dependencies: DependencyLists;
}

/** Each call's dependencies as call indices: call i's are `from[offsets[i]..offsets[i+1]]`. */
export interface DependencyLists {
  readonly offsets: Int32Array;
  readonly from: Int32Array;
}

/** Most chains a call that never runs keeps for the calls after it (see orderCalls). */
const MAX_CANDIDATES = 4;

/**
 * @param neverRuns per call, 1 when it runs in no scenario: it adds no depth and ends no
 *   critical path, but passes on the wait for what it follows (as a skipped call in a run).
 * @param exclusive true when two calls never both run (different alternatives of one branch):
 *   a wait passed on through a call that never runs does not join them into one chain.
 */
export function orderCalls(
  calls: readonly HasDependencies[],
  neverRuns?: readonly number[],
  exclusive?: (a: number, b: number) => boolean,
  edges?: EdgeList,
): Ordering {
  const n = calls.length;
  // Each call's dependencies (indices, in list order), from the edge list when there is one.
  const dependencies = edges ? edges.byTarget(n) : dependencyLists(calls);
  const { offsets: before, from: preds } = dependencies;
  const indegree = new Int32Array(n);
  const offsets = new Int32Array(n + 1);
  // True while every call depends on earlier calls only (a plan without forward references).
  let forward = true;
  for (let i = 0; i < n; i++) {
    indegree[i] = before[i + 1]! - before[i]!;
    for (let k = before[i]!; k < before[i + 1]!; k++) {
      const from = preds[k]!;
      offsets[from + 1]!++;
      if (from >= i) forward = false;
    }
  }
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const targets = new Int32Array(offsets[n]!);
  const fill = offsets.slice(0, n);
  for (let i = 0; i < n; i++)
    for (let k = before[i]!; k < before[i + 1]!; k++) targets[fill[preds[k]!]!++] = i;

  // The order takes the earliest ready call in array order each time. When every edge goes
  // from an earlier call to a later one, that is the array order itself (each call is ready
  // once the calls before it are placed, and no later call is earlier): no heap is needed.
  const heap = forward ? null : new MinHeap(n);
  if (heap) for (let i = 0; i < n; i++) if (indegree[i] === 0) heap.push(i);
  const order: number[] = [];
  const levels = new Array<number>(n).fill(-1);
  // Calls that run on the longest chain into each call: the critical path's measure, and the
  // running call that chain ends with (`via`). A call that never runs counts none but passes
  // on the longest chains into it (a few, `passed`), so a call after it can take one whose
  // end it can run with. Levels stay the plain depth, so every edge goes down a level (what a
  // drawing by levels needs).
  const depth = new Int32Array(n);
  const via = new Int32Array(n).fill(-1);
  const passed: (Candidate[] | undefined)[] = neverRuns ? new Array(n) : [];
  const best: LongestChain = { runs: true, longest: 0, end: -1, gathered: undefined };
  for (let next = 0; heap ? heap.size > 0 : next < n; next++) {
    const v = heap ? heap.pop() : next;
    order.push(v);
    const runs = neverRuns?.[v] !== 1;
    let level = 0;
    best.runs = runs;
    best.longest = 0;
    best.end = -1;
    best.gathered = undefined;
    for (let k = before[v]!; k < before[v + 1]!; k++) {
      const from = preds[k]!;
      level = Math.max(level, levels[from]! + 1);
      if (neverRuns?.[from] !== 1) offer(best, depth[from]! + 1, from);
      else {
        for (const c of passed[from] ?? []) {
          if (runs && exclusive?.(c.end, v)) continue;
          offer(best, c.depth, c.end);
        }
      }
    }
    levels[v] = level;
    if (runs) {
      depth[v] = best.longest;
      via[v] = best.end;
    } else passed[v] = best.gathered;
    if (heap) {
      for (let k = offsets[v]!; k < offsets[v + 1]!; k++) {
        const w = targets[k]!;
        if (--indegree[w]! === 0) heap.push(w);
      }
    }
  }

  let end = -1;
  for (const v of order) {
    if (neverRuns?.[v] !== 1 && (end < 0 || depth[v]! > depth[end]!)) end = v;
  }
  const criticalPath: number[] = [];
  for (let v = end; v >= 0; v = via[v]!) criticalPath.push(v);
  criticalPath.reverse();
  return { order, levels, criticalPath, offsets, targets, dependencies };
}

/** The calls' dependency lists in the compressed form of {@link EdgeList.byTarget}. */
export function dependencyLists(calls: readonly HasDependencies[]): DependencyLists {
  const n = calls.length;
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + calls[i]!.dependencies.length;
  const from = new Int32Array(offsets[n]!);
  for (let i = 0; i < n; i++) {
    let k = offsets[i]!;
    for (const d of calls[i]!.dependencies) from[k++] = d.from;
  }
  return { offsets, from };
}

/** The longest chain into the call being placed, so far (one object for the whole order). */
interface LongestChain {
  /** Whether the call runs in some scenario; a call that never runs gathers chains instead. */
  runs: boolean;
  longest: number;
  /** The running call the longest chain ends with; -1 for none yet. */
  end: number;
  gathered: Candidate[] | undefined;
}

/** Offers a chain of `length` calls ending with `end` into the call being placed. */
function offer(best: LongestChain, length: number, end: number): void {
  if (!best.runs) {
    best.gathered = keepLongest(best.gathered ?? [], length, end);
    return;
  }
  if (best.end < 0 || length > best.longest || (length === best.longest && best.end > end)) {
    best.longest = length;
    best.end = end;
  }
}

/** A chain a call that never runs passes on: its length and the running call it ends with. */
interface Candidate {
  readonly depth: number;
  readonly end: number;
}

/** `list` with (depth, end) added, keeping the MAX_CANDIDATES longest (one per end call). */
function keepLongest(list: Candidate[], depth: number, end: number): Candidate[] {
  const same = list.findIndex((c) => c.end === end);
  if (same >= 0) {
    if (list[same]!.depth >= depth) return list;
    list.splice(same, 1);
  }
  let at = list.length;
  while (at > 0 && list[at - 1]!.depth < depth) at--;
  if (at >= MAX_CANDIDATES) return list;
  list.splice(at, 0, { depth, end });
  if (list.length > MAX_CANDIDATES) list.length = MAX_CANDIDATES;
  return list;
}

/** A binary min-heap of small integers in a typed array. */
class MinHeap {
  readonly #items: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.#items = new Int32Array(Math.max(1, capacity));
  }

  push(value: number): void {
    const items = this.#items;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]! <= value) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const items = this.#items;
    const top = items[0]!;
    const last = items[--this.size]!;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && items[right]! < items[left]! ? right : left;
      if (items[child]! >= last) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = last;
    return top;
  }
}
