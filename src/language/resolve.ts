/** Run-time values of references and expressions (SPEC 3 and 6). */
import { JSONPath } from 'jsonpath-plus';
import { getAtPath, type PathSegment, WILDCARD } from './paths.js';
import type { Expression, Reference } from './reference.js';

export interface Roots {
  readonly input?: unknown;
  readonly state?: unknown;
}

/** The value a reference names, or undefined when there is none. */
export function resolveReference(ref: Reference, roots: Roots): unknown {
  const base = ref.root === 'input' ? roots.input : roots.state;
  const wildcard = ref.segments.indexOf(WILDCARD);
  if (wildcard < 0) return getAtPath(base, ref.segments as PathSegment[]);
  // The part before the first [*] must exist; an empty selection is still an (empty) array.
  const head = ref.segments.slice(0, wildcard) as PathSegment[];
  const container = getAtPath(base, head);
  if (!Array.isArray(container)) return undefined;
  // Every key is backtick-escaped, so names such as "a,b" or "@" are literal own properties,
  // never JSONPath syntax; `eval: false` forbids script and filter expressions outright.
  const path = ['$', ...ref.segments.slice(wildcard).map((s) => (s === WILDCARD ? '*' : `\`${String(s)}`))];
  return JSONPath({ path: path as unknown as string, json: container as unknown as object, eval: false, wrap: true });
}

export type ExpressionValue = { readonly exists: true; readonly value: unknown } | { readonly exists: false };

const MISSING: ExpressionValue = { exists: false };

/**
 * SPEC 6: `†a` is the value at a; `†a || †b` the first that exists; `†a && †b` the last, once
 * all exist. "Exists" means not undefined: null, false, 0 and "" exist.
 */
export function resolveExpression(expression: Expression, roots: Roots): ExpressionValue {
  if (expression.op === '&&') {
    let last: unknown;
    for (const ref of expression.refs) {
      last = resolveReference(ref, roots);
      if (last === undefined) return MISSING;
    }
    return { exists: true, value: last };
  }
  for (const ref of expression.refs) {
    const value = resolveReference(ref, roots);
    if (value !== undefined) return { exists: true, value };
  }
  return MISSING;
}
