/**
 * Types along the data flow: what may arrive at each argument that is a reference, against the
 * parameter's schema in the tool's inputSchema.
 *
 * What arrives at a read is known from its binding: a writer's outputSchema (or the `_output`
 * an eager latent call carries), walked along the part of the read path below the written
 * path; the value in the input or the initial state; or the state schema's declaration. A
 * writer's error alternative (the last of two or more, when the tool allows it) may also
 * receive the error object `{message, code?}`. A `||` expression may receive any of its
 * references' values, a `&&` expression its last one's.
 *
 * Every possible arrival is judged with {@link schemaCompat}. When none can ever fit, the
 * argument is E_REF_TYPE; when some can never fit (a branch, the error object), W_REF_TYPE.
 * Whatever cannot be told (a writer without outputSchema, a `[*]` read, a read of a whole
 * object that several calls fill in, a schema with `$ref`) checks nothing.
 */
import { countedIfFull, error, type DiagnosticSink, warning } from '../language/diagnostics.js';
import type { JsonObject, ExecutionMode } from '../language/document.js';
import { getAtPath, type PathSegment, WILDCARD } from '../language/paths.js';
import { splitPointer } from '../language/pointer.js';
import type { Reference } from '../language/reference.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { JsonSchema } from '../tools/tool.js';
import type { CallSpec } from './read-call.js';
import { schemaCompat } from './schema-compat.js';
import type { ArgumentReference, ReadBinding } from './types.js';

export interface TypeFlowOptions {
  readonly tools: ToolRegistry;
  /** `†input` values; undefined means unknown (input reads are not typed). */
  readonly input: JsonObject | undefined;
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

/** Most path segments walked into a schema; deeper reads are not typed. */
const MAX_WALK = 64;

/** One value that may arrive, and where it comes from (for the message). */
interface Arrival {
  readonly schema: JsonSchema;
  readonly from: string;
}

/** Checks every reference argument of every call whose tool has an inputSchema. */
export function checkTypeFlow(
  calls: readonly CallSpec[],
  options: TypeFlowOptions,
  diagnostics: DiagnosticSink,
): void {
  // Reads per reference, found once per call (a call's reads are in its refs' order).
  for (const call of calls) {
    if (call.refs.length === 0 || call.tool === null) continue;
    const registered = options.tools.get(call.tool);
    const inputSchema = registered?.tool.inputSchema;
    if (!inputSchema || typeof inputSchema !== 'object') continue;
    let readsByRef: Map<Reference, ReadBinding> | undefined;
    for (const argument of call.refs) {
      const parameter = parameterSchema(inputSchema, argument.at);
      // `{}` (or `true`) takes anything: nothing to check, and nothing to look up.
      if (parameter === undefined || parameter === true || Object.keys(parameter).length === 0) continue;
      readsByRef ??= new Map(call.reads.map((r) => [r.ref, r]));
      const arrivals = arrivalsOf(argument, readsByRef, calls, options);
      if (!arrivals || arrivals.length === 0) continue;
      const fits = arrivals.map((a) => schemaCompat(a.schema, parameter));
      const never = fits.filter((f) => f === 'never').length;
      if (never === 0) continue;
      const severity = never === arrivals.length ? 'error' : 'warning';
      if (countedIfFull(diagnostics, severity)) continue;
      const bad = arrivals[fits.indexOf('never')]!;
      diagnostics.push(describe(call, argument, parameter, bad, severity, arrivals.length));
    }
  }
}

function describe(
  call: CallSpec,
  argument: ArgumentReference,
  parameter: JsonSchema,
  bad: Arrival,
  severity: 'error' | 'warning',
  count: number,
): ReturnType<typeof error> {
  const name = argumentName(argument.at);
  const expected = describeSchema(parameter);
  const arriving = describeSchema(bad.schema);
  const base = `argument '${name}' of tool "${call.tool}" expects ${expected}, but ${argument.text}`;
  const extra = { call: call.id, offset: argument.expression.refs[0]?.start ?? 0 };
  if (severity === 'error') {
    const what =
      count === 1
        ? `${base} is ${arriving} (${bad.from})`
        : `${base} is never of that type (${arriving}, ${bad.from})`;
    return error('E_REF_TYPE', call.pointer + argument.at, what, {
      ...extra,
      hint: `read a value of type ${expected} (a property of it, or another path), or make the writer's outputSchema fit`,
    });
  }
  return warning(
    'W_REF_TYPE',
    call.pointer + argument.at,
    `${base} may be ${arriving} (${bad.from}), which does not fit`,
    {
      ...extra,
      hint: 'that alternative makes the call fail: read it only where it fits, or handle it in another call',
    },
  );
}

/** Everything that may arrive at the argument, or null when some of it is unknown. */
function arrivalsOf(
  argument: ArgumentReference,
  reads: Map<Reference, ReadBinding>,
  calls: readonly CallSpec[],
  options: TypeFlowOptions,
): Arrival[] | null {
  const { op, refs } = argument.expression;
  const considered = op === '&&' ? refs.slice(-1) : refs;
  const out: Arrival[] = [];
  for (const ref of considered) {
    const read = reads.get(ref);
    if (!read) return null;
    const arrivals = arrivalsOfRead(read, calls, options);
    if (!arrivals) return null;
    out.push(...arrivals);
    // `a || b` takes b only when a is missing; a value always there hides the rest.
    if (op === '||' && surelyThere(read, calls)) break;
  }
  return out;
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
      (p) => below(p.segments, read.ref.segments as PathSegment[])?.length === 0,
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
  if (segments.includes(WILDCARD)) return null;
  const path = segments as readonly PathSegment[];
  switch (read.kind) {
    case 'input': {
      if (!options.input) return null;
      const value = getAtPath(options.input, path);
      return value === undefined ? null : [{ schema: { const: value }, from: 'from the input' }];
    }
    case 'initial': {
      const value = getAtPath(options.state, path);
      return value === undefined ? null : [{ schema: { const: value }, from: 'from the initial state' }];
    }
    case 'schema': {
      if (!options.stateSchema) return null;
      const schema = walkSchema(options.stateSchema, path);
      return schema === undefined ? null : [{ schema, from: 'as the state schema declares it' }];
    }
    default: {
      if (read.writers.length === 0) return null;
      const out: Arrival[] = [];
      for (const w of read.writers) {
        const arrivals = writerArrivals(calls[w]!, path, options);
        if (!arrivals) return null;
        out.push(...arrivals);
      }
      return out;
    }
  }
}

/** What writer `call` puts at `path`, per alternative it may take. */
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
  else value = tool?.outputSchema;
  if (value === undefined) return null;
  const from = `written by call "${call.id}", tool "${call.tool}"`;
  const out: Arrival[] = [];
  const count = output.paths.length;
  for (let k = 0; k < count; k++) {
    const written = output.paths[k]!.segments;
    const rest = below(written, path);
    if (rest === null) {
      // The read covers more than this write (a whole object others fill in too): unknown.
      if (overlaps(written, path)) return null;
      continue;
    }
    const errorAlternative =
      output.op === '||' && count >= 2 && k === count - 1 && tool?.errorBranch !== false;
    const schema = walkSchema(value, rest);
    if (schema === undefined) return null;
    out.push({ schema, from });
    if (errorAlternative) {
      const errorSchema = walkSchema(ERROR_OBJECT_SCHEMA, rest);
      if (errorSchema === undefined) return null;
      out.push({ schema: errorSchema, from: `the error object call "${call.id}" writes when it throws` });
    }
  }
  return out.length > 0 ? out : null;
}

/** The segments of `read` below `written`, or null when `written` is not a prefix of it. */
function below(written: readonly PathSegment[], read: readonly PathSegment[]): readonly PathSegment[] | null {
  if (written.length > read.length) return null;
  for (let i = 0; i < written.length; i++) if (String(written[i]) !== String(read[i])) return null;
  return read.slice(written.length);
}

function overlaps(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

/** The schema of the value at `path` inside a value of `schema`, or undefined when unknown. */
function walkSchema(schema: JsonSchema, path: readonly PathSegment[]): JsonSchema | undefined {
  if (path.length > MAX_WALK) return undefined;
  let current: JsonSchema = schema;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (current === true || current === false) return undefined;
    if (isUnfollowable(current)) return undefined;
    if (Object.hasOwn(current, 'const')) {
      // A known value (input, initial state, _output): its part at the rest of the path.
      const value = getAtPath(current.const, path.slice(i));
      return value === undefined ? undefined : { const: value as never };
    }
    const properties = current.properties as Record<string, JsonSchema> | undefined;
    const key = String(segment);
    if (properties && typeof properties === 'object' && Object.hasOwn(properties, key)) {
      current = properties[key]!;
      continue;
    }
    const items = current.items;
    if (
      /^\d+$/.test(key) &&
      items !== undefined &&
      !Array.isArray(items) &&
      current.prefixItems === undefined
    ) {
      current = items as JsonSchema;
      continue;
    }
    return undefined;
  }
  if (typeof current === 'object' && isUnfollowable(current)) return undefined;
  return current;
}

/** Schemas whose parts this walk does not follow: a read through them is untyped. */
function isUnfollowable(schema: { [key: string]: unknown }): boolean {
  return (
    schema.$ref !== undefined ||
    schema.$dynamicRef !== undefined ||
    schema.allOf !== undefined ||
    schema.if !== undefined
  );
}

/** The parameter's schema at a pointer inside the arguments, walked through properties and items. */
function parameterSchema(inputSchema: JsonSchema, at: string): JsonSchema | undefined {
  return walkSchema(inputSchema, splitPointer(at));
}

function argumentName(at: string): string {
  const tokens = splitPointer(at);
  let text = tokens[0] ?? '';
  for (const token of tokens.slice(1)) text += /^\d+$/.test(token) ? `[${token}]` : `.${token}`;
  return text;
}

/** A short type for messages: `string`, `array`, `"a" | "b"`, `string | number`. */
export function describeSchema(schema: JsonSchema): string {
  if (schema === true) return 'any value';
  if (schema === false) return 'no value';
  if (Object.hasOwn(schema, 'const')) return short(JSON.stringify(schema.const) ?? 'undefined');
  if (Array.isArray(schema.enum))
    return short((schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | '));
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  // One level only: the alternatives' own types (schemas are untrusted; no recursion).
  if (Array.isArray(union)) return short(union.map((s) => typeName(s as JsonSchema)).join(' | '));
  const type = schema.type;
  if (typeof type === 'string') {
    if (
      type === 'array' &&
      schema.items &&
      typeof schema.items === 'object' &&
      !Array.isArray(schema.items)
    ) {
      const items = schema.items as { type?: unknown };
      if (typeof items.type === 'string') return `array of ${items.type}`;
    }
    return type;
  }
  if (Array.isArray(type)) return type.join(' | ');
  return 'any value';
}

function typeName(schema: JsonSchema): string {
  if (typeof schema !== 'object' || schema === null) return schema ? 'any value' : 'no value';
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (Object.hasOwn(schema, 'const')) return short(JSON.stringify(schema.const) ?? 'undefined');
  return 'any value';
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
