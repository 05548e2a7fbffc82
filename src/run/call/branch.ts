/**
 * Branch values: how a tool picks one of its output alternatives (a plain value goes to the
 * first). Only code can make one: `branch()` marks its value with a registered symbol, which
 * JSON and `structuredClone` never carry, so data a tool only passes through (an API's JSON, an
 * MCP server's result) cannot choose an alternative by looking like a branch value. The plain
 * JSON form, `{"†branch": k, "value": ...}`, chooses only for a tool that declares
 * `branchJson: true`, and in an eager plan's `_output` (the plan text says so).
 */

/** The key that names the alternative, in a branch value and in its JSON form. */
export const BRANCH_KEY = '†branch';

/**
 * The mark of a value `branch()` made. `Symbol.for`, not a private symbol: two copies of
 * planmode in one process (a tools module importing another install) still know each other's
 * branch values. Data cannot carry a symbol key; code that sets it means to choose.
 */
const MADE_BY_BRANCH = Symbol.for('planmode.branch');

export interface BranchValue<T = unknown> {
  readonly [BRANCH_KEY]: number | string;
  readonly value: T;
}

/**
 * Builds a branch value: `branch(1, err)` or `branch('†state.error', err)` sends `value` to that
 * alternative of the call's `_outputPath`. Return it as it is: a copy (`{...b}`,
 * `structuredClone`, JSON) is plain data and goes to the first alternative.
 */
export function branch<T>(indexOrPath: number | string, value: T): BranchValue<T> {
  if (typeof indexOrPath === 'number' && !(Number.isInteger(indexOrPath) && indexOrPath >= 0)) {
    throw new TypeError(`Expected a branch index to be a whole number >= 0, got ${indexOrPath}`);
  }
  if (typeof indexOrPath !== 'number' && typeof indexOrPath !== 'string') {
    throw new TypeError(`Expected a branch index or path, got ${typeof indexOrPath}`);
  }
  return markedBranch(indexOrPath, value);
}

/**
 * A branch value for a choice made elsewhere and checked where it is used (a worker's reply, a
 * reused result): the run refuses a choice that names no alternative (BAD_BRANCH).
 */
export function markedBranch<T>(choice: unknown, value: T): BranchValue<T> {
  const made = { [BRANCH_KEY]: choice, value } as BranchValue<T>;
  // Not enumerable: the JSON of a branch value stays `{"†branch": k, "value": ...}`.
  Object.defineProperty(made, MADE_BY_BRANCH, { value: true });
  return made;
}

/**
 * A value `branch()` made (not a copy of one). A value that cannot even be looked at (a Proxy
 * whose traps throw) is not one; the JSON copy of results says what is wrong with it.
 */
export function isBranchValue(value: unknown): value is BranchValue {
  try {
    if (value === null || typeof value !== 'object') return false;
    return Object.getOwnPropertyDescriptor(value, MADE_BY_BRANCH)?.value === true;
  } catch {
    return false;
  }
}

/**
 * The JSON form of a branch value: an object with exactly the keys `†branch` and `value`. It
 * chooses only where it is declared to (`branchJson: true`, an eager plan's `_output`).
 */
export function isBranchJson(value: unknown): value is BranchValue {
  try {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const keys = Object.keys(value);
    return keys.length === 2 && Object.hasOwn(value, BRANCH_KEY) && Object.hasOwn(value, 'value');
  } catch {
    return false;
  }
}
