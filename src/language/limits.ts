/**
 * Bounds on every untrusted value planmode walks: the plan text, input, initial state, the state
 * schema, `_output`, tool results and journal records. A model (or whoever wrote the value) must
 * not be able to exhaust memory, the stack or the CPU; past a bound the value is refused with
 * `E_LIMIT` (compile time) or a failed call with code `LIMIT` (run time), never a crash.
 */
import { describeValue } from './describe-value.js';

export interface Limits {
  /**
   * Most calls in one plan.
   * @default 1_000_000
   */
  readonly maxCalls: number;
  /**
   * Deepest nesting of objects and arrays in any one value: `{"a": {"b": {}}}` nests 3 deep and is
   * refused with 2. A call object counts as a value (its arguments are one level inside it); so do
   * input, the initial state, the state schema, `_output` and each tool result, and a path into the
   * state (`†state.a.b` is 2 deep) adds its length to what is written there. At most
   * {@link MAX_DEPTH_CEILING}, where copies and JSON serialization stay far from the stack's end.
   * @default 64
   */
  readonly maxDepth: number;
  /**
   * Longest JSON text, in characters: a plan document, and the JSON size of any one value (input,
   * initial state, a tool result, a journal line). The run's whole state is held to it too.
   * @default 256 * 1024 * 1024
   */
  readonly maxTextLength: number;
  /**
   * Most members in one object.
   * @default 1_000_000
   */
  readonly maxKeys: number;
  /**
   * Largest array index a path may name (`†state.items[1000000]`). A write far past an array's
   * end fills the gap with holes that print as `null`, so a short path could otherwise make a
   * huge state.
   * @default 1_000_000
   */
  readonly maxArrayIndex: number;
  /**
   * Most diagnostics reported for one plan; the rest are counted in a last "and N more" one
   * (E_LIMIT when any of them is an error, else W_LIMIT). 0 reports the count alone.
   * @default 1_000
   */
  readonly maxDiagnostics: number;
  /**
   * Most elements one `_forEach` call runs its tool for: a longer array fails the call with code
   * `LIMIT` before any element runs.
   * @default 10_000
   */
  readonly maxForEach: number;
}

/**
 * Longest JSONPath selection inside one reference (`[?(@.price < 300)]`), in characters: its
 * filter is parsed and evaluated per element, so its size bounds the work per element.
 */
export const MAX_SELECTION_LENGTH = 500;

/** Deepest nesting of parentheses and unary operators in a filter (the evaluator's parser recurses on them). */
export const MAX_SELECTION_NESTING = 16;

/**
 * Most values one read's selections may visit at run time: the elements a filter looks at, what
 * a slice, a union or `[-n]` selects, and every value under a recursive descent (`..title`),
 * summed over the read. Past it
 * the call fails with code `LIMIT` before jsonpath-plus walks anything, so a descent over a huge
 * state cannot hold the run.
 */
export const MAX_SELECTION_NODES = 100_000;

/** The deepest `maxDepth` may be set: structuredClone gives up near 2,000 levels, JSON.stringify near 4,000. */
export const MAX_DEPTH_CEILING = 1_000;

export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxCalls: 1_000_000,
  maxDepth: 64,
  maxTextLength: 256 * 1024 * 1024,
  maxKeys: 1_000_000,
  maxArrayIndex: 1_000_000,
  maxDiagnostics: 1_000,
  maxForEach: 10_000,
});

/** The lowest value of each limit: 1, but a plan may be checked for its verdict alone. */
const FLOORS: Partial<Record<keyof Limits, number>> = { maxDiagnostics: 0 };

const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

/** The upper bound of each limit, where one is needed for the engine to stay safe. */
const CEILINGS: Partial<Record<keyof Limits, number>> = {
  maxDepth: MAX_DEPTH_CEILING,
  // Array indices above 2^32 - 2 are plain keys, not elements: writing one would silently drop the value.
  maxArrayIndex: 2 ** 32 - 2,
  // A JavaScript string holds at most 2^29 - 24 characters on 64-bit V8.
  maxTextLength: 2 ** 29 - 24,
};

/**
 * The defaults with `given` laid over them.
 *
 * @param where How the option is named in messages (`limits`, `--limit`).
 * @throws {TypeError} naming the limit and the value, for an unknown name or a value that is not
 *   a whole number in range.
 */
export function resolveLimits(given: Partial<Limits> | undefined, where = 'limits'): Limits {
  if (given === undefined) return DEFAULT_LIMITS;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new TypeError(`Expected ${where} to be an object of limits, got ${describeValue(given)}`);
  }
  const limits: Record<string, number> = { ...DEFAULT_LIMITS };
  // A flag's limit is named as the command line writes it (`--limit maxDepth=…`), an option's
  // as code does (`limits.maxDepth`).
  const flag = where.startsWith('--');
  const named = (key: string) => (flag ? `${where} ${key}` : `${where}.${key}`);
  for (const key of Object.keys(given)) {
    if (!(LIMIT_NAMES as string[]).includes(key)) {
      throw new TypeError(`Unknown limit ${named(key)}; the limits are ${LIMIT_NAMES.join(', ')}`);
    }
    const value = (given as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const ceiling = CEILINGS[key as keyof Limits] ?? Number.MAX_SAFE_INTEGER;
    const floor = FLOORS[key as keyof Limits] ?? 1;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < floor || value > ceiling) {
      throw new TypeError(
        `Expected ${flag ? `${named(key)}=N` : named(key)} to be a whole number from ${floor} to ${ceiling}, got ${describeValue(value)}`,
      );
    }
    limits[key] = value;
  }
  return limits as unknown as Limits;
}
