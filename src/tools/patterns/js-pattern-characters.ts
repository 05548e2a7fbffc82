/**
 * The character-level reading of a JavaScript pattern for js-pattern.ts: the sets and syntax
 * characters RE2 spells differently, the escapes whose value is a code point (`\uXXXX`,
 * `\u{X}`), counts such as `{2,5}` and Unicode properties, each read from a position in the
 * pattern and checked as JavaScript's parser (with the `u` flag) and RE2 would check it. Kept
 * apart from the pass so that the pass holds only the grammar and the program-size estimate.
 */
import { invalid, invalidEscape, loneSurrogate, Refusal } from './js-pattern-refusal.js';
import { translateProperty } from './unicode-properties.js';

/** RE2's largest repetition count (and largest product of nested counts). */
export const MAX_REPEAT = 1000;

export const SYNTAX_CHARACTERS = '^$\\.*+?()[]{}|/';
export const CLASS_SPECIAL = '[]^-';
export const LINE_TERMINATORS = '\\n\\r\\x{2028}\\x{2029}';

/** ECMAScript's WhiteSpace and LineTerminator code points: what `\s` matches. */
const WHITE_SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
export const WHITE_SPACE_RANGES = ranges(WHITE_SPACE);
export const NOT_WHITE_SPACE_RANGES = ranges(complement(WHITE_SPACE));

/** `\uXXXX` (a surrogate pair as two of them is one code point) or `\u{X...}`. */
export function readUnicodeEscape(p: string, at: number): { value: number; consumed: number } {
  if (p[at + 2] === '{') {
    const close = p.indexOf('}', at + 3);
    const hex = close < 0 ? '' : p.slice(at + 3, close);
    const value = isHex(hex) && hex.length <= 8 ? parseInt(hex, 16) : -1;
    if (value < 0 || value > 0x10ffff) throw invalidEscape(p.slice(at, close < 0 ? at + 3 : close + 1), at);
    if (isSurrogate(value)) throw loneSurrogate(p.slice(at, close + 1), at);
    return { value, consumed: close + 1 - at };
  }
  const hex = p.slice(at + 2, at + 6);
  if (hex.length !== 4 || !isHex(hex)) throw invalidEscape(p.slice(at, at + 6), at);
  const unit = parseInt(hex, 16);
  if (unit >= 0xd800 && unit <= 0xdbff && p[at + 6] === '\\' && p[at + 7] === 'u') {
    const low = p.slice(at + 8, at + 12);
    const lowUnit = low.length === 4 && isHex(low) ? parseInt(low, 16) : -1;
    if (lowUnit >= 0xdc00 && lowUnit <= 0xdfff)
      return { value: 0x10000 + ((unit - 0xd800) << 10) + (lowUnit - 0xdc00), consumed: 12 };
  }
  if (isSurrogate(unit)) throw loneSurrogate(p.slice(at, at + 6), at);
  return { value: unit, consumed: 6 };
}

/** A count `{n}`, `{n,}` or `{n,m}` as written, with its bounds (max null: no upper bound). */
export interface Count {
  readonly text: string;
  readonly min: number;
  readonly max: number | null;
}

/** The count whose `{` is at `at`; anything else after `{` is an error with `u`. */
export function readCount(p: string, at: number): Count {
  const min = readDigits(p, at + 1);
  let j = min.next;
  let max: number | null = min.value;
  if (min.digits > 0 && p[j] === ',') {
    const upper = readDigits(p, j + 1);
    max = upper.digits > 0 ? upper.value : null;
    j = upper.next;
  }
  if (min.digits === 0 || p[j] !== '}')
    throw invalid(
      `a "{" at character ${at + 1} that does not start a count such as {2,5} must be escaped as \\{ with the u flag, which JSON Schema patterns use`,
    );
  const text = p.slice(at, j + 1);
  if (max !== null && max < min.value)
    throw invalid(`the count ${text} at character ${at + 1} is out of order`);
  if (min.value > MAX_REPEAT || (max ?? 0) > MAX_REPEAT)
    throw new Refusal(
      `repeats ${text} at character ${at + 1}, more than the ${MAX_REPEAT} times the linear-time engine allows; use a smaller count, or + or *`,
    );
  return { text, min: min.value, max };
}

/** `\p{...}` or `\P{...}` at `at`, in RE2 syntax (a set inside a class, a class outside one). */
export function readProperty(p: string, at: number, inClass: boolean): { text: string; consumed: number } {
  const close = p[at + 2] === '{' ? p.indexOf('}', at + 3) : -1;
  if (close < 0)
    throw invalid(`${p.slice(at, at + 2)} at character ${at + 1} needs a property in braces, such as \\p{L}`);
  const text = translateProperty(p.slice(at + 3, close), p[at + 1] === 'P', inClass);
  if (text === undefined)
    throw new Refusal(
      `uses the Unicode property ${p.slice(at, close + 1)} at character ${at + 1}, which the linear-time engine does not know; use a General_Category such as \\p{L} or \\p{Nd}, or a script such as \\p{Script=Greek}`,
    );
  return { text, consumed: close + 1 - at };
}

function readDigits(text: string, from: number): { value: number; digits: number; next: number } {
  let j = from;
  let value = 0;
  while (j < text.length && isDigit(text[j])) {
    // Saturates instead of growing: any count over the limit is refused anyway.
    value = Math.min(value * 10 + text.charCodeAt(j) - 48, Number.MAX_SAFE_INTEGER);
    j++;
  }
  return { value, digits: j - from, next: j };
}

export function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

export function isAsciiLetter(unit: number): boolean {
  return (unit >= 65 && unit <= 90) || (unit >= 97 && unit <= 122);
}

export function isHex(text: string): boolean {
  if (text.length === 0) return false;
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  }
  return true;
}

export function isSurrogate(value: number): boolean {
  return value >= 0xd800 && value <= 0xdfff;
}

export function codePoint(value: number): string {
  return `\\x{${value.toString(16)}}`;
}

function ranges(list: readonly (readonly [number, number])[]): string {
  return list.map(([a, b]) => (a === b ? codePoint(a) : `${codePoint(a)}-${codePoint(b)}`)).join('');
}

function complement(list: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of list) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}
