/**
 * What the two scans over a plan's raw text share (pointer-offsets finds where a pointer's value
 * was written; duplicate-keys finds a key written twice): the structural characters of JSON, and
 * skipping a string without decoding it. Both scan text the JSON reader has already accepted.
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;

/** The offset just past the string starting at `i` (its opening quote), or -1. */
export function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const quote = text.indexOf('"', j);
    if (quote < 0) return -1;
    // A quote preceded by an odd number of backslashes is escaped.
    let backslashes = 0;
    for (let k = quote - 1; k > i && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    j = quote + 1;
  }
}
