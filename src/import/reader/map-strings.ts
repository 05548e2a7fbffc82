/**
 * A copy of a JSON value with some strings replaced: how the readers turn a dataset's
 * references (`"$var1.distance$"`, `"API_call_0"`) into planmode's wherever they sit in an
 * argument, in lists and objects too. The value comes from a dataset and is not trusted: the
 * walk is a loop over an explicit stack, and a value nested past `maxDepth` is refused rather
 * than walked.
 */
import { setOwnProperty } from '../../language/json/index.js';

/** What `mapStrings` returns: the copy, or the depth at which it gave up. */
export type MappedValue = { readonly value: unknown } | { readonly tooDeep: number };

/** Deepest argument value the readers walk. */
export const MAX_ARGUMENT_DEPTH = 64;

interface Frame {
  readonly from: Record<string, unknown> | unknown[];
  readonly to: Record<string, unknown> | unknown[];
  readonly depth: number;
}

/** Copies `value`, giving every string (not keys) to `map` and keeping what it returns. */
export function mapStrings(
  value: unknown,
  map: (text: string) => unknown,
  maxDepth = MAX_ARGUMENT_DEPTH,
): MappedValue {
  if (typeof value === 'string') return { value: map(value) };
  if (value === null || typeof value !== 'object') return { value };
  const root = Array.isArray(value) ? [] : {};
  const stack: Frame[] = [{ from: value as Frame['from'], to: root, depth: 1 }];
  while (stack.length > 0) {
    const { from, to, depth } = stack.pop()!;
    if (depth > maxDepth) return { tooDeep: depth };
    const keys = Array.isArray(from) ? from.keys() : Object.keys(from).values();
    for (const key of keys) {
      const item = (from as Record<string | number, unknown>)[key];
      let copy: unknown = item;
      if (typeof item === 'string') copy = map(item);
      else if (item !== null && typeof item === 'object') {
        copy = Array.isArray(item) ? [] : {};
        stack.push({ from: item as Frame['from'], to: copy as Frame['to'], depth: depth + 1 });
      }
      if (Array.isArray(to)) to.push(copy);
      else setOwnProperty(to, key as string, copy);
    }
  }
  return { value: root };
}
