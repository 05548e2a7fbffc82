/**
 * Positions in the source text. Parsing a large plan with JSON.parse is ten times faster than
 * building a positioned syntax tree, and positions are only needed when something is wrong, so
 * no tree is built: the pointers of the diagnostics are found in one pass over the text
 * (pointer-offsets), however deep or big the document.
 */
import { pointerOffsets } from './pointer-offsets.js';

export interface Position {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units like every editor and tsc. */
  readonly column: number;
  /** 0-based character offset. */
  readonly offset: number;
}

/** One pointer to place: at its value, at its key, or a number of characters into its string. */
export interface LocateRequest {
  readonly pointer: string;
  readonly options?: { readonly offset?: number; readonly key?: boolean };
}

const QUOTE = 0x22;

export class SourceText {
  #text: string | (() => string);

  /**
   * @param text The document as written, or for a document given as a value, its
   *   `JSON.stringify(value, null, 2)` rendering (made lazily by {@link SourceText.fromValue}).
   */
  private constructor(
    text: string | (() => string),
    /** The name diagnostics print: a file path, `<stdin>` or `<input>`. */
    readonly name: string,
  ) {
    this.#text = text;
  }

  static fromText(text: string, name = '<input>'): SourceText {
    return new SourceText(text, name);
  }

  /** A document that was given as a value: positions point into its pretty-printed JSON. */
  static fromValue(value: unknown, name = '<value>'): SourceText {
    return new SourceText(() => JSON.stringify(value, null, 2) ?? '', name);
  }

  get text(): string {
    if (typeof this.#text === 'function') this.#text = this.#text();
    return this.#text;
  }

  /**
   * The position of the value at `pointer` (or of its key, with `key: true`), moved `offset`
   * characters into it when it is a string. Falls back to the nearest enclosing value that
   * exists, so a pointer to a missing member still lands on its object. To place many pointers,
   * use {@link SourceText.locateAll}: one pass over the text for all of them.
   */
  locate(pointer: string, options: LocateRequest['options'] = {}): Position {
    return this.locateAll([{ pointer, options }])[0]!;
  }

  /** The positions of many pointers, in one pass over the text (see `locate`). */
  locateAll(requests: readonly LocateRequest[]): Position[] {
    if (requests.length === 0) return [];
    const text = this.text;
    const offsets = pointerOffsets(
      text,
      requests.map((r) => r.pointer),
    );
    return requests.map((request, k) => {
      const found = offsets[k]!;
      const options = request.options ?? {};
      if (options.key && found.found && found.key !== undefined) return this.positionAt(found.key);
      const start = this.positionAt(found.value);
      if (options.offset === undefined || !found.found || text.charCodeAt(found.value) !== QUOTE)
        return start;
      return this.insideString(start, options.offset);
    });
  }

  /** Position of a character offset in the raw text (a binary search over the line starts). */
  positionAt(offset: number): Position {
    const text = this.text;
    const starts = this.#lineStarts();
    const end = Math.min(offset, text.length);
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (starts[mid]! <= end) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: end - starts[low]! + 1, offset: end };
  }

  #starts: number[] | undefined;

  /** Offsets where each line begins, found once. */
  #lineStarts(): number[] {
    if (this.#starts) return this.#starts;
    const text = this.text;
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.#starts = starts;
    return starts;
  }

  /** Maps an offset in a string's decoded value to a column, walking its escapes in the raw text. */
  private insideString(start: Position, decodedOffset: number): Position {
    const text = this.text;
    let raw = start.offset + 1; // after the opening quote
    for (let decoded = 0; decoded < decodedOffset && raw < text.length; decoded++) {
      if (text[raw] === '\\') raw += text[raw + 1] === 'u' ? 6 : 2;
      else raw++;
    }
    const moved = raw - start.offset;
    return { line: start.line, column: start.column + moved, offset: raw };
  }
}
