/**
 * The fast path of canonicalJson, for what a plan, an input or a state almost always is: plain
 * JSON data (plain objects and arrays, strings, numbers, booleans, null). One walk copies the
 * value with every object's keys in sorted order, iteratively, and JSON.stringify writes the
 * copy: in place of three passes (stringify, parse, stringify with a sorting replacer called on
 * every value) that cost seconds on a 100,000-call plan.
 *
 * It gives up (undefined) on anything whose JSON needs more care, and canonicalJson then takes
 * its general path, so the text is the same either way: a toJSON, undefined, a function, a
 * symbol, a BigInt, a class instance (a Map, a Set, a Date, a boxed primitive), a hole in an
 * array, any key that starts with a digit (JavaScript lists array-index keys first, in numeric
 * order, which a plain sort would not reproduce), and a value nested deeper than MAX_DEPTH
 * (which is also how a cycle ends here: the general path names it).
 */

/** Deeper than this, the general path decides: a cycle never ends otherwise. */
const MAX_DEPTH = 10_000;

interface Frame {
  /** The container being copied: its keys, sorted, or null for an array. */
  readonly source: Record<string, unknown> | readonly unknown[];
  readonly keys: readonly string[] | null;
  readonly target: Record<string, unknown> | unknown[];
  next: number;
}

const GIVE_UP: unique symbol = Symbol('give up');

/** Canonical JSON of plain JSON data, or undefined when the value is not only that. */
export function plainCanonicalJson(value: unknown): string | undefined {
  const stack: Frame[] = [];
  const root = copyOf(value, stack);
  if (root === GIVE_UP) return undefined;
  while (stack.length > 0) {
    if (stack.length > MAX_DEPTH) return undefined;
    const frame = stack[stack.length - 1]!;
    const { keys, next } = frame;
    const size = keys === null ? (frame.source as readonly unknown[]).length : keys.length;
    if (next === size) {
      stack.pop();
      continue;
    }
    frame.next = next + 1;
    const key = keys === null ? next : keys[next]!;
    // A container's copy is filled once its frame, pushed on top, comes up.
    const copy = copyOf((frame.source as Record<string | number, unknown>)[key], stack);
    if (copy === GIVE_UP) return undefined;
    (frame.target as Record<string | number, unknown>)[key] = copy;
  }
  return JSON.stringify(root);
}

/**
 * A scalar as it is, or an empty copy of a container, whose frame goes on the stack to fill it.
 * @returns GIVE_UP for what the fast path does not handle.
 */
function copyOf(item: unknown, stack: Frame[]): unknown {
  switch (typeof item) {
    case 'string':
    case 'number':
    case 'boolean':
      return item;
    case 'object': {
      if (item === null) return null;
      if (Array.isArray(item)) {
        if (Object.getPrototypeOf(item) !== Array.prototype || 'toJSON' in item) return GIVE_UP;
        const target = new Array<unknown>(item.length);
        stack.push({ source: item as unknown[], keys: null, target, next: 0 });
        return target;
      }
      const proto: unknown = Object.getPrototypeOf(item);
      if ((proto !== Object.prototype && proto !== null) || 'toJSON' in item) return GIVE_UP;
      const keys = Object.keys(item);
      let hasProtoKey = false;
      for (const key of keys) {
        const first = key.charCodeAt(0);
        if (first >= 0x30 && first <= 0x39) return GIVE_UP;
        if (key === '__proto__') hasProtoKey = true;
      }
      // A null prototype only when needed, so that a "__proto__" key stays a key: V8 keeps such
      // objects as slower dictionaries.
      const target = (hasProtoKey ? Object.create(null) : {}) as Record<string, unknown>;
      stack.push({ source: item as Record<string, unknown>, keys: keys.sort(), target, next: 0 });
      return target;
    }
    default:
      return GIVE_UP;
  }
}
