/**
 * What a newcomer at a path must order itself after, read off the data flow's frontier (see
 * data-flow.ts): the last writers at, above and below a node (and the exclusive writers beside
 * them), and whether anything overlapping was written or read there since. Apart, so that the
 * binding reads as reads and writes; the frontier's storage (its PathNodes and co-writers) is
 * the data flow's own, shared and not copied, so a query costs what it did inside DataFlow.
 */
import type { PathNodes } from '../storage/index.js';
import type { ExclusiveWriters } from './exclusive-writers.js';

/** No writer at a node (PathNodes.writer). */
export const NO_WRITER = -1;
/** A read bound to no writer. */
export const NO_WRITERS: number[] = [];

export class FrontierQueries {
  /**
   * The writers the last findOverlapping found: as many as it returned. Reused from
   * read to read and never emptied by `length = 0`, which drops the array's storage (the next
   * push makes it again): on a 100k-call plan that was an allocation and a runtime call per read.
   */
  readonly found: number[] = [];
  /** A node and its ancestors, reused as `found` is. */
  readonly #chain: number[] = [];
  readonly #nodes: PathNodes;
  /** The data flow's exclusive co-writers per node (see ExclusiveWriters). */
  readonly #coWriters: Map<number, number[]>;
  /** The earlier writers a read may still see per node (see seen-writers.ts): a read's, not a write's. */
  readonly #earlier: Map<number, readonly number[]>;

  constructor(nodes: PathNodes, writers: Pick<ExclusiveWriters, 'coWriters' | 'earlier'>) {
    this.#nodes = nodes;
    this.#coWriters = writers.coWriters;
    this.#earlier = writers.earlier;
  }

  /** True when no call but `self` wrote or read at `node` or above it (in the frontier). */
  nothingAbove(node: number, self: number): boolean {
    const nodes = this.#nodes;
    for (let up = node; up >= 0; up = nodes.parentOf(up)) {
      const w = nodes.writer(up);
      if ((w !== NO_WRITER && w !== self) || nodes.readers(up) >= 0) return false;
    }
    return true;
  }

  /** The node's last writer and the exclusive writers beside it. */
  writersAt(node: number): readonly number[] {
    const co = this.#coWriters.size > 0 ? this.#coWriters.get(node) : undefined;
    const w = this.#nodes.writer(node);
    if (!co) return w === NO_WRITER ? NO_WRITERS : [w];
    return [...co, w];
  }

  /**
   * Finds the last writers at, above and below the read path's node, other than call `self`,
   * leaves them in `found` and returns how many. A node in the frontier is walked up from
   * itself; one that is not (nothing was written or read at it since a write above dropped it,
   * or ever) has no writers of its own, and its ancestors in the frontier are taken from the
   * root down.
   */
  findOverlapping(node: number, self: number): number {
    const nodes = this.#nodes;
    const out = this.found;
    let count = 0;
    if (nodes.isAttached(node)) {
      for (let up = node; up >= 0; up = nodes.parentOf(up)) {
        // Earlier writers still seen, and exclusive writers beside the last one, came before it.
        if (this.#earlier.size > 0) count = this.#addEarlier(up, self, out, count);
        if (this.#coWriters.size > 0) count = this.#addCoWriters(up, self, out, count);
        const w = nodes.writer(up);
        if (w !== NO_WRITER && w !== self) out[count++] = w;
      }
      if (nodes.hasChildren(node)) count = this.#addWritersBelow(node, self, out, count);
    } else {
      const chain = this.#chain;
      let length = 0;
      for (let up = node; up >= 0; up = nodes.parentOf(up)) if (nodes.isAttached(up)) chain[length++] = up;
      for (let k = length - 1; k >= 0; k--) {
        const up = chain[k]!;
        if (this.#earlier.size > 0) count = this.#addEarlier(up, self, out, count);
        if (this.#coWriters.size > 0) count = this.#addCoWriters(up, self, out, count);
        const w = nodes.writer(up);
        if (w !== NO_WRITER && w !== self) out[count++] = w;
      }
    }
    return count;
  }

  /**
   * Adds the writers (but `self`) of every node below `node` to `out` from `count` on; returns
   * the new count. Apart, so that the closure's variables are not made for every read.
   */
  #addWritersBelow(node: number, self: number, out: number[], count: number): number {
    const nodes = this.#nodes;
    nodes.forEachDescendant(node, (d) => {
      if (this.#earlier.size > 0) count = this.#addEarlier(d, self, out, count);
      if (this.#coWriters.size > 0) count = this.#addCoWriters(d, self, out, count);
      const w = nodes.writer(d);
      if (w !== NO_WRITER && w !== self) out[count++] = w;
    });
    return count;
  }

  /**
   * Adds the node's exclusive co-writers (but `self`) to `out` from `count` on; returns the new
   * count.
   */
  #addCoWriters(node: number, self: number, out: number[], count: number): number {
    const co = this.#coWriters.get(node);
    if (co) for (const w of co) if (w !== self) out[count++] = w;
    return count;
  }

  /** Adds the node's earlier writers a read may still see (but `self`) to `out` from `count` on. */
  #addEarlier(node: number, self: number, out: number[], count: number): number {
    const earlier = this.#earlier.get(node);
    if (earlier) for (const w of earlier) if (w !== self) out[count++] = w;
    return count;
  }
}
