/**
 * A planmode reference to a place in the state: `†state.var1` and the keys below it, each
 * written the way the reference grammar reads it back. A plain name is `.name`; a whole number
 * the data wrote as an index (`[0]`) is `[0]`; any other key (`Exchange Rate`, `0` as a key,
 * `__proto__`) goes in brackets as a JSON string, so the grammar never reads it as something
 * else. (`__proto__`, `prototype` and `constructor` stay refused by the compiler, as anywhere.)
 */
const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** One step below the root: a key, or an index the data wrote as one. */
export type ReferenceStep = string | { readonly index: number };

/** `†state.<root>` followed by `steps`. */
export function planReference(root: string, steps: readonly ReferenceStep[] = []): string {
  let text = `†state${step(root)}`;
  for (const s of steps) text += typeof s === 'string' ? step(s) : `[${s.index}]`;
  return text;
}

function step(key: string): string {
  return PLAIN_NAME.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
