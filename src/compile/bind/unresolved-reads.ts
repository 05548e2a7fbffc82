/**
 * Reads nothing can ever set: E_UNRESOLVED, or, for an alternative of a `||` read beside one
 * that can be set, W_UNRESOLVED_ALTERNATIVE. Both say where the value could have come from and,
 * when a known path is one typo away, which one was meant ("did you mean").
 */
import {
  error,
  type DiagnosticSink,
  type HintBudget,
  type PendingDiagnostic,
  warning,
} from '../../language/diagnostics.js';
import type { JsonObject } from '../../language/document.js';
import { formatPath, type Path, type PathSegment } from '../../language/paths.js';
import type { Reference } from '../../language/reference.js';
import type { CallSpec } from '../read/index.js';
import { nearest } from '../nearest.js';
import type { TrieNode } from '../storage/index.js';

/** What "did you mean" searches: the values given, and the paths the plan's calls write. */
export interface KnownPaths {
  readonly input: JsonObject | undefined;
  readonly state: JsonObject;
  /** The root of the index of every write so far (built on demand: only asked for here). */
  readonly writes: () => TrieNode;
}

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

/**
 * The diagnostic for `ref` (covering `path`, in the string at `at` of `call`) that nothing can
 * set: E_UNRESOLVED, or with `alternative` W_UNRESOLVED_ALTERNATIVE (the `||` read takes its
 * other alternatives). Nothing is built past the sink's bound.
 */
export function reportUnresolved(
  call: CallSpec,
  ref: Reference,
  path: Path,
  at: string,
  alternative: boolean,
  known: KnownPaths,
  diagnostics: DiagnosticSink,
): void {
  const suggestion = diagnostics.full ? undefined : nearestKnownPath(path, known, diagnostics.hints);
  const input = path.root === 'input';
  const where = input
    ? 'the input does not hold it'
    : 'no call writes it and the initial state does not hold it';
  const fix = input
    ? 'add it to the input'
    : "write it with an earlier call's _outputPath, or give it in the initial state";
  const extra = { call: call.id, offset: ref.start };
  const pointer = call.pointer + at;
  let diagnostic: PendingDiagnostic;
  if (alternative) {
    diagnostic = warning(
      'W_UNRESOLVED_ALTERNATIVE',
      pointer,
      `${ref.text} is never set (${where}): this || reads its other alternatives`,
      {
        ...extra,
        hint: suggestion ? `did you mean ${suggestion}?` : `remove it from the expression, or ${fix}`,
      },
    );
  } else {
    diagnostic = error('E_UNRESOLVED', pointer, `${ref.text} is never set: ${where}`, {
      ...extra,
      hint: suggestion ? `did you mean ${suggestion}?` : fix,
    });
  }
  diagnostics.push(diagnostic);
}

/**
 * Walks the known paths segment by segment, correcting likely typos, for "did you mean". Not
 * among more keys than MAX_CANDIDATES: a typo among a million keys is not worth a million
 * comparisons per read.
 */
function nearestKnownPath(path: Path, known: KnownPaths, hints: HintBudget | undefined): string | undefined {
  const base: unknown = path.root === 'input' ? known.input : known.state;
  let trie: TrieNode | undefined = path.root === 'state' ? known.writes() : undefined;
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
    const choice = candidates.has(key) ? key : nearest(key, candidates, hints);
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
