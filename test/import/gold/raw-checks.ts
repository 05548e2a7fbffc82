/**
 * The dataset defects of test/corpora/defects.json, checked against the raw files alone: no
 * planmode code reads the data here. Each kind of defect names what must hold in the raw sample
 * and spec (an API the spec lacks, a label given twice, types that disagree...); `rawDefect`
 * says whether it does, and why not when it does not.
 */
import type { RawRecord } from './corpora.js';

/** One listed defect, as defects.json writes it. */
export interface ListedDefect {
  readonly code: string;
  readonly call: string;
  /** The diagnostic's pointer: `/<message>/plan/<call index>/<argument path>`. */
  readonly pointer: string;
  readonly kind:
    | 'unknown-api'
    | 'duplicate-label'
    | 'unknown-label'
    | 'missing-field'
    | 'missing-required'
    | 'not-allowed-value'
    | 'value-type'
    | 'reference-type';
  /** The argument a `missing-required` defect is about (the pointer is then the call's). */
  readonly argument?: string;
  readonly reason: string;
}

/** The raw data a defect is checked against: the sample's row and the spec's APIs by name. */
export interface RawSample {
  readonly calls: readonly RawRecord[];
  readonly spec: ReadonlyMap<string, RawRecord>;
}

const PARAMETER_GROUPS = ['query_parameters', 'path_parameters', 'parameters', 'arguments'];

/** The datasets' type names in five classes (`int` and `float` are both numbers). */
const TYPE_CLASSES: Record<string, string> = {
  str: 'string',
  string: 'string',
  int: 'number',
  integer: 'number',
  float: 'number',
  number: 'number',
  double: 'number',
  bool: 'boolean',
  boolean: 'boolean',
  list: 'array',
  array: 'array',
  dict: 'object',
  object: 'object',
};

function typeClass(typeName: unknown): string | undefined {
  return typeof typeName === 'string' ? TYPE_CLASSES[typeName.toLowerCase()] : undefined;
}

/** The class of a JSON value, as JavaScript sees it. */
function valueClass(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

function isRecord(value: unknown): value is RawRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function label(call: RawRecord | undefined): string | undefined {
  return typeof call?.label === 'string' ? call.label.replace(/^\$/, '') : undefined;
}

/** The call index and the argument path of a diagnostic's pointer. */
export function splitDefectPointer(pointer: string): { index: number; path: string[] } {
  const match = /^\/\d+\/plan\/(\d+)(.*)$/.exec(pointer);
  if (!match) throw new Error(`not a pointer into a plan's calls: ${pointer}`);
  const path = match[2]!
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  return { index: Number(match[1]), path };
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const token of path) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isRecord(current)) current = current[token];
    else return undefined;
  }
  return current;
}

/** The raw definition of a parameter (`path[0]`) of `api`, walked into `items`/`properties`. */
function parameterAt(api: RawRecord | undefined, path: readonly string[]): RawRecord | undefined {
  let current: unknown;
  for (const group of PARAMETER_GROUPS) {
    const parameters = api?.[group];
    if (isRecord(parameters) && isRecord(parameters[path[0]!])) {
      current = parameters[path[0]!];
      break;
    }
  }
  for (const token of path.slice(1)) {
    if (!isRecord(current)) return undefined;
    current = /^\d+$/.test(token)
      ? current.items
      : isRecord(current.properties)
        ? current.properties[token]
        : undefined;
  }
  return isRecord(current) ? current : undefined;
}

/** `"$var1.a.b$"` -> label `var1`, fields `[a, b]`. */
function readReference(value: unknown): { label: string; fields: string[] } | undefined {
  if (typeof value !== 'string' || !/^\$[^$]+\$$/.test(value)) return undefined;
  const [first, ...fields] = value.slice(1, -1).split('.');
  return { label: first!, fields };
}

/**
 * The raw output field a reference reads: the writer's API's `output_parameters`, walked
 * through `properties`; undefined at the first field the spec does not list.
 */
function outputField(api: RawRecord | undefined, fields: readonly string[]): RawRecord | undefined {
  let current: unknown = { properties: api?.output_parameters };
  for (const field of fields) {
    const properties = isRecord(current) ? current.properties : undefined;
    if (!isRecord(properties) || !Object.hasOwn(properties, field)) return undefined;
    current = properties[field];
  }
  return isRecord(current) ? current : undefined;
}

/** Null when the defect is in the raw data; else what the raw data says instead. */
export function rawDefect(defect: ListedDefect, raw: RawSample): string | null {
  const { index, path } = splitDefectPointer(defect.pointer);
  const call = raw.calls[index];
  if (!call) return `no call ${index} in the raw sample`;
  const api = raw.spec.get(call.name as string);
  const args = isRecord(call.arguments) ? call.arguments : {};
  const value = valueAt(args, path);
  const writerOf = (name: string) => {
    const writer = raw.calls.find((c) => label(c) === name);
    return writer ? raw.spec.get(writer.name as string) : undefined;
  };
  switch (defect.kind) {
    case 'unknown-api':
      return raw.spec.has(call.name as string) ? `the spec defines ${String(call.name)}` : null;
    case 'duplicate-label': {
      const earlier = raw.calls.slice(0, index).some((c) => label(c) === label(call));
      return earlier ? null : `no earlier call is labelled ${String(label(call))}`;
    }
    case 'unknown-label': {
      const names = typeof value === 'string' ? [...value.matchAll(/\$([^.$[]+)/g)].map((m) => m[1]!) : [];
      const unknown = names.filter((n) => !raw.calls.some((c) => label(c) === n));
      return unknown.length > 0 ? null : `every label ${JSON.stringify(value)} names is a call's`;
    }
    case 'missing-field': {
      const ref = readReference(value);
      if (!ref) return `${JSON.stringify(value)} is not a reference`;
      const writer = writerOf(ref.label);
      if (!writer) return `no API for the label ${ref.label}`;
      return outputField(writer, ref.fields) === undefined ? null : `the spec lists ${ref.fields.join('.')}`;
    }
    case 'missing-required': {
      const name = defect.argument ?? '';
      const parameter = parameterAt(api, [name]);
      const required =
        parameter?.required === true || (Array.isArray(api?.required) && api.required.includes(name));
      if (!required) return `the spec does not mark ${name} required`;
      return Object.hasOwn(args, name) ? `the call gives ${name}` : null;
    }
    case 'not-allowed-value': {
      const parameter = parameterAt(api, path);
      const allowed = parameter?.allowed_values ?? parameter?.enum ?? parameter?.possible_values;
      if (!Array.isArray(allowed)) return 'the spec lists no allowed values';
      return allowed.includes(value) ? `${JSON.stringify(value)} is allowed` : null;
    }
    case 'value-type': {
      const want = typeClass(parameterAt(api, path)?.type);
      if (want === undefined) return 'the spec gives the parameter no known type';
      return valueClass(value) !== want ? null : `the value is a ${want}, as the spec says`;
    }
    case 'reference-type': {
      const ref = readReference(value);
      if (!ref) return `${JSON.stringify(value)} is not a reference`;
      const writer = writerOf(ref.label);
      const got = typeClass(outputField(writer, ref.fields)?.type);
      const want = typeClass(parameterAt(api, path)?.type);
      if (got === undefined || want === undefined) return 'the spec leaves a side untyped';
      return got !== want ? null : `both are ${want}`;
    }
    default:
      return `unknown kind ${String(defect.kind)}`;
  }
}
