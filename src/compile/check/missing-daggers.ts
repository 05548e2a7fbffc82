/**
 * Missing daggers: a string argument that is a reference with its `†` left out or swapped for
 * another sigil (`"$state.query"`, `"@state.query"`, `"state.query"`, `"input.city"`) is passed
 * to the tool as those very characters, which is rarely what a model meant. It is a warning
 * (W_MISSING_DAGGER), never an error: the text may be meant.
 *
 * Two steps keep it cheap and quiet. While the arguments are scanned, mayBeBareReference
 * (read/bare-references.ts) looks at the first few characters of each string, so almost every
 * string costs one or two character reads. When every call is in, each candidate is parsed as
 * the reference it would be with a dagger (the reference scanner is linear, no regex) and
 * reported only when the whole string, trimmed, is that one reference and its path is one the
 * plan knows: some call's `_outputPath` writes it, a path above it or a path below it; the
 * initial state or the input holds it; or the state schema declares it. Prose that mentions
 * `state.x` in a sentence, and a file name such as `input.txt` when the input has no `txt`, are
 * left alone.
 */
import { type DiagnosticSink, countedIfFull, warning } from '../../language/diagnostics.js';
import type { JsonObject } from '../../language/document.js';
import { coveredPath, formatPath, getAtPath, type PathSegment } from '../../language/paths.js';
import type { StringParser } from '../../language/reference.js';
import { PathTrie, type TrieNode } from '../storage/index.js';
import { type CallSpec, type BareReference, withDagger } from '../read/index.js';
import { checkStatePath } from '../state-schema.js';

/** What the plan knows, for deciding whether a candidate's path resolves. */
export interface KnownValues {
  /** `†input` values; undefined means unknown, and then no `input.x` is reported. */
  readonly input: JsonObject | undefined;
  readonly state: JsonObject;
  readonly stateSchema: JsonObject | undefined;
}

/**
 * Reports W_MISSING_DAGGER for each candidate that is exactly one reference whose path the plan
 * knows. `calls` are every call of the plan, so writes after the reading call count too (a
 * forward reference is still a reference).
 */
export function reportMissingDaggers(
  candidates: readonly BareReference[],
  calls: readonly CallSpec[],
  known: KnownValues,
  parser: StringParser,
  diagnostics: DiagnosticSink,
): void {
  if (candidates.length === 0) return;
  const written = writtenPaths(calls);
  for (const candidate of candidates) {
    const corrected = withDagger(candidate.text);
    const parsed = parser.parseString(corrected);
    if (parsed.kind !== 'expression' || parsed.expression.op !== null) continue;
    const ref = parsed.expression.refs[0]!;
    const path = coveredPath(ref);
    if (path.segments.length === 0) continue;
    const where =
      path.root === 'input'
        ? known.input !== undefined && getAtPath(known.input, path.segments) !== undefined
          ? 'the input holds it'
          : undefined
        : stateSource(path.segments, calls, written, known);
    if (where === undefined) continue;
    if (countedIfFull(diagnostics, 'warning')) continue;
    const call = calls[candidate.call]!;
    const shown = candidate.text.length > 60 ? `${candidate.text.slice(0, 60)}…` : candidate.text;
    diagnostics.push(
      warning(
        'W_MISSING_DAGGER',
        call.pointer + candidate.at,
        `${JSON.stringify(shown)} is passed as text, but it reads like ${formatPath(path.root, ref.segments)} (${where}): is a † missing?`,
        {
          call: call.id,
          hint: `did you mean "${corrected}"? A reference starts with †; without it the tool gets the characters as written`,
        },
      ),
    );
  }
}

/** Every path some call's `_outputPath` writes, as a trie marking the written nodes. */
function writtenPaths(calls: readonly CallSpec[]): PathTrie {
  const trie = new PathTrie();
  for (const call of calls) {
    if (!call.outputPath) continue;
    for (const path of call.outputPath.paths) trie.ensure(path.segments).lastWriter = call.index;
  }
  return trie;
}

/** Why a state path resolves, or undefined when it does not. */
function stateSource(
  segments: readonly PathSegment[],
  calls: readonly CallSpec[],
  written: PathTrie,
  known: KnownValues,
): string | undefined {
  let writer = -1;
  const node = written.walk(segments, (n) => {
    if (writer < 0 && n.lastWriter >= 0) writer = n.lastWriter;
  });
  if (writer >= 0) return `call ${calls[writer]!.id} writes it`;
  if (node) {
    // Every node of this trie lies on some written path, so following first children from
    // any node meets a writer within the depth of the deepest write.
    let down: TrieNode = node;
    while (down.lastWriter < 0 && down.children) down = down.children.values().next().value!;
    if (down.lastWriter >= 0) return `call ${calls[down.lastWriter]!.id} writes under it`;
  }
  if (getAtPath(known.state, segments) !== undefined) return 'the initial state holds it';
  if (known.stateSchema && checkStatePath(known.stateSchema, segments).declared) {
    return 'the state schema declares it';
  }
  return undefined;
}
