/**
 * W_ERROR_AS_DATA: a read of a declared error alternative as if it held data. An error
 * alternative only ever holds the error object `{message, code?}` (a tool that names it with a
 * branch value fails with BAD_BRANCH), so a read bound only to one gets that object or nothing:
 *
 * - a read below it into anything but `message` or `code` (`†state.error.receiptId`) never has
 *   a value: found here, from the paths alone, with or without schemas;
 * - a read of the object (or of its `message` or `code`) into a parameter whose schema cannot
 *   take it: found by the type flow (type-flow.ts), which reports it with
 *   {@link errorAsDataType} instead of E_REF_TYPE or W_REF_TYPE.
 *
 * A warning, not an error: such a reader runs only when the tool threw, so its failure is not
 * certain. Reading the error whole where `{message, code?}` fits, or its `message`, is silent.
 */
import { countedIfFull, type DiagnosticSink, warning } from '../../language/diagnostics.js';
import {
  coveredPath,
  formatPath,
  type PathSegment,
  segmentsBelow,
  segmentsOverlap,
  isSelector,
  type Wildcard,
} from '../../language/paths.js';
import type { Reference } from '../../language/reference.js';
import type { CallSpec } from '../read/index.js';
import { childOf, PathTrie, type TrieNode } from '../storage/index.js';

/** The error object's keys: what a read below an error alternative may name. */
const ERROR_KEYS: ReadonlySet<string> = new Set(['message', 'code']);

/** Reports every read of the calls (all bound) that goes below an error alternative to a key it never has. */
export function reportErrorPathReads(calls: readonly CallSpec[], diagnostics: DiagnosticSink): void {
  // The plan's error alternatives (few, or none): a trie, so a read finds whether it lies at or
  // below one in its own depth, never by a comparison with each of them.
  let errorPaths: PathTrie | null = null;
  for (const call of calls) {
    if (call.errorAlternative === null) continue;
    errorPaths ??= new PathTrie();
    errorPaths.ensure(call.outputPath!.paths[call.errorAlternative]!.segments).lastWriter = call.index;
  }
  if (errorPaths === null) return;
  for (const call of calls) {
    for (let k = 0; k < call.refCount; k++) {
      for (const ref of call.refExpression(k).refs) {
        if (ref.root !== 'state' || !atOrBelowOne(errorPaths, ref)) continue;
        const found = errorOnlyRead(call, ref, calls);
        if (found === null || isErrorPart(found.rest)) continue;
        if (countedIfFull(diagnostics, 'warning')) continue;
        const writer = calls[found.writer]!;
        const alternative = writer.outputPath!.refs[writer.errorAlternative!]!.text;
        diagnostics.push(
          warning(
            'W_ERROR_AS_DATA',
            call.pointer + call.refAt(k),
            `${ref.text} reads below ${alternative}, the error alternative of call "${writer.id}", which only ever holds the error object {message, code?}: ${describeRest(found.rest)} is never there`,
            {
              call: call.id,
              offset: ref.start,
              hint: `read ${alternative}.message (or .code, or the whole error) where the error is wanted; read the result from another alternative`,
            },
          ),
        );
      }
    }
  }
}

/**
 * The W_ERROR_AS_DATA of the type flow: `text` (a reference of argument `name`) reads only an
 * error alternative, and the parameter's schema (`expected`) cannot take what is there.
 */
export function errorAsDataType(
  call: CallSpec,
  at: string,
  name: string,
  text: string,
  expected: string,
  arriving: string,
  from: string,
  offset: number,
): ReturnType<typeof warning> {
  return warning(
    'W_ERROR_AS_DATA',
    call.pointer + at,
    `argument '${name}' of tool "${call.tool}" expects ${expected}, but ${text} is ${arriving} (${from}): an error alternative only ever holds the error object {message, code?}, never data`,
    {
      call: call.id,
      offset,
      hint: `pass the error where {message, code?} fits, or its message (a string); read the result from another alternative`,
    },
  );
}

/** True when the read's path (up to a `[*]`) lies at or below some error alternative: a cheap filter. */
function atOrBelowOne(errorPaths: PathTrie, ref: Reference): boolean {
  let node: TrieNode | undefined = errorPaths.root;
  if (node.lastWriter >= 0) return true;
  for (const segment of ref.segments) {
    if (isSelector(segment)) return false;
    node = childOf(node, segment);
    if (node === undefined) return false;
    if (node.lastWriter >= 0) return true;
  }
  return false;
}

/**
 * When every writer call `call`'s read of `ref` is bound to reaches it only through its error
 * alternative: the part of the read's path below that alternative, and one such writer. Null
 * when any writer may write data there (or the read is of the input or initial state only).
 */
export function errorOnlyRead(
  call: CallSpec,
  ref: Reference,
  calls: readonly CallSpec[],
): { readonly rest: readonly (PathSegment | Wildcard)[]; readonly writer: number } | null {
  const writers = call.writersOf(ref);
  if (writers.length === 0) return null;
  const segments = coveredPath(ref).segments;
  let rest: readonly (PathSegment | Wildcard)[] | null = null;
  for (const w of writers) {
    const writer = calls[w]!;
    const output = writer.outputPath;
    const k = writer.errorAlternative;
    if (!output || k === null) return null;
    // Any other alternative (or, for `&&`, any path) that overlaps the read may put data there.
    for (let a = 0; a < output.paths.length; a++) {
      if (a !== k && segmentsOverlap(output.paths[a]!.segments, segments)) return null;
    }
    const errorPath = output.paths[k]!.segments;
    if (segmentsBelow(errorPath, segments) === null) return null;
    // The part below, `[*]` and what follows it included (a `[*]` selects nothing from an error).
    const part = ref.segments.slice(errorPath.length);
    // Two writers' error alternatives at different depths: keep the shortest part (any will do).
    if (rest === null || part.length < rest.length) rest = part;
  }
  return rest === null ? null : { rest, writer: writers[0]! };
}

/** True for the whole error object, its `message` or its `code`. */
function isErrorPart(rest: readonly (PathSegment | Wildcard)[]): boolean {
  return rest.length === 0 || (rest.length === 1 && !isSelector(rest[0]!) && ERROR_KEYS.has(String(rest[0])));
}

function describeRest(rest: readonly (PathSegment | Wildcard)[]): string {
  return formatPath('state', rest).slice('†state'.length).replace(/^\./, '');
}
