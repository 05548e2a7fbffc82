/**
 * Whether the initial state holds a value at a path: asked for every write (a write over a
 * value the plan started with is not clean, see BranchGuards) and for every read no earlier
 * call wrote (nothing there: the read waits for a later writer). Most plans start from no
 * state, so that case answers without a lookup.
 */
import type { JsonObject } from '../../language/document.js';
import { getAtPath, type PathSegment } from '../../language/paths.js';

/** True when the initial `state` (null: one that holds nothing at all) holds nothing at `segments`. */
export function stateEmptyAt(state: JsonObject | null, segments: readonly PathSegment[]): boolean {
  // Most plans start from no state: then no lookup (each hashes a key string seen once).
  // The empty path is the state object itself, which is there even when it is empty.
  if (state === null) return segments.length > 0;
  return getAtPath(state, segments) === undefined;
}

/** No own enumerable key (asked once per compile). */
export function isEmptyObject(value: JsonObject): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}
