/**
 * Every dependency edge of a plan as two growable columns of call indices, in the order the
 * data flow added them. The order computation reads these instead of each call's list of
 * dependency objects, which on a large plan lie all over the heap.
 */
export class EdgeList {
  #from = new Int32Array(1024);
  #to = new Int32Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Notes that call `to` depends on call `from`. */
  add(from: number, to: number): void {
    if (this.#size === this.#from.length) {
      const from2 = new Int32Array(this.#size * 2);
      const to2 = new Int32Array(this.#size * 2);
      from2.set(this.#from);
      to2.set(this.#to);
      this.#from = from2;
      this.#to = to2;
    }
    this.#from[this.#size] = from;
    this.#to[this.#size++] = to;
  }

  /** The call edge `e` (in the order added) comes from. */
  fromOf(e: number): number {
    return this.#from[e]!;
  }

  /**
   * Each call's dependencies in compressed form: call i's are `from[offsets[i]..offsets[i+1]]`,
   * in the order they were added (the order of its `dependencies` list).
   */
  byTarget(n: number): { offsets: Int32Array; from: Int32Array } {
    const offsets = new Int32Array(n + 1);
    for (let e = 0; e < this.#size; e++) offsets[this.#to[e]! + 1]!++;
    for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
    const from = new Int32Array(this.#size);
    const fill = offsets.slice(0, n);
    for (let e = 0; e < this.#size; e++) from[fill[this.#to[e]!]!++] = this.#from[e]!;
    return { offsets, from };
  }
}
