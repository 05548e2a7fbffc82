/** Branch values: how a tool picks one of its output alternatives (a plain value goes to the first). */

/** The key that marks a branch value. */
export const BRANCH_KEY = '†branch';

export interface BranchValue<T = unknown> {
  readonly [BRANCH_KEY]: number | string;
  readonly value: T;
}

/**
 * Builds a branch value: `branch(1, err)` or `branch('†state.error', err)` sends `value` to that
 * alternative of the call's `_outputPath`. Plain JSON, so tools in other processes can return it.
 */
export function branch<T>(indexOrPath: number | string, value: T): BranchValue<T> {
  if (typeof indexOrPath === 'number' && !(Number.isInteger(indexOrPath) && indexOrPath >= 0)) {
    throw new TypeError(`Expected a branch index to be a whole number >= 0, got ${indexOrPath}`);
  }
  if (typeof indexOrPath !== 'number' && typeof indexOrPath !== 'string') {
    throw new TypeError(`Expected a branch index or path, got ${typeof indexOrPath}`);
  }
  return { [BRANCH_KEY]: indexOrPath, value };
}

/**
 * A JSON object with exactly the keys `†branch` and `value`. A value that cannot even be looked
 * at (a Proxy whose traps throw) is not one; the JSON copy of results says what is wrong with it.
 */
export function isBranchValue(value: unknown): value is BranchValue {
  try {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const keys = Object.keys(value);
    return keys.length === 2 && Object.hasOwn(value, BRANCH_KEY) && Object.hasOwn(value, 'value');
  } catch {
    return false;
  }
}
