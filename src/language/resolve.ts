/** Run-time values of references and expressions. */
import { JSONPath } from 'jsonpath-plus';
import { MAX_SELECTION_NODES } from './limits.js';
import { firstSelector, getAtPath, type PathSegment, selectsMany, WILDCARD, type Wildcard } from './paths.js';
import { runSelection } from './run-selection.js';
import type { Expression, Reference } from './reference.js';

export interface Roots {
  readonly input?: unknown;
  readonly state?: unknown;
}

/** The value a reference names, or undefined when there is none. */
export function resolveReference(ref: Pick<Reference, 'root' | 'segments'>, roots: Roots): unknown {
  const base = ref.root === 'input' ? roots.input : roots.state;
  const first = firstSelector(ref.segments);
  if (first < 0) return getAtPath(base, ref.segments as PathSegment[]);
  // The part before the first [*] or selection must exist; an empty selection is still an (empty) array.
  const container = getAtPath(base, ref.segments.slice(0, first) as PathSegment[]);
  const tail = ref.segments.slice(first);
  if (!canSelectFrom(container, tail[0] as Wildcard)) return undefined;
  return selectFrom(container, tail);
}

/**
 * True when `container` is something the step `first` selects from: `[*]`, a filter, a slice,
 * a union and `[-n]` select from an array; `..key` from any object or array.
 */
export function canSelectFrom(container: unknown, first: Wildcard): boolean {
  if (first !== WILDCARD && first.form === 'descent')
    return container !== null && typeof container === 'object';
  return Array.isArray(container);
}

/**
 * What `tail` (starting at a `[*]` or selection) reads below `container`: an array of what it
 * selects, new at each call, or for a tail whose only selections are `[-n]`, the one value it
 * names (undefined when none). A run that reads one selection many times keeps it
 * (run/call/wildcard-reads.ts).
 *
 * @throws {SelectionLimitError} (run-selection.ts) when the selections would visit more than MAX_SELECTION_NODES values.
 */
export function selectFrom(container: unknown, tail: readonly (PathSegment | Wildcard)[]): unknown {
  const selected = selectValues(container, tail);
  return selectsMany(tail) ? selected : selected[0];
}

function selectValues(container: unknown, segments: readonly (PathSegment | Wildcard)[]): unknown[] {
  // jsonpath-plus selects the elements of each [*] and runs each selection; keys are followed
  // with getAtPath. A key inside a JSONPath string is never safe: jsonpath-plus turns a path
  // array back into text and re-splits it, so "a;b", "x^y" or "]" broke apart, and a missing
  // "x,y" read x and y (selection.ts admits only selections it reads as written).
  // getAtPath also keeps array `length` and inherited properties out of reach, as without [*].
  const budget = { left: MAX_SELECTION_NODES };
  let selected: unknown[] = [container];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const value of selected) {
      if (segment === WILDCARD) {
        if (value === null || typeof value !== 'object') continue;
        // A loop, not push(...): a spread of a huge array overflows the argument stack.
        for (const element of JSONPath({ path: '$.*', json: value, eval: false, wrap: true }) as unknown[])
          next.push(element);
      } else if (typeof segment === 'object') {
        if (!canSelectFrom(value, segment)) continue;
        for (const element of runSelection(value as object, segment, budget)) next.push(element);
      } else {
        const found = getAtPath(value, [segment]);
        if (found !== undefined) next.push(found);
      }
    }
    selected = next;
  }
  return selected;
}

export type ExpressionValue = { readonly exists: true; readonly value: unknown } | { readonly exists: false };

const MISSING: ExpressionValue = { exists: false };

/**
 * `†a` is the value at a; `†a || †b` the first that exists; `†a && †b` the last, once
 * all exist. "Exists" means not undefined: null, false, 0 and "" exist.
 */
export function resolveExpression(
  expression: Expression,
  roots: Roots,
  read: (ref: Reference, roots: Roots) => unknown = resolveReference,
): ExpressionValue {
  if (expression.op === '&&') {
    let last: unknown;
    for (const ref of expression.refs) {
      last = read(ref, roots);
      if (last === undefined) return MISSING;
    }
    return { exists: true, value: last };
  }
  for (const ref of expression.refs) {
    const value = read(ref, roots);
    if (value !== undefined) return { exists: true, value };
  }
  return MISSING;
}
