/**
 * Reads of a property that every writer's outputSchema closes out: the writer writes
 * `†state.filing`, its tool's outputSchema is an object with `additionalProperties: false` and
 * no property `date` (and no `patternProperties`), so `†state.filing.date` can never be set:
 * the run checks every output against its outputSchema, and an output that holds the property
 * fails the call. Such a read is E_UNRESOLVED (W_UNRESOLVED_ALTERNATIVE when it is an
 * alternative of a `||` read whose other alternatives can be set), with the closest property
 * the schema does have as "did you mean".
 *
 * Only what the schema surely forbids is reported: the walk follows `properties` and `items`
 * (each a constraint every value meets, whatever `allOf` or `$ref` beside them add) and stops,
 * saying nothing, at anything else (a `const`, a boolean schema, `prefixItems`, a key the
 * schema leaves open). Iterative and bounded by the path's length (itself bounded by MAX_WALK).
 */
import { countedIfFull, type DiagnosticSink, error, warning } from '../../language/diagnostics.js';
import {
  firstSelector,
  formatPath,
  type PathSegment,
  segmentsBelow,
  WILDCARD,
} from '../../language/paths.js';
import type { Reference } from '../../language/reference.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { JsonSchema } from '../../tools/tool.js';
import { nearest } from '../nearest.js';
import type { CallSpec } from '../read/index.js';

/** Most path segments walked; deeper reads are not judged (as the type flow's walk). */
const MAX_WALK = 64;

/** Most property names listed in a hint when none is close to the one read. */
const MAX_LISTED = 5;

/** Where a schema closes out a read: the segment (index in the path) no value can have. */
interface ClosedOut {
  readonly index: number;
  /** The properties the closing schema does declare. */
  readonly keys: readonly string[];
  /** Set when the value there is never an object: its type (`array`, `string or null`...). */
  readonly notObject?: string;
}

/**
 * The first segment of `path` that `schema` surely forbids (an object schema with
 * `additionalProperties: false` that neither lists it in `properties` nor has
 * `patternProperties`), or null when the path may exist or that cannot be told.
 */
export function closedOutAt(schema: JsonSchema, path: readonly PathSegment[]): ClosedOut | null {
  if (path.length > MAX_WALK) return null;
  let current: JsonSchema = schema;
  for (let i = 0; i < path.length; i++) {
    if (typeof current !== 'object' || current === null || Object.hasOwn(current, 'const')) return null;
    const key = String(path[i]!);
    const properties = current.properties as Record<string, JsonSchema> | undefined;
    const hasProperties = properties !== null && typeof properties === 'object';
    if (hasProperties && Object.hasOwn(properties, key)) {
      current = properties[key]!;
      continue;
    }
    if (/^\d+$/.test(key)) {
      const items = current.items;
      if (items === undefined || Array.isArray(items) || current.prefixItems !== undefined) return null;
      current = items as JsonSchema;
      continue;
    }
    // A value that is never an object has no named property (an array only its indices).
    const type = current.type;
    const types = typeof type === 'string' ? [type] : Array.isArray(type) ? (type as unknown[]) : [];
    if (types.length > 0 && !types.includes('object') && !(/^\d+$/.test(key) && types.includes('array')))
      return { index: i, keys: [], notObject: types.join(' or ') };
    if (current.additionalProperties !== false || current.patternProperties !== undefined) return null;
    return { index: i, keys: hasProperties ? Object.keys(properties) : [] };
  }
  return null;
}

/** Why a read is never set: its first writer, and where that writer's schema closes it out. */
interface NeverSet {
  readonly writer: CallSpec;
  readonly writerCount: number;
  /** The path the first writer writes. */
  readonly written: readonly PathSegment[];
  readonly closed: ClosedOut;
}

/**
 * Why the read of `ref` (bound to `writers`) is never set, or null when some writer may set it.
 * Each writer must write at or above the read (one that writes below it fills it in), through
 * alternatives that are not the error alternative, and its tool's outputSchema must close the
 * read out below every such alternative.
 */
function neverSet(
  ref: Reference,
  writers: readonly number[],
  calls: readonly CallSpec[],
  tools: ToolRegistry,
): NeverSet | null {
  if (writers.length === 0) return null;
  // Up to a `[*]`: elements that lack what follows it are left out of the selection, not missing.
  const wildcard = firstSelector(ref.segments);
  const path = (wildcard < 0 ? ref.segments : ref.segments.slice(0, wildcard)) as readonly PathSegment[];
  let first: NeverSet | null = null;
  for (const w of writers) {
    const writer = calls[w]!;
    const output = writer.outputPath;
    if (!output || writer.tool === null || writer.hasOutput) return null;
    const own = tools.get(writer.tool)?.tool.outputSchema;
    const schema = writer.forEach && own !== undefined ? { type: 'array', items: own } : own;
    if (schema === undefined || typeof schema !== 'object') return null;
    let closedHere = false;
    for (let k = 0; k < output.paths.length; k++) {
      const written = output.paths[k]!.segments;
      const rest = segmentsBelow(written, path);
      // An alternative elsewhere sets nothing here; one below the read (or the error object) may.
      if (rest === null) {
        if (written.length > path.length && segmentsBelow(path, written) !== null) return null;
        continue;
      }
      if (k === writer.errorAlternative) return null;
      const closed = closedOutAt(schema, rest);
      if (closed === null) return null;
      closedHere = true;
      first ??= { writer, writerCount: writers.length, written, closed: shift(closed, written.length) };
    }
    if (!closedHere) return null;
  }
  return first;
}

function shift(closed: ClosedOut, by: number): ClosedOut {
  return { ...closed, index: closed.index + by };
}

/**
 * Reports the reads of the call's reference `k` that no writer's outputSchema lets exist, adding
 * them to `found` (made when the first is found: the common case allocates nothing), so the
 * type flow does not judge what never arrives. Returns `found`.
 */
export function reportClosedReads(
  call: CallSpec,
  k: number,
  calls: readonly CallSpec[],
  tools: ToolRegistry,
  diagnostics: DiagnosticSink,
  found: Set<Reference> | null,
): Set<Reference> | null {
  // Only a read below a written path can be closed out, and a path the writer writes has at
  // least one segment: without a second one (`†state.x.y`, `†state.x[0]`) nothing is to be
  // looked up. A plan with no such read anywhere (the facts know) loads nothing more per
  // reference; else the text says so before the expression's objects are loaded.
  if (!call.planReadsBelowFirstSegment || !belowFirstSegment(call.refText(k))) return found;
  const expression = call.refExpression(k);
  const refs = expression.refs;
  let never: (NeverSet | null)[] | null = null;
  for (let r = 0; r < refs.length; r++) {
    const ref = refs[r]!;
    if (ref.root !== 'state' || ref.segments.length < 2) continue;
    const why = neverSet(ref, call.writersOf(ref), calls, tools);
    if (why === null) continue;
    never ??= new Array<NeverSet | null>(refs.length).fill(null);
    never[r] = why;
    (found ??= new Set()).add(ref);
  }
  if (never === null) return found;
  // A `||` read takes its other alternatives, if one of them is bound to something.
  const settable = expression.op === '||' && refs.some((ref, r) => never[r] === null && isBound(call, ref));
  for (let r = 0; r < refs.length; r++) {
    const why = never[r];
    if (!why || countedIfFull(diagnostics, settable ? 'warning' : 'error')) continue;
    diagnostics.push(describe(call, refs[r]!, call.refAt(k), why, settable, diagnostics));
  }
  return found;
}

/** Length of `†state.`, after which a path's first segment starts. */
const AFTER_ROOT = '†state.'.length;

/** True when a `†state` path in `text` may go below its first segment (a `.` or `[` after it). */
function belowFirstSegment(text: string): boolean {
  return text.indexOf('.', AFTER_ROOT) >= 0 || text.indexOf('[', 1) >= 0;
}

/** True when the read of `ref` found a writer or a value (an unset alternative has neither). */
function isBound(call: CallSpec, ref: Reference): boolean {
  const read = call.reads.find((b) => b.ref === ref);
  return read !== undefined && read.kind !== 'unset';
}

function describe(
  call: CallSpec,
  ref: Reference,
  at: string,
  why: NeverSet,
  alternative: boolean,
  diagnostics: DiagnosticSink,
) {
  const { writer, written, closed } = why;
  const segments = ref.segments as readonly PathSegment[];
  const key = String(segments[closed.index]);
  const writes = formatPath('state', written as PathSegment[]);
  const others = why.writerCount > 1 ? ` (and ${why.writerCount - 1} more call(s) writing it)` : '';
  const parent = formatPath('state', segments.slice(0, closed.index) as PathSegment[]);
  const reason =
    `call "${writer.id}" (${writer.tool}) writes ${writes}${others}, and its outputSchema ` +
    (closed.notObject
      ? `makes ${parent} ${closed.notObject}, which has no property '${key}'`
      : `has no property '${key}'`);
  const suggestion = nearest(key, closed.keys, diagnostics.hints);
  const fixed = suggestion
    ? formatPath('state', [
        ...segments.slice(0, closed.index),
        suggestion,
        ...segments.slice(closed.index + 1),
      ] as PathSegment[])
    : undefined;
  const listed =
    closed.keys.length === 0
      ? 'it declares no property there'
      : `it declares ${closed.keys
          .slice(0, MAX_LISTED)
          .map((p) => `'${p}'`)
          .join(', ')}${closed.keys.length > MAX_LISTED ? ', ...' : ''}`;
  const element = (index: 0 | typeof WILDCARD) =>
    formatPath('state', [...segments.slice(0, closed.index), index, ...segments.slice(closed.index)]);
  let fix = fixed ? `did you mean ${fixed}?` : `read a property the tool returns (${listed})`;
  if (closed.notObject === 'array')
    fix = `read an element (${element(0)}) or every element's (${element(WILDCARD)})`;
  else if (closed.notObject) fix = `read ${parent} itself`;
  const extra = { call: call.id, offset: ref.start };
  const pointer = call.pointer + at;
  if (alternative)
    return warning(
      'W_UNRESOLVED_ALTERNATIVE',
      pointer,
      `${ref.text} is never set (${reason}): this || reads its other alternatives`,
      { ...extra, hint: fixed || closed.notObject ? fix : `remove it from the expression (${listed})` },
    );
  return error('E_UNRESOLVED', pointer, `${ref.text} is never set: ${reason}`, {
    ...extra,
    hint: fix,
  });
}
