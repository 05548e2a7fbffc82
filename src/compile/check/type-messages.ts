/**
 * The type flow's diagnostics (type-flow.ts finds what may arrive; this says what is wrong with
 * it): E_REF_TYPE, W_REF_TYPE, W_REF_OPTIONAL and the type case of W_ERROR_AS_DATA, and the
 * short type names their messages use.
 */
import { countedIfFull, error, type DiagnosticSink, warning } from '../../language/diagnostics.js';
import { splitPointer } from '../../language/pointer.js';
import type { JsonSchema } from '../../tools/tool.js';
import type { CallSpec } from '../read/index.js';
import { errorAsDataType } from './error-reads.js';
import type { ArgumentReference } from '../types.js';

/** One value that may arrive, and where it comes from (for the message). */
export interface Arrival {
  readonly schema: JsonSchema;
  readonly from: string;
  /**
   * The property on the way to the value that the writer's schema does not require (the value
   * may then be missing), as `property 'title' is not required by <what>`; null when every step
   * is required or known.
   */
  readonly optional: string | null;
  /** Set for the error object a declared error alternative holds. */
  readonly error?: true;
}

/**
 * Some arrivals can never fit: E_REF_TYPE when none can (and data is among them), W_REF_TYPE
 * for data that may not fit, W_ERROR_AS_DATA for an error object that cannot.
 */
export function reportNever(
  call: CallSpec,
  argument: ArgumentReference,
  parameter: JsonSchema,
  arrivals: readonly Arrival[],
  fits: readonly string[],
  never: number,
  diagnostics: DiagnosticSink,
): void {
  const data = arrivals.findIndex((a, n) => !a.error && fits[n] === 'never');
  const errorObject = arrivals.findIndex((a, n) => a.error && fits[n] === 'never');
  const severity = never === arrivals.length && data >= 0 ? 'error' : 'warning';
  if (data >= 0 && !countedIfFull(diagnostics, severity))
    diagnostics.push(describe(call, argument, parameter, arrivals[data]!, severity, arrivals.length));
  if (errorObject < 0 || severity === 'error' || countedIfFull(diagnostics, 'warning')) return;
  const bad = arrivals[errorObject]!;
  diagnostics.push(
    errorAsDataType(
      call,
      argument.at,
      argumentName(argument.at),
      argument.text,
      describeSchema(parameter),
      describeSchema(bad.schema),
      bad.from,
      argument.expression.refs[0]?.start ?? 0,
    ),
  );
}

export function describeOptional(
  call: CallSpec,
  argument: ArgumentReference,
  optional: string,
): ReturnType<typeof warning> {
  const name = argumentName(argument.at);
  return warning(
    'W_REF_OPTIONAL',
    call.pointer + argument.at,
    `argument '${name}' of tool "${call.tool}" is required, but ${argument.text} may be missing: ${optional}; the call does not run without it`,
    {
      call: call.id,
      offset: argument.expression.refs[0]?.start ?? 0,
      hint: `add a fallback ("${argument.text} || †state.other"), or make the writer's outputSchema require it`,
    },
  );
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
