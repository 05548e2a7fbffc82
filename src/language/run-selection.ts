/**
 * One JSONPath selection (selection.ts) run on one value by jsonpath-plus, with its safe
 * evaluator (never `eval`: the filter was checked at compile time to hold only comparisons), and
 * within a budget of values visited, counted before jsonpath-plus walks anything.
 */
import { JSONPath } from 'jsonpath-plus';
import { MAX_DEPTH_CEILING, MAX_SELECTION_NODES } from './limits.js';
import type { Selection } from './paths.js';

/**
 * How many distinct selections jsonpath-plus may keep parsed at once. Its cache
 * (`JSONPath.cache`) is one process-wide object that keeps every path and filter script it ever
 * parsed: a long-lived process (`plan serve`, an agent) fed plans with ever new filters would
 * grow without end. Past this many, the cache starts over (parsing again costs microseconds).
 */
export const MAX_CACHED_SELECTIONS = 1024;
const cachedSelections = new Set<string>();

/**
 * A read whose selections would visit more than MAX_SELECTION_NODES values. The run fails the
 * reading call with code `LIMIT`.
 */
export class SelectionLimitError extends Error {
  override name = 'SelectionLimitError';
  constructor(
    readonly selection: string,
    why = `would visit more than ${MAX_SELECTION_NODES} values`,
  ) {
    super(
      `the selection ${selection} ${why}; select from a smaller part of the value (a path before the selection)`,
    );
  }
}

/** What is left of a read's budget of values visited. */
export interface SelectionBudget {
  left: number;
}

/** What `selection` selects from `value` (an array, or for `..key` any object), in order. */
export function runSelection(value: object, selection: Selection, budget: SelectionBudget): unknown[] {
  // What is visited is counted before jsonpath-plus walks: a descent, everything below; a filter,
  // every element (each runs the filter). A slice, a union and [-n] go straight to what they
  // select, so they count what they selected.
  if (selection.form === 'descent') {
    const visits = countValues(value, budget.left + 1);
    // jsonpath-plus descends by recursion: a value nested past MAX_DEPTH_CEILING is never walked.
    if (visits < 0)
      throw new SelectionLimitError(selection.text, `would descend more than ${MAX_DEPTH_CEILING} levels`);
    spend(budget, visits, selection);
  } else if (selection.form === 'filter') spend(budget, (value as unknown[]).length, selection);
  keepCacheBounded(selection.jsonPath);
  const selected = JSONPath({
    path: selection.jsonPath,
    json: value,
    eval: 'safe',
    wrap: true,
    // A filter over an element that lacks a key (`@.a.b` where a is missing) leaves it out.
    ignoreEvalErrors: true,
  }) as unknown[];
  if (selection.form !== 'descent' && selection.form !== 'filter') spend(budget, selected.length, selection);
  return selected;
}

function keepCacheBounded(jsonPath: string): void {
  if (cachedSelections.has(jsonPath)) return;
  if (cachedSelections.size >= MAX_CACHED_SELECTIONS) {
    cachedSelections.clear();
    // A prototype-less object: its keys are path texts, never properties of Object.prototype.
    JSONPath.cache = Object.create(null) as typeof JSONPath.cache;
  }
  cachedSelections.add(jsonPath);
}

function spend(budget: SelectionBudget, visits: number, selection: Selection): void {
  budget.left -= visits;
  if (budget.left < 0) throw new SelectionLimitError(selection.text);
}

/**
 * How many values `root` holds, itself included, counting no further than `cap`; -1 when it
 * nests deeper than MAX_DEPTH_CEILING. Iterative: the value is untrusted.
 */
function countValues(root: object, cap: number): number {
  const stack: object[] = [root];
  const depths: number[] = [0];
  let count = 1;
  while (stack.length > 0 && count < cap) {
    const node = stack.pop()!;
    const depth = depths.pop()! + 1;
    if (depth > MAX_DEPTH_CEILING) return -1;
    const children = Array.isArray(node) ? node : Object.values(node);
    count += children.length;
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        stack.push(child as object);
        depths.push(depth);
      }
    }
  }
  return count;
}
