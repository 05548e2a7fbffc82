/**
 * Every dependency edge of a plan as two growable columns of call indices, in the order the
 * data flow added them. The order computation reads these instead of each call's list of
 * dependency objects, which on a large plan lie all over the heap.
 */
import { IntColumn } from './int-column.js';

export class EdgeList {
  readonly #from = new IntColumn();
  readonly #to = new IntColumn();

  get size(): number {
    return this.#from.size;
  }

  /** Notes that call `to` depends on call `from`. */
  add(from: number, to: number): void {
    this.#from.push(from);
    this.#to.push(to);
  }

  /** The call edge `e` (in the order added) comes from. */
  fromOf(e: number): number {
    return this.#from.at(e);
  }

  /**
   * Each call's dependencies in compressed form: call i's are `from[offsets[i]..offsets[i+1]]`,
   * in the order they were added (the order of its `dependencies` list).
   */
  byTarget(n: number): { offsets: Int32Array; from: Int32Array } {
    const size = this.size;
    const offsets = new Int32Array(n + 1);
    for (let e = 0; e < size; e++) offsets[this.#to.at(e) + 1]!++;
    for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
    const from = new Int32Array(size);
    const fill = offsets.slice(0, n);
    for (let e = 0; e < size; e++) from[fill[this.#to.at(e)]!++] = this.#from.at(e);
    return { offsets, from };
  }
}
