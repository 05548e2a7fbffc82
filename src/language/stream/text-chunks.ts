/**
 * The text read so far, kept as the chunks it came in: a call's slice is joined from the few
 * chunks it spans, so reading a call costs its own length, never the length of all the text
 * before it (appending to one string and slicing it would copy the whole text at every call).
 */
export class TextChunks {
  readonly #chunks: string[] = [];
  /** Offset of each chunk's first character. */
  readonly #starts: number[] = [];
  #length = 0;

  add(chunk: string): void {
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#starts.push(this.#length);
    this.#length += chunk.length;
  }

  /** The text from `start` to `end` (offsets in the whole text). */
  slice(start: number, end: number): string {
    let low = 0;
    let high = this.#starts.length - 1;
    // The last chunk that starts at or before `start`: a binary search, not a walk from the first.
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.#starts[mid]! <= start) low = mid;
      else high = mid - 1;
    }
    const parts: string[] = [];
    for (let k = low; k < this.#chunks.length && this.#starts[k]! < end; k++) {
      const chunk = this.#chunks[k]!;
      const from = this.#starts[k]!;
      parts.push(chunk.slice(Math.max(0, start - from), Math.min(chunk.length, end - from)));
    }
    return parts.join('');
  }

  /** The whole text. */
  text(): string {
    return this.#chunks.join('');
  }
}
