/**
 * Writes into the run's state. Paths come from the compiler (no `__proto__`, `prototype` or
 * `constructor` segment can reach here), intermediate objects are created as plain objects or
 * arrays, and values are copied in, so nothing a tool returns or later mutates reaches
 * anything outside the state.
 */
import type { JsonObject } from '../language/document.js';
import type { PathSegment } from '../language/paths.js';
import { setOwnProperty } from '../language/set-own-property.js';

export class StateWriteError extends Error {
  override name = 'StateWriteError';
}

/** A deep copy of a tool's value, or an error when it is not plain data. */
export function copyValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw new StateWriteError(`the result is not plain data (a ${typeof value})`);
    }
    return value;
  }
  try {
    return structuredClone(value);
  } catch (e) {
    throw new StateWriteError(`the result is not plain data (${(e as Error).message})`);
  }
}

/**
 * Writes `value` at `segments` inside `state` (mutating it) and returns the state, which is a new
 * object only when the whole state is replaced (`†state` as the output path).
 */
export function writeAt(state: JsonObject, segments: readonly PathSegment[], value: unknown): JsonObject {
  if (segments.length === 0) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new StateWriteError('only an object can replace the whole state (†state)');
    }
    return value as JsonObject;
  }
  let container: Record<string, unknown> | unknown[] = state;
  for (let k = 0; k < segments.length - 1; k++) {
    const key = segments[k]!;
    const next = readOwn(container, key);
    if (next !== null && typeof next === 'object') {
      container = next as Record<string, unknown>;
      continue;
    }
    const created = typeof segments[k + 1] === 'number' ? [] : {};
    setOwnProperty(container, key, created);
    container = created;
  }
  setOwnProperty(container, segments[segments.length - 1]!, value);
  return state;
}

function readOwn(container: Record<string, unknown> | unknown[], key: PathSegment): unknown {
  const name = String(key);
  return Object.hasOwn(container, name) ? (container as Record<string, unknown>)[name] : undefined;
}

export { setOwnProperty } from '../language/set-own-property.js';
