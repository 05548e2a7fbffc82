/**
 * The start of a value's JSON text, and how much of it was left out: for showing a tool's
 * result to a model or a person without handing them megabytes. A tool's output is untrusted
 * (it may be huge, deep or, from code, cyclic), so the walk is a loop over an explicit stack and
 * stops once it has written `maxLength` characters and counted `countUpTo` more: its work is
 * bounded by those two numbers, not by the value's size.
 *
 * The text is exactly the first `maxLength` characters of `JSON.stringify(value)` for JSON data;
 * what JSON cannot hold is written as JSON.stringify would (undefined and functions dropped from
 * objects and written `null` in arrays, NaN and ±Infinity as `null`), a BigInt as its digits.
 */

export interface JsonExcerptOptions {
  /** Most characters of the JSON text kept. */
  readonly maxLength: number;
  /**
   * Most characters counted past `maxLength` before the count stops (then `omitted` is a lower
   * bound and `atLeast` is true).
   * @default 1_000_000
   */
  readonly countUpTo?: number;
}

export interface JsonExcerpt {
  /** The start of the JSON text, at most `maxLength` characters. */
  readonly text: string;
  /** Characters of the JSON text left out (0: `text` is all of it). */
  readonly omitted: number;
  /** True when the count stopped at `countUpTo`: at least `omitted` characters were left out. */
  readonly atLeast: boolean;
}

const DEFAULT_COUNT_UP_TO = 1_000_000;

/** One container being written: its members, and the next one to write. */
interface Frame {
  readonly array: readonly unknown[] | null;
  readonly object: Readonly<Record<string, unknown>> | null;
  readonly keys: readonly string[];
  next: number;
  /** Members written so far (an object's dropped members are not): whether a comma comes first. */
  written: number;
}

export function jsonExcerpt(value: unknown, options: JsonExcerptOptions): JsonExcerpt {
  const { maxLength } = options;
  const limit = maxLength + (options.countUpTo ?? DEFAULT_COUNT_UP_TO);
  const pieces: string[] = [];
  let kept = 0;
  let total = 0;
  let atLeast = false;
  const emit = (text: string): void => {
    if (kept < maxLength) {
      const piece = text.length <= maxLength - kept ? text : text.slice(0, maxLength - kept);
      pieces.push(piece);
      kept += piece.length;
    }
    total += text.length;
  };
  const emitString = (text: string): void => {
    const room = maxLength - kept;
    if (room > 0) {
      // Only the part that can be kept is escaped: the head of a 100 MB string, not all of it.
      const head = JSON.stringify(text.length > room ? text.slice(0, room) : text);
      const piece = head.length <= room ? head : head.slice(0, room);
      pieces.push(piece);
      kept += piece.length;
    }
    if (text.length + 2 > limit - total) {
      // Its JSON is at least this long, and already past the count's end.
      total += text.length + 2;
      atLeast = true;
    } else total += quotedLength(text);
  };
  const emitValue = (item: unknown, inArray: boolean, stack: Frame[]): void => {
    if (item !== null && typeof item === 'object') {
      if (Array.isArray(item)) {
        emit('[');
        stack.push({ array: item, object: null, keys: [], next: 0, written: 0 });
      } else {
        emit('{');
        stack.push({
          array: null,
          object: item as Record<string, unknown>,
          keys: ownKeys(item),
          next: 0,
          written: 0,
        });
      }
      return;
    }
    if (typeof item === 'string') emitString(item);
    else if (typeof item === 'number') emit(Number.isFinite(item) ? String(item) : 'null');
    else if (typeof item === 'boolean') emit(item ? 'true' : 'false');
    else if (typeof item === 'bigint') emit(String(item));
    else if (inArray || item === null) emit('null');
  };
  try {
    const stack: Frame[] = [];
    if (isDropped(value)) return { text: '', omitted: 0, atLeast: false };
    emitValue(value, true, stack);
    while (stack.length > 0) {
      if (total > limit) {
        atLeast = true;
        break;
      }
      const frame = stack[stack.length - 1]!;
      if (frame.array) {
        if (frame.next >= frame.array.length) {
          stack.pop();
          emit(']');
          continue;
        }
        if (frame.written++ > 0) emit(',');
        emitValue(frame.array[frame.next++], true, stack);
        continue;
      }
      if (frame.next >= frame.keys.length) {
        stack.pop();
        emit('}');
        continue;
      }
      const key = frame.keys[frame.next++]!;
      const member = frame.object![key];
      if (isDropped(member)) continue;
      if (frame.written++ > 0) emit(',');
      emitString(key);
      emit(':');
      emitValue(member, false, stack);
    }
  } catch {
    // A getter or Proxy trap that throws: what was written so far stands, and the rest is unknown.
    atLeast = true;
  }
  return { text: pieces.join(''), omitted: Math.max(0, total - kept), atLeast };
}

/**
 * The excerpt as text, with a marker where it was cut: `{"orders":[1,2,… (12,345 more characters)`.
 */
export function jsonExcerptText(value: unknown, options: JsonExcerptOptions): string {
  const excerpt = jsonExcerpt(value, options);
  if (excerpt.omitted === 0 && !excerpt.atLeast) return excerpt.text;
  return `${excerpt.text}${omissionMarker(excerpt)}`;
}

/** `… (12,345 more characters)`, or `… (more than 1,000,000 more characters)`. */
export function omissionMarker(excerpt: Pick<JsonExcerpt, 'omitted' | 'atLeast'>): string {
  const count = groupedDigits(excerpt.omitted);
  return `… (${excerpt.atLeast ? 'more than ' : ''}${count} more character${excerpt.omitted === 1 && !excerpt.atLeast ? '' : 's'})`;
}

/** `12,345`: grouped by hand, the same text whatever the locale and ICU data the process has. */
export function groupedDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

function isDropped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function ownKeys(object: object): string[] {
  const keys: string[] = [];
  for (const key in object) if (Object.hasOwn(object, key)) keys.push(key);
  return keys;
}

/** The length of `JSON.stringify(text)`, without making it. */
function quotedLength(text: string): number {
  let length = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) length += 2;
    else if (c < 0x20) length += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    else if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate pair is written as is; a lone surrogate as a \u escape.
      const pair = c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (pair) {
        length += 2;
        i++;
      } else length += 6;
    } else length += 1;
  }
  return length;
}
