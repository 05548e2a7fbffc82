/**
 * A growable column of 32-bit integers: what the compiler keeps per read, per edge or per call
 * on plans of 100k calls, at 4 bytes an entry and outside the collector's view (a JS array of
 * numbers is 8 bytes an entry, and every entry is a slot the collector visits).
 *
 * Past CHUNK entries it grows by adding chunks, not by copying into one array twice the size:
 * typed arrays live outside the heap, and V8 starts a full collection when enough was allocated
 * there. A 100k-call compile's typed arrays, the columns each doubled until it fitted, stood at
 * 40.5 MB right after the compile against 21.7 MB kept (the copies outgrown are garbage until a
 * collection), and set off one full collection of about 70 ms in the middle of the compile;
 * chunks allocate what they keep, within one chunk per column.
 */

/** Entries per chunk: 2^14 (64 KB). */
const SHIFT = 14;
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;

export class IntColumn {
  /** Chunk k holds entries k * CHUNK to (k + 1) * CHUNK - 1; only the first grows by copying. */
  readonly #chunks: Int32Array[];
  /** The chunk being filled. */
  #last: Int32Array;
  #size = 0;

  constructor(capacity = 1024) {
    this.#last = new Int32Array(Math.min(Math.max(capacity, 16), CHUNK));
    this.#chunks = [this.#last];
  }

  get size(): number {
    return this.#size;
  }

  push(value: number): void {
    const k = this.#size & MASK;
    if (k === this.#last.length) this.#growFirst();
    else if (k === 0 && this.#size > 0) {
      this.#last = new Int32Array(CHUNK);
      this.#chunks.push(this.#last);
    }
    this.#last[k] = value;
    this.#size++;
  }

  /** A small column's one chunk, doubled (up to CHUNK entries): small plans stay small. */
  #growFirst(): void {
    const bigger = new Int32Array(Math.min(this.#last.length * 2, CHUNK));
    bigger.set(this.#last);
    this.#last = bigger;
    this.#chunks[0] = bigger;
  }

  /** The entry at `k` (which must be below `size`). */
  at(k: number): number {
    return this.#chunks[k >>> SHIFT]![k & MASK]!;
  }

  set(k: number, value: number): void {
    this.#chunks[k >>> SHIFT]![k & MASK] = value;
  }
}
