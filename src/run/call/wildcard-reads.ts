/**
 * `[*]` reads that share their result. A selection is a new array of every element under the
 * `[*]`: made per read, twenty reads of a million-element input built twenty such arrays and
 * then copied each to hand it out frozen (2 GB, 20 s). Here a read first shares the container
 * it selects from (see RunState.share: frozen once, and a frozen container never changes, a
 * write copies it instead), and keeps each selection made over that frozen container by the
 * path after the `[*]`: the next read of the same path over the same container gets the same
 * frozen array. A write into the container makes a new one, whose selections are made anew.
 */
import {
  firstSelector,
  getAtPath,
  type PathSegment,
  selectsMany,
  WILDCARD,
  type Wildcard,
} from '../../language/paths.js';
import type { Reference } from '../../language/reference.js';
import { canSelectFrom, resolveReference, type Roots, selectFrom } from '../../language/resolve.js';

/** What a shared `[*]` read needs of the run. */
export interface SelectionHost {
  /** Frozen and shared: see RunState.share. */
  readonly share: <T>(value: T) => T;
  /** An array of shared values, frozen as is: see RunState.shareSelection. */
  readonly shareSelection: (selection: unknown[]) => unknown[];
}

export class WildcardReads {
  /** Per frozen container, its selections by the path after the `[*]`. */
  readonly #selections = new WeakMap<object, Map<string, unknown[]>>();

  constructor(private readonly host: SelectionHost) {}

  /**
   * The value `ref` names, as resolveReference reads it; a `[*]` selection comes shared (frozen)
   * already, and is the same array for every read of it until its container is written.
   */
  readonly read = (ref: Pick<Reference, 'root' | 'segments'>, roots: Roots): unknown => {
    const first = firstSelector(ref.segments);
    if (first < 0) return resolveReference(ref, roots);
    const base = ref.root === 'input' ? roots.input : roots.state;
    const container = getAtPath(base, ref.segments.slice(0, first) as PathSegment[]);
    const tail = ref.segments.slice(first);
    if (!canSelectFrom(container, tail[0] as Wildcard)) return undefined;
    const shared = this.host.share(container as object);
    // `[-1]` (and nothing that selects many) names one value: nothing to keep.
    if (!selectsMany(tail)) return selectFrom(shared, tail);
    let byTail = this.#selections.get(shared);
    if (byTail === undefined) this.#selections.set(shared, (byTail = new Map()));
    const key = tailKey(tail);
    let selection = byTail.get(key);
    if (selection === undefined) {
      selection = this.host.shareSelection(selectFrom(shared, tail) as unknown[]);
      byTail.set(key, selection);
    }
    return selection;
  };
}

/**
 * The path after the `[*]` as one string: `*` for each `[*]`, `?` and its JSONPath for each
 * selection, keys and indices JSON-quoted apart.
 */
function tailKey(tail: readonly (PathSegment | Wildcard)[]): string {
  let key = '';
  for (const segment of tail)
    key +=
      segment === WILDCARD
        ? '*'
        : typeof segment === 'object'
          ? `?${JSON.stringify(segment.jsonPath)}`
          : typeof segment === 'number'
            ? `#${segment}`
            : JSON.stringify(segment);
  return key;
}
