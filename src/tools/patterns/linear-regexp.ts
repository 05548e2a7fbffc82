/**
 * Every JSON Schema pattern planmode matches (tool input and output schemas through ajv, the
 * state schema's patternProperties, the `regex` format) runs on a linear-time engine, so no
 * pattern and no string can make matching backtrack: `^(a+)+$` against 40 `a`s and a `!` is one
 * pass, not 2^40 steps.
 *
 * The engine is re2js, a pure JavaScript port of RE2, chosen by bench/regex.ts, which measures
 * the three RE2 ports on npm beside native RegExp. The native `re2` addon was the fastest (2 to
 * 10 times re2js), but 1.24 and later need Node 22, and 1.23.3, the last for Node 20, installs
 * only through an install script that downloads a binary from GitHub or else builds RE2 from C++:
 * a compiler, Node's headers and minutes of build on a fresh clone (about 3 on two cores), and no
 * install at all where scripts are not allowed. re2-wasm never frees a compiled pattern and its
 * WASM heap cannot grow: the process aborts after 683 distinct patterns; it was also the slowest
 * to compile, and has had no release since 2021. re2js installs as plain JavaScript, imports in
 * about 25 ms, compiles a typical tool-schema pattern in 0.05 to 0.3 ms (once: compiled patterns
 * are cached) and matches a short string in about a microsecond: 5 to 40 times native RegExp on
 * ordinary patterns, where backtracking is harmless, and thousands of times faster where it is not.
 *
 * Matching is linear in the text, times a factor that grows with the compiled program (counts
 * expand: `[a-z]{1000}` is a thousand steps), so patterns are refused past a size as well as
 * past a length. A pattern the engine cannot express is an {@link UnsupportedPatternError},
 * never a quiet fallback to the backtracking engine.
 */
import { RE2JS } from 're2js';
import { PlanError } from '../../errors.js';
import { translatePattern } from './js-pattern.js';

/** What ajv (and the state schema) need of a compiled pattern. */
export interface LinearRegExp {
  /** Whether the pattern matches anywhere in `text` (JSON Schema patterns are not anchored). */
  test(text: string): boolean;
  /** The pattern as written, in JavaScript's `/source/u` form: ajv keys compiled patterns by it. */
  toString(): string;
  /**
   * How many steps the compiled program has: matching costs up to about that much per
   * character while the engine builds its automaton.
   */
  readonly size: number;
}

/** Characters in a pattern the engine will take; a longer one is refused, not compiled. */
export const MAX_PATTERN_LENGTH = 10_000;

/**
 * Steps in a pattern's compiled program (counts spelled out) the engine will take. Typical
 * tool-schema patterns have tens to a few hundred; `^.{0,1000}$` has about 2,000. Matching
 * costs up to about this many steps per character while the engine builds its automaton.
 */
export const MAX_PATTERN_SIZE = 3_000;

/**
 * The translation's estimate of the program size past which a pattern is refused without
 * compiling it, so that a refusal costs little too. It is higher than {@link MAX_PATTERN_SIZE}
 * because RE2 shrinks some patterns a lot (a long alternation of words shares its prefixes).
 */
const MAX_ESTIMATED_SIZE = 10 * MAX_PATTERN_SIZE;

/** Compiled patterns (and refusals) kept, so ajv's repeated requests for one pattern are free. */
const CACHE_SIZE = 1_000;

/** A pattern the linear-time engine cannot match, and why, in words that say how to fix it. */
export class UnsupportedPatternError extends PlanError {
  override name = 'UnsupportedPatternError';
  constructor(
    /** The pattern as written. */
    readonly pattern: string,
    /** Why, such as `uses a lookahead (?= at character 2, which ...; rewrite it without lookaround`. */
    readonly reason: string,
  ) {
    super(`the pattern ${quotePattern(pattern)} ${reason}`);
  }
}

type Compiled = LinearRegExp | UnsupportedPatternError;

const cache = new Map<string, Compiled>();

/**
 * The pattern compiled for the linear-time engine, with JavaScript's meaning (`u` flag).
 * @throws {UnsupportedPatternError} when the engine cannot express it or it is not a pattern.
 */
export function compileLinearRegExp(pattern: string): LinearRegExp {
  const compiled = lookUp(pattern);
  if (compiled instanceof UnsupportedPatternError) throw compiled;
  return compiled;
}

/** {@link compileLinearRegExp} without the cache: what bench/regex times as planmode's compile. */
export function compileLinearRegExpUncached(pattern: string): LinearRegExp {
  const compiled = build(pattern);
  if (compiled instanceof UnsupportedPatternError) throw compiled;
  return compiled;
}

/** Why the engine cannot take `pattern`, or undefined when it can (compiles it, cached). */
export function unsupportedReason(pattern: string): string | undefined {
  const compiled = lookUp(pattern);
  return compiled instanceof UnsupportedPatternError ? compiled.reason : undefined;
}

/**
 * The `regex` format: whether `text` is a pattern the engine takes. The text is a value from a
 * plan, so this checks without compiling (the translation already checks the syntax and the
 * counts, and estimates the size) and keeps nothing: a plan of many distinct strings costs time
 * linear in their length. Only a pattern whose compiled program would exceed
 * {@link MAX_PATTERN_SIZE} while its estimate does not passes here and fails as a schema pattern.
 */
export function isLinearPattern(text: string): boolean {
  if (text.length > MAX_PATTERN_LENGTH) return false;
  const known = cache.get(text);
  if (known !== undefined) return !(known instanceof UnsupportedPatternError);
  const translated = translatePattern(text);
  return translated.ok && translated.size <= MAX_ESTIMATED_SIZE;
}

/**
 * ajv's `code.regExp`: ajv calls it with a schema's pattern and the flags `"u"` (its
 * `unicodeRegExp` default), once per use of the pattern in a schema, and calls `.test(data)` on
 * what it returns. `code` is what ajv's standalone code would import; planmode never emits it.
 */
export const linearRegExpEngine = Object.assign(
  (pattern: string, flags: string): LinearRegExp => {
    if (flags !== 'u' && flags !== '')
      throw new TypeError(`Expected regular expression flags "u" or "", got ${JSON.stringify(flags)}`);
    return compileLinearRegExp(pattern);
  },
  { code: 'require("planmode/linear-regexp").linearRegExpEngine' },
);

function lookUp(pattern: string): Compiled {
  const known = cache.get(pattern);
  if (known !== undefined) return known;
  const compiled = build(pattern);
  // The oldest entry goes first: a map iterates in insertion order.
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, compiled);
  return compiled;
}

function build(pattern: string): Compiled {
  if (typeof pattern !== 'string') return new UnsupportedPatternError(String(pattern), 'is not a string');
  if (pattern.length > MAX_PATTERN_LENGTH)
    return new UnsupportedPatternError(
      pattern,
      `is ${pattern.length} characters long, more than the ${MAX_PATTERN_LENGTH} the linear-time engine takes`,
    );
  const translated = translatePattern(pattern);
  if (!translated.ok) return new UnsupportedPatternError(pattern, translated.reason);
  if (translated.size > MAX_ESTIMATED_SIZE) return tooLarge(pattern, translated.size);
  let engine: RE2JS;
  try {
    engine = RE2JS.compile(translated.source);
  } catch (e) {
    return new UnsupportedPatternError(pattern, engineReason(e));
  }
  const size = engine.programSize();
  if (size > MAX_PATTERN_SIZE) return tooLarge(pattern, size);
  const text = `/${pattern}/u`;
  return { test: (input: string) => engine.test(input), toString: () => text, size };
}

function tooLarge(pattern: string, size: number): UnsupportedPatternError {
  return new UnsupportedPatternError(
    pattern,
    `compiles to about ${size} steps once its counts are spelled out, more than the ${MAX_PATTERN_SIZE} the linear-time engine takes; use + or *, or smaller counts`,
  );
}

/** RE2's parser messages for what the translation let through (an unknown script name). */
function engineReason(thrown: unknown): string {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  const prefix = 'error parsing regexp: ';
  return `is not a pattern the linear-time engine takes: ${message.startsWith(prefix) ? message.slice(prefix.length) : message}`;
}

/** A pattern in a message: JSON-quoted so control characters show, and clipped. */
export function quotePattern(pattern: string): string {
  return JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 77)}...` : pattern);
}
