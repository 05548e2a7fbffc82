/** RFC 6901 JSON pointers. */

export function escapePointerToken(token: string | number): string {
  if (typeof token === 'number') return String(token);
  // Most keys need no escaping; skip the two regex passes for them (a hot path on big plans).
  if (token.indexOf('~') < 0 && token.indexOf('/') < 0) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointerToken(token: string): string {
  if (token.indexOf('~') < 0) return token;
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Appends tokens to a pointer: `joinPointer('/plan', 0, '_tool')` is `/plan/0/_tool`. */
export function joinPointer(base: string, ...tokens: (string | number)[]): string {
  let out = base;
  for (const token of tokens) out += `/${escapePointerToken(token)}`;
  return out;
}

/** Splits a pointer into its unescaped tokens; `""` is the whole document (no tokens). */
export function splitPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapePointerToken);
}
