/** State and input paths: the nodes of the data flow. */

export type Root = 'input' | 'state';

/** `[*]` in a read: every element of the array at that point. */
export const WILDCARD: unique symbol = Symbol('[*]');

export type SelectionForm = 'filter' | 'slice' | 'union' | 'from-end' | 'descent';

/** A JSONPath step of a read (selection.ts reads them). Immutable; shared by every read of one string. */
export interface Selection {
  readonly form: SelectionForm;
  /** As written in the reference: `[?(@.price < 300)]`, `[0:3]`, `[0,2]`, `[-1]`, `..title`. */
  readonly text: string;
  /** The JSONPath jsonpath-plus runs on the value the step starts from: `$[?(@.price < 300)]`. */
  readonly jsonPath: string;
  /**
   * True when the step selects any number of values (the read is then an array of them); false
   * for `[-n]`, which names one element, or none when the array is shorter.
   */
  readonly many: boolean;
}
/**
 * A step of a read that selects rather than names one key: `[*]`, or a JSONPath selection
 * (`[?(...)]`, `[0:3]`, `[0,2]`, `[-1]`, `..key`; see selection.ts). A read covers the path
 * before its first one ({@link firstSelector}).
 */
export type Wildcard = typeof WILDCARD | Selection;

/** True for `[*]` and the JSONPath selections: the steps that are not a key or an index. */
export function isSelector(segment: PathSegment | Wildcard): segment is Wildcard {
  return typeof segment === 'object' || typeof segment === 'symbol';
}

/** Where the first selecting step of `segments` is, or -1 for a plain path. */
export function firstSelector(segments: readonly (PathSegment | Wildcard)[]): number {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (typeof s === 'object' || typeof s === 'symbol') return i;
  }
  return -1;
}

/**
 * True when a read with these steps after its first selector is an array of what it selects:
 * any `[*]`, filter, slice, union or descent makes it one; `[-n]` alone names one element.
 */
export function selectsMany(tail: readonly (PathSegment | Wildcard)[]): boolean {
  for (const s of tail) if (s === WILDCARD || (typeof s === 'object' && s.many)) return true;
  return false;
}

/** A selecting step as written: `[*]`, `[?(@.a > 1)]`, `..title`. */
export function selectorText(step: Wildcard): string {
  return step === WILDCARD ? '[*]' : step.text;
}

/** A key (string) or an array index (number). */
export type PathSegment = string | number;

export interface Path {
  readonly root: Root;
  readonly segments: readonly PathSegment[];
}

/** Segments that would let a write reach an object's prototype. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/**
 * The path a read covers in the graph: everything before its first `[*]` or selection (which
 * reads the whole value there). A reference without one is its own path.
 */
export function coveredPath(ref: {
  readonly root: Root;
  readonly segments: readonly (PathSegment | Wildcard)[];
}): Path {
  const wildcard = firstSelector(ref.segments);
  return wildcard < 0
    ? (ref as Path)
    : { root: ref.root, segments: ref.segments.slice(0, wildcard) as PathSegment[] };
}

/** Canonical text of a path, as a model would write it: `†state.user.tags[0]["a b"]`. */
export function formatPath(root: Root, segments: readonly (PathSegment | Wildcard)[]): string {
  let out = `†${root}`;
  for (const segment of segments) {
    if (segment === WILDCARD) out += '[*]';
    else if (typeof segment === 'object') out += segment.text;
    else if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * Two paths overlap when one is a prefix of the other, segment by segment. Array index 0 and
 * key "0" name the same property, so segments compare as strings.
 */
export function pathsOverlap(a: Path, b: Path): boolean {
  return a.root === b.root && segmentsOverlap(a.segments, b.segments);
}

/** {@link pathsOverlap} for two paths of one root, given by their segments. */
export function segmentsOverlap(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

/**
 * The segments of `read` below `written`, or null when `written` is not a prefix of it. A read
 * may hold `[*]` or a selection, which no written segment equals.
 */
export function segmentsBelow<T extends PathSegment | Wildcard = PathSegment>(
  written: readonly PathSegment[],
  read: readonly T[],
): readonly T[] | null {
  if (written.length > read.length) return null;
  for (let i = 0; i < written.length; i++) {
    const step = read[i] as unknown;
    if (typeof step === 'object' || String(written[i]) !== String(step)) return null;
  }
  return read.slice(written.length);
}

/** An array index written as a key: `0`, or digits without a leading zero. */
const CANONICAL_INDEX = /^(0|[1-9]\d*)$/;

/**
 * The value at `segments` inside `value`, or undefined. Only own properties count, and arrays
 * only have integer indices, so a path can never reach `length` or anything inherited.
 */
export function getAtPath(value: unknown, segments: readonly PathSegment[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      // A key is an index only in canonical form, as a write takes it: "01" is a key, which an
      // array does not have (reading it as index 1 would read what no write could reach).
      const index =
        typeof segment === 'number' ? segment : CANONICAL_INDEX.test(segment) ? Number(segment) : -1;
      if (index < 0 || index >= current.length) return undefined;
      current = current[index];
    } else {
      const key = String(segment);
      if (!Object.hasOwn(current, key)) return undefined;
      current = (current as Record<string, unknown>)[key];
    }
  }
  return current;
}

/** True when `value` holds something (not undefined) at `segments`. */
export function hasPath(value: unknown, segments: readonly PathSegment[]): boolean {
  return getAtPath(value, segments) !== undefined;
}
