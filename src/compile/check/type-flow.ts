/**
 * Types along the data flow: what may arrive at each argument that is a reference, against the
 * parameter's schema in the tool's inputSchema.
 *
 * What arrives at a read is known from its binding: a writer's outputSchema (or the `_output`
 * an eager latent call carries), walked along the part of the read path below the written
 * path; the value in the input or the initial state; or the state schema's declaration. A
 * writer's declared error alternative (CompiledCall.errorAlternative) receives only the error
 * object `{message, code?}`, its other alternatives only the outputSchema. A `||` expression may
 * receive any of its references' values (but those of alternatives nothing sets), a `&&`
 * expression its last one's.
 *
 * A `[*]` read is an array of what each selected element holds. A read of a path that calls
 * only fill in below it (`†state.user` after writes to `†state.user.name`) is the container
 * those writes make: an object, or an array when the next segment is an index.
 *
 * Every possible arrival is judged with {@link schemaCompat}. When none can ever fit, the
 * argument is E_REF_TYPE; when some can never fit (a branch), W_REF_TYPE. An error object that
 * cannot fit is W_ERROR_AS_DATA instead (see error-reads.ts): it arrives only when the tool
 * threw, so even a read of nothing but an error alternative fails only then.
 * When every arrival fits but the read walks through a property its writer's schema does not
 * require, and the parameter is required, the value may be missing and the call then does not
 * run: W_REF_OPTIONAL. A read of a property every writer's outputSchema closes out is never set
 * (closed-reads.ts): E_UNRESOLVED or W_UNRESOLVED_ALTERNATIVE, and it is not typed. Whatever cannot be told (a writer without outputSchema, a schema with
 * `$ref`, a path the schema does not describe) checks nothing.
 */
import { countedIfFull, type DiagnosticSink } from '../../language/diagnostics.js';
import type { JsonObject, ExecutionMode } from '../../language/document.js';
import {
  firstSelector,
  getAtPath,
  type PathSegment,
  segmentsBelow,
  segmentsOverlap,
} from '../../language/paths.js';
import { splitPointer } from '../../language/pointer.js';
import type { Reference } from '../../language/reference.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { JsonSchema } from '../../tools/tool.js';
import type { CallSpec } from '../read/index.js';
import { reportClosedReads } from './closed-reads.js';
import { schemaCompat } from './schema-compat.js';
import { parameterToCheck, selectAll, walk, walkSchema } from './schema-walk.js';
import { type Arrival, describeOptional, reportNever } from './type-messages.js';
import { FOR_EACH_POINTER, type ArgumentReference, type ReadBinding } from '../types.js';
import { checkForEachTypes } from './for-each-types.js';

export interface TypeFlowOptions {
  readonly tools: ToolRegistry;
  /** `†input` values; undefined means unknown (input reads are not typed). */
  readonly input: JsonObject | undefined;
  /** JSON Schema of `†input`: types input reads when `input` is undefined (a workflow's plan). */
  readonly inputSchema?: JsonSchema | undefined;
  readonly state: JsonObject;
  readonly stateSchema: JsonObject | undefined;
  readonly mode: ExecutionMode;
}

/** What a throw writes to the error alternative. */
const ERROR_OBJECT_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: { message: { type: 'string' }, code: { type: 'string' } },
  required: ['message'],
});

/**
 * Checks one call's reference arguments, once its reads are settled. The writers it reads
 * from (`calls`) are complete by then: a call is read whole before anything binds to it.
 */
export function checkCallTypes(
  call: CallSpec,
  calls: readonly CallSpec[],
  options: TypeFlowOptions,
  diagnostics: DiagnosticSink,
): void {
  if (call.refCount === 0 || call.tool === null) return;
  const registered = options.tools.get(call.tool);
  const inputSchema = registered?.tool.inputSchema;
  if (!inputSchema || typeof inputSchema !== 'object') return;
  // The run fills the schema's defaults in (RunOptions.applyDefaults): a value that lacks a
  // defaulted property fits.
  const filled = registered!.defaults !== null;
  // Reads per reference, found once per call (a call's reads are in its refs' order).
  let readsByRef: Map<Reference, ReadBinding> | undefined;
  let closed: Set<Reference> | null = null;
  for (let k = 0; k < call.refCount; k++) {
    // `{}` (or `true`) takes anything: nothing to check, and nothing to look up.
    // Reads no writer's outputSchema lets exist: reported here, and not typed below.
    closed = reportClosedReads(call, k, calls, options.tools, diagnostics, closed);
    const at = call.refAt(k);
    if (at === FOR_EACH_POINTER && call.forEach) {
      const argument: ArgumentReference = { at, expression: call.refExpression(k), text: call.refText(k) };
      readsByRef ??= new Map(call.reads.map((r) => [r.ref, r]));
      const found = arrivalsOf(argument, readsByRef, calls, options, closed);
      if (found) checkForEachTypes(call, found.arrivals, inputSchema, diagnostics);
      continue;
    }
    const parameter = parameterToCheck(inputSchema, at);
    if (parameter === undefined) continue;
    // One object for this check, not `call.refs`: made there, every typed call of a plan would
    // keep its references as objects for the life of the plan.
    const argument: ArgumentReference = { at, expression: call.refExpression(k), text: call.refText(k) };
    readsByRef ??= new Map(call.reads.map((r) => [r.ref, r]));
    const found = arrivalsOf(argument, readsByRef, calls, options, closed);
    if (!found || found.arrivals.length === 0) continue;
    const { arrivals } = found;
    const fits = arrivals.map((a) => schemaCompat(a.schema, parameter, filled));
    const never = fits.filter((f) => f === 'never').length;
    if (never > 0) {
      reportNever(call, argument, parameter, arrivals, fits, never, diagnostics);
      continue;
    }
    const optional = found.optional;
    if (optional !== null && isRequired(inputSchema, argument.at) && !countedIfFull(diagnostics, 'warning')) {
      diagnostics.push(describeOptional(call, argument, optional));
    }
  }
}

/** True when the inputSchema requires the argument at `at` (its parent object lists it in `required`). */
function isRequired(inputSchema: JsonSchema, at: string): boolean {
  const tokens = splitPointer(at);
  const parent = walkSchema(inputSchema, tokens.slice(0, -1));
  if (parent === undefined || typeof parent !== 'object') return false;
  const required = parent.required;
  return Array.isArray(required) && required.includes(tokens[tokens.length - 1]);
}

/** What may arrive at an argument, and why it may be missing. */
interface Arrivals {
  readonly arrivals: Arrival[];
  /** Why the whole expression may have no value (see {@link Arrival.optional}); null when it has one. */
  readonly optional: string | null;
}

/** Everything that may arrive at the argument, or null when some of it is unknown. */
function arrivalsOf(
  argument: ArgumentReference,
  reads: Map<Reference, ReadBinding>,
  calls: readonly CallSpec[],
  options: TypeFlowOptions,
  closed: Set<Reference> | null,
): Arrivals | null {
  const { op, refs } = argument.expression;
  const considered = (op === '&&' ? refs.slice(-1) : refs).filter(
    (ref) => reads.get(ref)?.kind !== 'unset' && !closed?.has(ref),
  );
  const out: Arrival[] = [];
  // `a && b` has no value when any is missing; `a || b` (or `a`) when all are.
  let optional: string | null = null;
  for (let r = 0; r < considered.length; r++) {
    const read = reads.get(considered[r]!);
    if (!read) return null;
    const arrivals = arrivalsOfRead(read, calls, options);
    if (!arrivals) return null;
    out.push(...arrivals);
    const missing = arrivals.find((a) => a.optional !== null)?.optional ?? null;
    if (r === 0 || op === '&&') optional ??= missing;
    else if (missing === null) optional = null;
    // `a || b` takes b only when a is missing; a value always there hides the rest.
    if (op === '||' && missing === null && surelyThere(read, calls)) break;
  }
  if (op === '&&') {
    // Every earlier operand must exist too.
    for (const ref of refs.slice(0, -1)) {
      const read = reads.get(ref);
      const earlier = read ? arrivalsOfRead(read, calls, options) : null;
      optional ??= earlier?.find((a) => a.optional !== null)?.optional ?? null;
    }
  }
  return { arrivals: out, optional };
}

/**
 * True when the read always finds its value once its writers ran: a given value, or a path a
 * writer writes whole and unconditionally (no `||` alternatives). A writer that throws writes
 * nothing, so `a || b` may still take b then; that is left for the run to check.
 */
function surelyThere(read: ReadBinding, calls: readonly CallSpec[]): boolean {
  if (read.kind === 'input' || read.kind === 'initial') return true;
  if (read.kind === 'schema' || read.writers.length === 0) return false;
  for (const w of read.writers) {
    const output = calls[w]!.outputPath;
    if (!output || output.op === '||') return false;
    const whole = output.paths.some(
      (p) => segmentsBelow(p.segments, read.ref.segments as PathSegment[])?.length === 0,
    );
    if (!whole) return false;
  }
  return true;
}

function arrivalsOfRead(
  read: ReadBinding,
  calls: readonly CallSpec[],
  options: TypeFlowOptions,
): Arrival[] | null {
  const segments = read.ref.segments;
  const wildcard = firstSelector(segments);
  // A `[*]` (or selection) read: what arrives at the path before it, then every element selected from there.
  const path = (wildcard < 0 ? segments : segments.slice(0, wildcard)) as readonly PathSegment[];
  const arrivals = arrivalsAt(read, path, calls, options);
  if (!arrivals || wildcard < 0) return arrivals;
  const tail = segments.slice(wildcard);
  const out: Arrival[] = [];
  for (const arrival of arrivals) {
    const selected = selectAll(arrival.schema, tail);
    // A container that is never an array holds nothing to select: that read is missing.
    if (selected !== null) out.push({ ...arrival, schema: selected });
  }
  return out;
}

/** What may arrive at `path` (no `[*]` in it), per writer and alternative. */
function arrivalsAt(
  read: ReadBinding,
  path: readonly PathSegment[],
  calls: readonly CallSpec[],
  options: TypeFlowOptions,
): Arrival[] | null {
  switch (read.kind) {
    case 'input': {
      if (!options.input) {
        const walked =
          options.inputSchema === undefined ? undefined : walk(options.inputSchema, path, 'the inputSchema');
        return walked === undefined
          ? null
          : [
              {
                schema: walked.schema,
                from: 'from the input, as its inputSchema declares it',
                optional: walked.optional,
              },
            ];
      }
      const value = getAtPath(options.input, path);
      return value === undefined
        ? null
        : [{ schema: { const: value }, from: 'from the input', optional: null }];
    }
    case 'initial': {
      const value = getAtPath(options.state, path);
      return value === undefined
        ? null
        : [{ schema: { const: value }, from: 'from the initial state', optional: null }];
    }
    case 'schema': {
      if (!options.stateSchema) return null;
      const walked = walkSchema(options.stateSchema, path);
      // Nothing writes it: whether it is there is up to the run's state, not a schema's `required`.
      return walked === undefined
        ? null
        : [{ schema: walked, from: 'as the state schema declares it', optional: null }];
    }
    default: {
      if (read.writers.length === 0) return null;
      const out: Arrival[] = [];
      let onlyBelow = false;
      for (const w of read.writers) {
        const arrivals = writerArrivals(calls[w]!, path, options);
        if (!arrivals) return null;
        if (arrivals.length === 0) onlyBelow = true;
        out.push(...arrivals);
      }
      if (out.length === 0) return filledBelow(read, path, calls, options);
      // One writer's value, changed in place below by another's: not followed.
      return onlyBelow ? null : out;
    }
  }
}

/** What writer `call` puts at `path`, per alternative it may take; [] when it writes only below it. */
function writerArrivals(
  call: CallSpec,
  path: readonly PathSegment[],
  options: TypeFlowOptions,
): Arrival[] | null {
  const output = call.outputPath;
  if (!output || call.tool === null) return null;
  const tool = options.tools.get(call.tool)?.tool;
  let value: JsonSchema | undefined;
  if (call.hasOutput && options.mode === 'eager' && call.output !== undefined)
    value = { const: call.output as never };
  else value = outputSchemaOf(call, tool?.outputSchema);
  const from = `written by call "${call.id}", tool "${call.tool}"`;
  const out: Arrival[] = [];
  const count = output.paths.length;
  let writesBelow = false;
  for (let k = 0; k < count; k++) {
    const written = output.paths[k]!.segments;
    const rest = segmentsBelow(written, path);
    if (rest === null) {
      // Written below the read: the read gets the container such writes make (filledBelow).
      if (segmentsOverlap(written, path)) writesBelow = true;
      continue;
    }
    if (k === call.errorAlternative) {
      // Only the tool's error ever goes there (a branch value naming it is BAD_BRANCH).
      const error = walk(ERROR_OBJECT_SCHEMA, rest, 'the error object');
      if (error === undefined) return null;
      out.push({
        schema: error.schema,
        from: `the error object call "${call.id}" writes when its tool throws`,
        optional: error.optional,
        error: true,
      });
      continue;
    }
    if (value === undefined) return null;
    const walked = walk(value, rest, `the outputSchema of tool "${call.tool}"`);
    if (walked === undefined) return null;
    out.push({ schema: walked.schema, from, optional: walked.optional });
  }
  // Written both at (or above) and below the read: a value changed in place, not followed.
  if (writesBelow && out.length > 0) return null;
  return out;
}

/**
 * The read of a path its writers only fill in below (`†state.user` after writes to
 * `†state.user.name`): the container the first such write makes (an array when the next
 * segment is an index, else an object), or the initial state's container there. Null when that
 * cannot be told (the initial state holds something else there, or writes disagree).
 */
function filledBelow(
  read: ReadBinding,
  path: readonly PathSegment[],
  calls: readonly CallSpec[],
  options: TypeFlowOptions,
): Arrival[] | null {
  const initial = getAtPath(options.state, path);
  let type: 'object' | 'array' | undefined;
  if (initial !== undefined) {
    if (initial === null || typeof initial !== 'object') return null;
    type = Array.isArray(initial) ? 'array' : 'object';
  } else {
    for (const w of read.writers) {
      for (const written of calls[w]!.outputPath?.paths ?? []) {
        if (written.segments.length <= path.length || !segmentsOverlap(written.segments, path)) continue;
        const next = typeof written.segments[path.length] === 'number' ? 'array' : 'object';
        if (type !== undefined && type !== next) return null;
        type = next;
      }
    }
  }
  if (type === undefined) return null;
  const writers = read.writers.map((w) => `"${calls[w]!.id}"`).join(', ');
  return [
    {
      schema: { type },
      from: `filled in by call${read.writers.length > 1 ? 's' : ''} ${writers}`,
      optional: null,
    },
  ];
}

/** What a call writes as its output: a `_forEach` call, the array of its tool's outputs. */
export function outputSchemaOf(call: CallSpec, schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!call.forEach) return schema;
  return schema === undefined || schema === true ? { type: 'array' } : { type: 'array', items: schema };
}
