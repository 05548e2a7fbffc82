/** "Did you mean …?" for a path nothing sets: the closest path the input, state or writers know. */
import type { JsonObject } from '../language/document.js';
import { formatPath, type Path, type PathSegment } from '../language/paths.js';
import { nearest } from './nearest.js';
import type { TrieNode } from './path-trie.js';

/** Most keys searched for a "did you mean" at one segment. */
const MAX_CANDIDATES = 10_000;

/** Keys of input and state objects, listed once: they do not change while a plan compiles. */
const knownKeys = new WeakMap<object, string[]>();

function keysOf(value: object): string[] {
  let keys = knownKeys.get(value);
  if (!keys) {
    keys = Object.keys(value);
    knownKeys.set(value, keys);
  }
  return keys;
}

export interface KnownPaths {
  /** `†input` values; undefined when unknown. */
  readonly input: JsonObject | undefined;
  readonly state: JsonObject;
  /** For a state path: the root of the index of every path the plan's calls write. */
  readonly written: TrieNode | undefined;
}

/**
 * Walks the known paths segment by segment, correcting likely typos, for "did you mean". Not
 * among more keys than MAX_CANDIDATES: a typo among a million keys is not worth a million
 * comparisons per read.
 */
export function nearestKnownPath(path: Path, known: KnownPaths): string | undefined {
  const base: unknown = path.root === 'input' ? known.input : known.state;
  let trie: TrieNode | undefined = path.root === 'state' ? known.written : undefined;
  let value: unknown = base;
  const fixed: PathSegment[] = [];
  let changed = false;
  for (let at = 0; at < path.segments.length; at++) {
    const segment = path.segments[at]!;
    const key = String(segment);
    const candidates = new Set<string>();
    if (trie?.children) for (const k of trie.children.keys()) candidates.add(k);
    if (value !== null && typeof value === 'object') {
      const keys = keysOf(value);
      if (keys.length > MAX_CANDIDATES) return undefined;
      for (const k of keys) candidates.add(k);
    }
    if (candidates.size > MAX_CANDIDATES) return undefined;
    const choice = candidates.has(key) ? key : nearest(key, candidates);
    if (choice === undefined) {
      // Below a path a call writes, every path is written: †state.usr.name, with
      // †state.user written, is †state.user.name.
      if (changed && trie?.writers) {
        fixed.push(...path.segments.slice(at));
        break;
      }
      return undefined;
    }
    if (choice !== key) changed = true;
    fixed.push(typeof segment === 'number' && choice === key ? segment : choice);
    trie = trie?.children?.get(choice);
    value = value !== null && typeof value === 'object' ? (value as JsonObject)[choice] : undefined;
  }
  return changed ? formatPath(path.root, fixed) : undefined;
}
