/**
 * A growable column of 32-bit integers: what the compiler keeps per read, per edge or per call
 * on plans of 100k calls, at 4 bytes an entry and outside the collector's view (a JS array of
 * numbers is 8 bytes an entry, and every entry is a slot the collector visits).
 */
export class IntColumn {
  #values: Int32Array;
  #size = 0;

  constructor(capacity = 1024) {
    this.#values = new Int32Array(Math.max(capacity, 16));
  }

  get size(): number {
    return this.#size;
  }

  push(value: number): void {
    if (this.#size === this.#values.length) {
      const bigger = new Int32Array(this.#values.length * 2);
      bigger.set(this.#values);
      this.#values = bigger;
    }
    this.#values[this.#size++] = value;
  }

  /** The entry at `k` (which must be below `size`). */
  at(k: number): number {
    return this.#values[k]!;
  }

  set(k: number, value: number): void {
    this.#values[k] = value;
  }
}
