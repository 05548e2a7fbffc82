/**
 * E_ARGS: literal arguments against the tool's inputSchema. References are not values yet,
 * so an error at a reference (or inside it), or one that depends on its value (anyOf, enum,
 * const…) at an enclosing object, is left for the run-time check.
 */
import type { ErrorObject } from 'ajv';
import {
  countedIfFull,
  error,
  type DiagnosticSink,
  type PendingDiagnostic,
} from '../../language/diagnostics.js';
import type { JsonObject } from '../../language/document.js';
import { joinPointer, splitPointer } from '../../language/pointer.js';
import type { SchemaValidate } from '../../tools/schema-validator.js';
import type { ArgumentDefaults } from '../../tools/schema-defaults.js';
import { cloneJson } from '../../language/json/index.js';
import { nearest } from '../nearest.js';
import type { CallSpec } from '../read/index.js';
import type { CompiledCall } from '../types.js';

/** Keywords whose verdict on an object or array can change with the value of a reference inside it. */
const VALUE_DEPENDENT = new Set([
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'enum',
  'const',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentSchemas',
  'false schema',
]);

export function checkLiteralArguments(
  call: CallSpec,
  tool: string,
  validate: SchemaValidate,
  diagnostics: DiagnosticSink,
  defaults: ArgumentDefaults | null = null,
): void {
  try {
    let args = call.literals.length > 0 ? unescapeLiterals(call.args, call.literals) : call.args;
    // A property the schema gives a default is there when the call runs (RunOptions.applyDefaults,
    // on unless turned off): a required one the plan leaves out is no error. The copy is checked.
    if (defaults !== null) args = defaults.fill({ ...args });
    if (validate(args)) return;
  } catch (e) {
    // A recursive schema ($ref: '#') makes ajv recurse as deep as the arguments go; past the
    // stack they cannot be checked here (E_LIMIT already says they nest too deep), and a plan
    // gets diagnostics, never a crash.
    if (e instanceof RangeError) return;
    throw e;
  }
  const refs = ReferenceIndex.ofCall(call);
  const errors = (validate.errors ?? []).filter((e) => !refs.decides(e));
  for (const e of withoutBranchNoise(errors)) {
    if (countedIfFull(diagnostics, 'error')) continue;
    diagnostics.push(toDiagnostic(e, call, tool, validate.schema, diagnostics));
  }
}

/**
 * Where a call's references sit in its arguments, to ask of each schema error whether a
 * reference's value decides it. Sets of pointers and of their ancestors: a plan of 100k
 * references and 100k errors costs a few lookups per error, not a scan of every reference.
 */
export class ReferenceIndex {
  readonly #at: ReadonlySet<string>;
  /** Every proper ancestor pointer of a reference (`/a` and `` for `/a/b`). */
  readonly #enclosing = new Set<string>();

  /** The index of a call's references, read from the compile's columns. */
  static ofCall(call: Pick<CompiledCall, 'refCount' | 'refAt' | 'forEach'>): ReferenceIndex {
    const refAt = new Array<string>(call.refCount);
    for (let k = 0; k < refAt.length; k++) refAt[k] = call.refAt(k);
    // `†item` and `†index` are values of each element, not literals: checked per element at run time.
    if (call.forEach) for (const loop of call.forEach.loopArguments) refAt.push(loop.at);
    return new ReferenceIndex(refAt);
  }

  constructor(refAt: readonly string[]) {
    this.#at = new Set(refAt);
    for (const at of refAt) {
      for (let slash = at.lastIndexOf('/'); slash >= 0; slash = at.lastIndexOf('/', slash - 1)) {
        const parent = at.slice(0, slash);
        if (this.#enclosing.has(parent)) break; // its ancestors are in already
        this.#enclosing.add(parent);
        if (slash === 0) break;
      }
    }
  }

  /** True when the error is at or inside a reference, or is an enclosing verdict its value can change. */
  decides(e: ErrorObject): boolean {
    if (this.#at.size === 0) return false;
    const at = e.instancePath;
    // At or inside a reference: the error's pointer or one of its ancestors is a reference.
    if (this.#at.has(at)) return true;
    for (let slash = at.lastIndexOf('/'); slash > 0; slash = at.lastIndexOf('/', slash - 1)) {
      if (this.#at.has(at.slice(0, slash))) return true;
    }
    return VALUE_DEPENDENT.has(e.keyword) && this.#enclosing.has(at);
  }
}

/** With anyOf/oneOf, ajv also reports every branch's own failures; the summary is enough. */
export function withoutBranchNoise(errors: ErrorObject[]): ErrorObject[] {
  const branchRoots = new Set<string>();
  for (const e of errors) if (e.keyword === 'anyOf' || e.keyword === 'oneOf') branchRoots.add(e.schemaPath);
  if (branchRoots.size === 0) return errors;
  // An error is noise when one of its schema path's ancestors is a branch root.
  return errors.filter((e) => {
    const path = e.schemaPath;
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      if (branchRoots.has(path.slice(0, slash))) return false;
    }
    return true;
  });
}

/** `sink`: where it goes; its hint budget pays for "did you mean", skipped when it keeps no more. */
function toDiagnostic(
  e: ErrorObject,
  call: CallSpec,
  tool: string,
  rootSchema: unknown,
  sink: DiagnosticSink,
): PendingDiagnostic {
  const where = describeLocation(e.instancePath);
  const pointer = call.pointer + e.instancePath;
  const base = { call: call.id };
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      return error(
        'E_ARGS',
        pointer,
        e.instancePath === ''
          ? `missing required argument '${missing}' for tool '${tool}'`
          : `${where} is missing required property '${missing}'`,
        { ...base, hint: `add "${missing}"` },
      );
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const parent = (e.parentSchema ?? parentSchemaOf(rootSchema, e.schemaPath)) as JsonObject | undefined;
      const known = Object.keys((parent?.properties as JsonObject | undefined) ?? {});
      const near = sink.full ? undefined : nearest(extra, known, sink.hints);
      return error(
        'E_ARGS',
        joinPointer(pointer, extra),
        e.instancePath === ''
          ? `unknown argument '${extra}' for tool '${tool}'`
          : `${where} has no property '${extra}'`,
        {
          ...base,
          atKey: true,
          hint: near ? `did you mean '${near}'?` : known.length > 0 ? allowedHint(known) : 'remove it',
        },
      );
    }
    case 'type':
      return error(
        'E_ARGS',
        pointer,
        `${where} must be ${String(params.type)}, not ${jsonType(valueAt(call.args, e.instancePath))}`,
        {
          ...base,
          hint: `pass a value of type ${String(params.type)}`,
        },
      );
    case 'enum': {
      const allowed = params.allowedValues as unknown[];
      const value = valueAt(call.args, e.instancePath);
      const near =
        typeof value === 'string' && !sink.full
          ? nearest(
              value,
              allowed.filter((v): v is string => typeof v === 'string'),
              sink.hints,
            )
          : undefined;
      return error(
        'E_ARGS',
        pointer,
        `${where} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
        {
          ...base,
          hint: near ? `did you mean ${JSON.stringify(near)}?` : 'use one of the allowed values',
        },
      );
    }
    default:
      return error('E_ARGS', pointer, `${where} ${e.message ?? 'is invalid'}`, {
        ...base,
        hint: `change the value to meet the tool's inputSchema (${e.keyword})`,
      });
  }
}

/**
 * The schema object holding the keyword at `schemaPath` (`#/properties/a/additionalProperties`
 * gives `properties/a`). ajv only attaches `parentSchema` in verbose mode, which costs every
 * validation; looking it up here costs only failing ones.
 */
function parentSchemaOf(root: unknown, schemaPath: string): unknown {
  if (!schemaPath.startsWith('#')) return undefined;
  const tokens = splitPointer(schemaPath.slice(1));
  let current: unknown = root;
  for (const token of tokens.slice(0, -1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as JsonObject)[token];
  }
  return current;
}

/**
 * Characters of names an "allowed:" hint lists: a schema of 2,000 names of 1,000 characters
 * would put 2 MB in every hint, and a plan can earn a thousand of them.
 */
const ALLOWED_HINT_LENGTH = 1_000;

/** `allowed: a, b, c`, cut before {@link ALLOWED_HINT_LENGTH} characters with a count of the rest. */
function allowedHint(known: readonly string[]): string {
  let text = 'allowed: ';
  for (let i = 0; i < known.length; i++) {
    const name = known[i]!;
    if (i > 0 && text.length + name.length > ALLOWED_HINT_LENGTH)
      return `${text}, and ${known.length - i} more`;
    text +=
      i > 0
        ? `, ${name}`
        : name.length > ALLOWED_HINT_LENGTH
          ? `${name.slice(0, ALLOWED_HINT_LENGTH)}…`
          : name;
  }
  return text;
}

/** `/filter/0/id` → `argument 'filter[0].id'`. */
function describeLocation(instancePath: string): string {
  const tokens = splitPointer(instancePath);
  if (tokens.length === 0) return 'the arguments';
  let text = tokens[0]!;
  for (const token of tokens.slice(1)) text += /^\d+$/.test(token) ? `[${token}]` : `.${token}`;
  return `argument '${text}'`;
}

function valueAt(args: JsonObject, instancePath: string): unknown {
  let current: unknown = args;
  for (const token of splitPointer(instancePath)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as JsonObject)[token];
  }
  return current;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

/** A copy of the arguments with one leading † dropped from each `††` literal. */
function unescapeLiterals(args: JsonObject, literals: readonly string[]): JsonObject {
  const copy = cloneJson(args);
  for (const at of literals) {
    const tokens = splitPointer(at);
    let parent: unknown = copy;
    for (const token of tokens.slice(0, -1)) parent = (parent as JsonObject)[token];
    const last = tokens[tokens.length - 1]!;
    const container = parent as JsonObject;
    container[last] = (container[last] as string).slice(1);
  }
  return copy;
}
