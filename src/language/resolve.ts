/** Run-time values of references and expressions. */
import { JSONPath } from 'jsonpath-plus';
import { getAtPath, type PathSegment, WILDCARD, type Wildcard } from './paths.js';
import type { Expression, Reference } from './reference.js';

export interface Roots {
  readonly input?: unknown;
  readonly state?: unknown;
}

/** The value a reference names, or undefined when there is none. */
export function resolveReference(ref: Pick<Reference, 'root' | 'segments'>, roots: Roots): unknown {
  const base = ref.root === 'input' ? roots.input : roots.state;
  const wildcard = ref.segments.indexOf(WILDCARD);
  if (wildcard < 0) return getAtPath(base, ref.segments as PathSegment[]);
  // The part before the first [*] must exist; an empty selection is still an (empty) array.
  const head = ref.segments.slice(0, wildcard) as PathSegment[];
  const container = getAtPath(base, head);
  if (!Array.isArray(container)) return undefined;
  return selectFrom(container, ref.segments.slice(wildcard));
}

/**
 * What `segments` (starting at a `[*]`) select below `container`: an array, new at each call.
 * A run that reads one selection many times keeps it (run/call/wildcard-reads.ts).
 */
export function selectFrom(container: unknown, segments: readonly (PathSegment | Wildcard)[]): unknown[] {
  // jsonpath-plus selects the elements of each [*]; keys are followed with getAtPath. A key
  // inside a JSONPath string is never safe: jsonpath-plus turns a path array back into text
  // and re-splits it, so "a;b", "x^y" or "]" broke apart, and a missing "x,y" read x and y.
  // getAtPath also keeps array `length` and inherited properties out of reach, as without [*].
  let selected: unknown[] = [container];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const value of selected) {
      if (segment === WILDCARD) {
        if (value === null || typeof value !== 'object') continue;
        // A loop, not push(...): a spread of a huge array overflows the argument stack.
        for (const element of JSONPath({ path: '$.*', json: value, eval: false, wrap: true }) as unknown[])
          next.push(element);
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
