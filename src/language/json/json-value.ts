/**
 * Untrusted values, walked safely: what a model, a tool, an MCP server or a journal hands us is
 * checked against the {@link Limits} (depth, size, keys) before anything else walks it, and a
 * value that JSON cannot carry is refused with the path to the bad part. Every walk here is a
 * loop over an explicit stack: a value nested 100,000 levels deep costs a refusal, not a crash.
 *
 * Sizes are the length of the value's JSON text, counting each string by its length (escapes
 * are not counted) and each number by its digits: a bound, cheap to keep while walking.
 *
 * This file is the two entry points and the cache of checked objects; the walk itself is
 * json-walk.ts, and copies and sizes of values already known to be JSON are known-json.ts.
 */
import { type JsonProblem, type JsonShape, type JsonWalkOptions, Walk } from './json-walk.js';
import { scalarSize } from './known-json.js';

export type { JsonProblem, JsonProblemCode, JsonWalkOptions } from './json-walk.js';
export { cloneJson, jsonSize } from './known-json.js';

export type JsonCheck = { readonly size: number } | { readonly problem: JsonProblem };
export type JsonCopy = { readonly value: unknown; readonly size: number } | { readonly problem: JsonProblem };

/**
 * Checks that `value` is JSON data (plain objects, arrays, strings, finite numbers, booleans,
 * null; an `undefined` member counts as absent, as JSON drops it) within the limits. Nothing is
 * converted: a Date, a Map, NaN or a class instance is a problem.
 */
export function checkJson(value: unknown, options: JsonWalkOptions): JsonCheck {
  const known = value !== null && typeof value === 'object' ? shapes.get(value) : undefined;
  if (known && fits(known, options)) return { size: known.size };
  const walk = new Walk(options, false);
  const size = walk.run(value);
  if (walk.problem) return { problem: walk.problem };
  if (value !== null && typeof value === 'object') shapes.set(value, walk.shape(size));
  return { size };
}

const shapes = new WeakMap<object, JsonShape>();

function fits(shape: JsonShape, options: JsonWalkOptions): boolean {
  const { limits } = options;
  return (
    shape.depth + (options.depth ?? 0) <= limits.maxDepth &&
    shape.keys <= limits.maxKeys &&
    shape.size <= limits.maxTextLength - (options.usedSize ?? 0)
  );
}

/**
 * A deep copy of a value from code as JSON data, following JSON.stringify's rules (`toJSON` is
 * called, `undefined` members are dropped, `undefined`, NaN and ±Infinity become null) except
 * where JSON would lose data silently or throw: functions, symbols, BigInts, Maps, Sets,
 * Promises, RegExps, Errors, binary buffers, cycles and getters that throw are problems, with
 * the path to them.
 */
export function copyJson(value: unknown, options: JsonWalkOptions): JsonCopy {
  // Most results are a string or a number: no walk to set up.
  if (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    value === null
  ) {
    const size = scalarSize(value);
    if (size <= options.limits.maxTextLength - (options.usedSize ?? 0)) return { value, size };
  }
  const walk = new Walk(options, true);
  const size = walk.run(value);
  return walk.problem ? { problem: walk.problem } : { value: walk.result, size };
}
