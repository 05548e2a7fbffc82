/**
 * Keys written twice in one object of a JSON text. JSON.parse keeps the last of them without a
 * word, so a call with two `_tool`s runs the second while a reviewer reads the first: the text
 * would not say what runs. One pass over the text finds every repeated key with both offsets.
 * A loop over an explicit stack, not recursion; the keys of an object are compared where they are
 * written while it has few (a map only for the rare object with many keys or escaped keys), and
 * the frames are reused by depth, so a plan of a million calls allocates nothing per call. The text must be
 * JSON (it is only ever given text that JSON.parse accepted); on anything else the scan stops.
 */
import { escapePointerToken } from '../pointer.js';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  skipString,
} from './json-scan.js';

/** One key written again in the object that already has it. */
export interface DuplicateKey {
  /** The key, decoded (`"\u005ftool"` and `"_tool"` are one key). */
  readonly key: string;
  /** Pointer to the member (its object's pointer and the key). */
  readonly pointer: string;
  /** Offset of the first writing of the key (its opening quote). */
  readonly first: number;
  /** Offset of the repeated key (its opening quote). */
  readonly repeated: number;
}

interface Frame {
  object: boolean;
  /**
   * The first keys of the object as written, as offsets of their opening quotes: up to
   * {@link FEW_KEYS} plain keys are compared in place, with no string made for them.
   */
  readonly starts: number[];
  readonly ends: number[];
  count: number;
  /** Past that many keys, or once a key has an escape: decoded key to its first offset. */
  keys: Map<string, number> | null;
  /** The key of the member being read (objects), or the index of the element (arrays). */
  key: number;
  index: number;
}

/** Most objects of a plan (calls, schemas) have fewer keys: they are compared in place. */
const FEW_KEYS = 8;

/**
 * The repeated keys of `text`, in text order, at most `max` of them (the scan stops there: a
 * text with a million repeats needs no million diagnostics).
 */
export function duplicateKeys(text: string, max: number): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  if (max <= 0) return found;
  const frames: Frame[] = [];
  let depth = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const c = text.charCodeAt(i);
    // Space first: a pretty-printed plan is mostly indentation outside its strings.
    if (c <= 0x20) i++;
    else if (c === QUOTE) {
      const end = skipString(text, i);
      if (end < 0) return found;
      const frame = depth > 0 ? frames[depth - 1]! : undefined;
      if (frame?.object && isKey(text, end)) {
        const first = addKey(text, frame, i, end);
        if (first >= 0) {
          found.push({
            key: keyAt(text, i, end),
            pointer: pointerOf(text, frames, depth),
            first,
            repeated: i,
          });
          if (found.length >= max) return found;
        }
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      let frame = frames[depth];
      if (!frame) {
        frame = { object: false, starts: [], ends: [], count: 0, keys: null, key: -1, index: 0 };
        frames.push(frame);
      }
      frame.object = c === OPEN_BRACE;
      frame.index = 0;
      frame.count = 0;
      frame.key = -1;
      frame.keys?.clear();
      frame.keys = null;
      depth++;
      i++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      i++;
    } else if (c === COMMA) {
      if (depth > 0) frames[depth - 1]!.index++;
      i++;
    } else i++;
  }
  return found;
}

/**
 * Records the key written from `start` (its opening quote) to `end` (past its closing quote) in
 * `frame`'s object; returns the offset of its first writing when it was there already, else -1.
 */
function addKey(text: string, frame: Frame, start: number, end: number): number {
  frame.key = start;
  if (frame.keys === null) {
    const plain = !hasEscape(text, start, end);
    if (plain && frame.count < FEW_KEYS) {
      const length = end - start;
      for (let k = 0; k < frame.count; k++) {
        const other = frame.starts[k]!;
        if (frame.ends[k]! - other === length && sameText(text, other, start, length)) return other;
      }
      frame.starts[frame.count] = start;
      frame.ends[frame.count] = end;
      frame.count++;
      return -1;
    }
    // Many keys, or an escaped one: from here on, decoded keys in a map.
    frame.keys = new Map();
    for (let k = 0; k < frame.count; k++) {
      frame.keys.set(keyAt(text, frame.starts[k]!, frame.ends[k]!), frame.starts[k]!);
    }
  }
  const key = keyAt(text, start, end);
  const first = frame.keys.get(key);
  if (first !== undefined) return first;
  frame.keys.set(key, start);
  return -1;
}

/** True when the string written from `start` to `end` has a backslash (looked at within it only). */
function hasEscape(text: string, start: number, end: number): boolean {
  for (let k = start + 1; k < end - 1; k++) if (text.charCodeAt(k) === BACKSLASH) return true;
  return false;
}

/** True when the `length` characters at `a` and at `b` are the same. */
function sameText(text: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}

/** The decoded key written from `start` (its opening quote) to `end`. */
function keyAt(text: string, start: number, end: number): string {
  if (!hasEscape(text, start, end)) return text.slice(start + 1, end - 1);
  return JSON.parse(text.slice(start, end)) as string;
}

/** True when the string that ends just before `end` is a key: a colon follows it. */
function isKey(text: string, end: number): boolean {
  let j = end;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) j++;
    else return c === COLON;
  }
}

/** The pointer of the member being read in the innermost of the `depth` open containers. */
function pointerOf(text: string, frames: readonly Frame[], depth: number): string {
  let pointer = '';
  for (let d = 0; d < depth; d++) {
    const frame = frames[d]!;
    const token = frame.object ? keyAt(text, frame.key, skipString(text, frame.key)) : frame.index;
    pointer += `/${escapePointerToken(token)}`;
  }
  return pointer;
}
