/** RFC 6901 JSON pointers. */

export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointerToken(token: string): string {
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
