/**
 * Types through `_forEach`: its array reference must be able to hold an array (E_FOR_EACH_TYPE),
 * and `†item...` arguments are typed as the element type, walked along their path, as any read:
 * a property every element type closes out (or that no element of a known array has) is
 * E_UNRESOLVED with the nearest name; a value that can never fit the parameter is E_REF_TYPE.
 * `†index` is a whole number. Whatever cannot be told (no schema, `$ref`...) checks nothing.
 */
import { countedIfFull, type DiagnosticSink, error } from '../../language/diagnostics.js';
import { firstSelector, formatPath, getAtPath, type PathSegment } from '../../language/paths.js';
import type { JsonSchema } from '../../tools/tool.js';
import { nearest } from '../nearest.js';
import type { CallSpec } from '../read/index.js';
import type { LoopArgument } from '../types.js';
import { closedOutAt } from './closed-reads.js';
import { schemaCompat } from './schema-compat.js';
import { parameterToCheck, walk } from './schema-walk.js';
import type { Arrival } from './type-messages.js';

/** The schema of one element of what may arrive at a `_forEach`, per arrival; null for one that cannot be told. */
function elementsOf(arrival: Arrival): { schema: JsonSchema | null; values: readonly unknown[] | null } {
  const schema = arrival.schema;
  if (typeof schema === 'object' && Object.hasOwn(schema, 'const')) {
    const value = schema.const as unknown;
    return { schema: null, values: Array.isArray(value) ? value : null };
  }
  return { schema: walk(schema, [0], '')?.schema ?? null, values: null };
}

/**
 * Checks a `_forEach` call's array (`arrivals`: what may arrive at it, from the type flow) and
 * its loop arguments against the tool's inputSchema.
 */
export function checkForEachTypes(
  call: CallSpec,
  arrivals: readonly Arrival[],
  inputSchema: JsonSchema,
  diagnostics: DiagnosticSink,
): void {
  const forEach = call.forEach!;
  const arrays = arrivals.filter((a) => !a.error && schemaCompat(a.schema, { type: 'array' }) !== 'never');
  if (arrays.length === 0 && arrivals.some((a) => !a.error)) {
    if (countedIfFull(diagnostics, 'error')) return;
    const from = arrivals.find((a) => !a.error)!;
    diagnostics.push(
      error(
        'E_FOR_EACH_TYPE',
        `${call.pointer}/_forEach`,
        `_forEach ${forEach.text} is never an array: it is ${describeSchema(from.schema)} ${from.from}`,
        {
          call: call.id,
          hint: 'give _forEach a reference to an array (a list of results, say)',
        },
      ),
    );
    return;
  }
  const elements = arrays.map(elementsOf);
  for (const loop of forEach.loopArguments) checkLoopArgument(call, loop, elements, inputSchema, diagnostics);
}

function checkLoopArgument(
  call: CallSpec,
  loop: LoopArgument,
  elements: readonly { schema: JsonSchema | null; values: readonly unknown[] | null }[],
  inputSchema: JsonSchema,
  diagnostics: DiagnosticSink,
): void {
  const parameter = parameterToCheck(inputSchema, loop.at);
  const pointer = call.pointer + loop.at;
  if (loop.ref.root === 'index') {
    if (parameter && schemaCompat({ type: 'integer', minimum: 0 }, parameter) === 'never')
      reportType(call, pointer, loop, 'a whole number (the element position)', diagnostics);
    return;
  }
  const wildcard = firstSelector(loop.ref.segments);
  const path = (wildcard < 0 ? loop.ref.segments : loop.ref.segments.slice(0, wildcard)) as PathSegment[];
  if (elements.length === 0 || path.length === 0) return;
  // Never set: every element type closes it out, or no element of a known array has it.
  const keys: string[] = [];
  let closedEverywhere = true;
  for (const element of elements) {
    if (element.values) {
      if (element.values.length === 0 || element.values.some((v) => getAtPath(v, path) !== undefined)) {
        closedEverywhere = false;
        break;
      }
      for (const v of element.values.slice(0, 100)) {
        const parent = getAtPath(v, path.slice(0, -1));
        if (parent && typeof parent === 'object' && !Array.isArray(parent)) keys.push(...Object.keys(parent));
      }
      continue;
    }
    const closed = element.schema === null ? null : closedOutAt(element.schema, path);
    if (closed === null || closed.index !== path.length - 1) {
      closedEverywhere = false;
      break;
    }
    keys.push(...closed.keys);
  }
  if (closedEverywhere) {
    if (countedIfFull(diagnostics, 'error')) return;
    const missing = String(path[path.length - 1]);
    const near = nearest(missing, new Set(keys));
    const suggestion =
      near === undefined
        ? undefined
        : formatPath('state', [...path.slice(0, -1), near]).replace(/^†?state/, '†item');
    diagnostics.push(
      error(
        'E_UNRESOLVED',
        pointer,
        `${loop.ref.text} is never set: no element of the _forEach array has '${missing}'`,
        {
          call: call.id,
          hint: suggestion
            ? `did you mean ${suggestion}?`
            : `the elements have ${[...new Set(keys)].slice(0, 5).join(', ') || 'no such property'}`,
        },
      ),
    );
    return;
  }
  if (!parameter || wildcard >= 0) return;
  let anyFits = false;
  let known = true;
  for (const element of elements) {
    const schema = element.schema === null ? null : walk(element.schema, path, '')?.schema;
    if (schema === null || schema === undefined) {
      known = false;
      break;
    }
    if (schemaCompat(schema, parameter) !== 'never') anyFits = true;
  }
  if (known && !anyFits) reportType(call, pointer, loop, 'the element type there', diagnostics);
}

function reportType(
  call: CallSpec,
  pointer: string,
  loop: LoopArgument,
  what: string,
  diagnostics: DiagnosticSink,
): void {
  if (countedIfFull(diagnostics, 'error')) return;
  diagnostics.push(
    error('E_REF_TYPE', pointer, `${loop.ref.text} can never fit the parameter: it is ${what}`, {
      call: call.id,
      hint: 'pass another part of the element, or a tool whose parameter takes this value',
    }),
  );
}

function describeSchema(schema: JsonSchema): string {
  if (typeof schema !== 'object') return 'any value';
  if (Object.hasOwn(schema, 'const')) return `the value ${JSON.stringify(schema.const)?.slice(0, 60)}`;
  const type = schema.type;
  return typeof type === 'string'
    ? `of type ${type}`
    : Array.isArray(type)
      ? `of type ${type.join(' or ')}`
      : 'a value';
}
