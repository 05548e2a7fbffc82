/**
 * Forward references: a read of a path no earlier call writes waits for the end of the plan
 * (DataFlow.finish), and is then bound against the writes of every call. Those are looked up
 * in a full index of every write by path, built only when first needed: a plan without forward
 * references never makes it. Apart from the data flow, which binds reads as calls arrive.
 */
import { error, type PendingDiagnostic } from '../../language/diagnostics.js';
import type { JsonObject } from '../../language/document.js';
import type { Path, PathSegment } from '../../language/paths.js';
import type { Reference } from '../../language/reference.js';
import type { CallSpec } from '../read/index.js';
import { checkStatePath } from '../state-schema.js';
import { PathTrie, type TrieNode } from '../storage/index.js';
import { MAX_JOIN, MAX_SEEN_EARLIER, type SeenWriters } from './seen-writers.js';

/** A read waiting for the end of the plan. */
export interface PendingRead {
  readonly call: number;
  /** The read's number in the columns. */
  readonly read: number;
  readonly pointer: string;
  /** Its `||` expression's group (see AlternativeReads), or -1. */
  readonly group: number;
}

/** Every write of every call so far, by path. */
export function writesByPath(calls: readonly CallSpec[]): PathTrie {
  const all = new PathTrie();
  calls.forEach((call, i) => {
    if (!call.outputPath) return;
    for (const path of call.outputPath.paths) {
      const node = all.ensure(path.segments);
      node.writers ??= [];
      if (node.writers[node.writers.length - 1] !== i) node.writers.push(i);
    }
  });
  return all;
}

/** Which calls can never both run, and which writes hide which (see SeenWriters). */
export type Exclusion = Pick<
  SeenWriters,
  'exclusive' | 'hides' | 'hidesAll' | 'joinOf' | 'joinHides' | 'forward'
>;

/** What a forward read of `segments` by call `reader` is bound to. */
export interface ForwardWriters {
  /** The writers at, above and below the path that the read waits for. */
  readonly writers: number[];
  /** True when the reader itself writes there (and no one else does: a cycle of one). */
  readonly selfWrites: boolean;
}

/** The writers a forward read of `segments` by call `reader` waits for, from the full index. */
export function writersAfter(
  all: PathTrie,
  segments: readonly PathSegment[],
  reader: number,
  branches: Exclusion,
): ForwardWriters {
  const cache = branches.forward;
  const writers: number[] = [];
  let selfWrites = false;
  const take = (node: TrieNode) => {
    const list = node.writers;
    if (!list) return;
    // The reader comes before every other writer: when it writes here, it is the first.
    const shared = list.length > 1 && list[0] !== reader;
    const cached = shared ? cache.get(node) : undefined;
    if (cached) {
      for (const w of cached) writers.push(w);
      return;
    }
    const start = writers.length;
    // Every writer here comes after the reader (none came before, or the read would be
    // bound already), and writers of one path are chained, so the last one stands for all,
    // along with the ones just before it on other alternatives (not ordered before it), and
    // the earlier ones whose value the read may still see (seen-writers.ts).
    let k = list.length - 1;
    if (list[k] === reader) {
      selfWrites = true;
      k--;
    }
    if (k < 0) return;
    const last = list[k]!;
    let first = k;
    while (first > 0 && list[first - 1] !== reader && branches.exclusive(last, list[first - 1]!)) first--;
    if (first > 0 && !branches.hidesAll(last)) seenBefore(list, first, k, reader, branches, writers);
    for (let j = first; j <= k; j++) writers.push(list[j]!);
    if (shared) cache.set(node, writers.slice(start));
  };
  const node = all.walk(segments, take);
  if (node) PathTrie.forEachDescendant(node, take);
  return { writers, selfWrites };
}

/**
 * Pushes to `writers`, in array order, the writers of `list` before `first` that a read may still
 * see past the last writers `list[first..k]`: at most MAX_SEEN_EARLIER are looked at, back to
 * one that hides all before it or to the reader.
 */
function seenBefore(
  list: readonly number[],
  first: number,
  k: number,
  reader: number,
  branches: Exclusion,
  writers: number[],
): void {
  const size = k - first + 1;
  const join =
    size >= 2 && size <= MAX_JOIN ? branches.joinOf(list[k]!, list[k - 1]!, list.slice(first, k - 1)) : -1;
  const kept: number[] = [];
  const hidden = (w: number) => {
    if (branches.joinHides(join, w)) return true;
    // Past MAX_JOIN last writers none is asked: the read may name a writer it never sees.
    if (size <= MAX_JOIN) for (let j = first; j <= k; j++) if (branches.hides(list[j]!, w)) return true;
    for (const h of kept) if (branches.hides(h, w)) return true;
    return false;
  };
  for (let j = first - 1, looked = 0; j >= 0 && looked < MAX_SEEN_EARLIER; j--, looked++) {
    const w = list[j]!;
    if (w === reader) break;
    if (!hidden(w)) kept.push(w);
    if (branches.hidesAll(w)) break;
  }
  for (let j = kept.length - 1; j >= 0; j--) writers.push(kept[j]!);
}

/** E_CYCLE for a call that reads, as a forward reference, what only it writes. */
export function selfReadCycle(pointer: string, id: string, ref: Reference): PendingDiagnostic {
  return error(
    'E_CYCLE',
    pointer,
    `dependency cycle: ${id} -> ${id} (call ${id} reads ${ref.text}, which only it writes)`,
    {
      call: id,
      offset: ref.start,
      hint: 'give the value a start in the initial state, or write it in an earlier call',
    },
  );
}

/** True when the state schema declares the path (a read of it is missing at run time, not an error). */
export function declaredIn(stateSchema: JsonObject | undefined, path: Path): boolean {
  return stateSchema !== undefined && checkStatePath(stateSchema, path.segments).declared;
}
