/**
 * Writers held to the state schema: what a call writes must fit what the schema declares at the
 * place it writes. The value written is the call's `_output` in an eager plan (known, so judged
 * whole), else its tool's `outputSchema`; the place's schema is found with stateSchemaAt, and
 * the two are judged with {@link schemaCompat}, as the type flow judges a read against a
 * parameter.
 *
 * A value that can never fit is E_STATE_TYPE. When the outputSchema has several forms (`anyOf`,
 * `oneOf`, a list of types) and only some of them can never fit, W_STATE_TYPE: such a result
 * fails its call when it is written (INVALID_OUTPUT). Judged are the places a result surely
 * goes: the one path, every `&&` path, and the first `||` alternative (where a plain result
 * goes). A tool sends a value to another alternative only by choosing it, which no compile can
 * tell: that write is checked when it happens. Whatever cannot be told (no outputSchema, a place
 * the schema does not describe) checks nothing.
 */
import { countedIfFull, type DiagnosticSink, error, warning } from '../../language/diagnostics.js';
import type { ExecutionMode, JsonObject } from '../../language/document.js';
import { formatPath } from '../../language/paths.js';
import { joinPointer } from '../../language/pointer.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { JsonSchema } from '../../tools/tool.js';
import type { CallSpec } from '../read/index.js';
import { schemaCompat } from './schema-compat.js';
import { checkStatePath, stateSchemaAt } from '../state-schema.js';
import { describeSchema } from './type-messages.js';

/** What a call writes: a known value (`_output`), or what its tool's outputSchema allows. */
interface Written {
  /** The value's schema: `{const}` for a known value. */
  readonly schema: JsonSchema;
  readonly known: boolean;
  /** The alternatives it surely goes to. */
  readonly alternatives: readonly number[];
}

/**
 * The key of a branch value's JSON form (run/call/branch.ts; the compile does not import the
 * run). An eager plan's `_output` chooses in that form, as the run reads it (the plan text says
 * what it chooses); a tool's result does only through `branch()` or `branchJson: true`, which the
 * compile never sees a value of.
 */
const BRANCH_KEY = '†branch';

/** Checks what call `spec` writes against the state schema at each place it surely writes. */
export function checkStateTypes(
  spec: CallSpec,
  stateSchema: JsonObject,
  tools: ToolRegistry | undefined,
  mode: ExecutionMode,
  diagnostics: DiagnosticSink,
): void {
  const written = writtenBy(spec, tools, mode);
  if (written === null) return;
  const output = spec.outputPath!;
  for (const k of written.alternatives) {
    const segments = output.paths[k]!.segments;
    // A place the schema has no room for is E_STATE_SCHEMA already.
    if (!checkStatePath(stateSchema, segments).allowed) continue;
    const place = stateSchemaAt(stateSchema, segments);
    if (place === undefined || place === true) continue;
    const forms = written.known ? [written.schema] : formsOf(written.schema);
    const bad = forms.filter((form) => schemaCompat(form, place) === 'never');
    if (bad.length === 0) continue;
    const severity = bad.length === forms.length ? 'error' : 'warning';
    if (countedIfFull(diagnostics, severity)) continue;
    const where = formatPath('state', segments);
    const declared = describeSchema(place);
    const extra = { call: spec.id, offset: output.refs[k]!.start };
    const pointer = joinPointer(spec.pointer, '_outputPath');
    if (severity === 'warning') {
      diagnostics.push(
        warning(
          'W_STATE_TYPE',
          pointer,
          `tool "${spec.tool}" may return ${describeSchema(bad[0]!)} (one of the forms of its outputSchema), which the state schema does not allow at ${where} (it declares ${declared})`,
          {
            ...extra,
            hint: 'such a result fails its call (INVALID_OUTPUT): narrow the outputSchema, widen the state schema, or write the result elsewhere',
          },
        ),
      );
    } else if (written.known) {
      diagnostics.push(
        error(
          'E_STATE_TYPE',
          pointer,
          `the _output of call "${spec.id}" is ${describeSchema(written.schema)}, but the state schema declares ${declared} at ${where}`,
          {
            ...extra,
            hint: 'write a result the state schema allows, fix the state schema, or write the result elsewhere',
          },
        ),
      );
    } else {
      diagnostics.push(
        error(
          'E_STATE_TYPE',
          pointer,
          `tool "${spec.tool}" returns ${describeSchema(written.schema)}, but the state schema declares ${declared} at ${where}`,
          {
            ...extra,
            hint: "fix the tool's outputSchema or the state schema, or write the result elsewhere",
          },
        ),
      );
    }
  }
}

function writtenBy(spec: CallSpec, tools: ToolRegistry | undefined, mode: ExecutionMode): Written | null {
  const output = spec.outputPath;
  if (!output || output.paths.length === 0) return null;
  // A plain value goes to the first alternative that is not the declared error alternative.
  const plain = spec.errorAlternative === 0 ? 1 : 0;
  const all = output.op === '&&' ? output.paths.map((_, k) => k) : plain < output.paths.length ? [plain] : [];
  if (spec.hasOutput && mode === 'eager') {
    let value = spec.output;
    let alternatives = all;
    if (isBranchJson(value)) {
      // The model chose an alternative: the value inside goes there (a bad choice fails at run time).
      const named = value[BRANCH_KEY];
      const k =
        typeof named === 'number'
          ? named
          : output.refs.findIndex(
              (ref, n) => ref.text === named || formatPath('state', output.paths[n]!.segments) === named,
            );
      if (!(Number.isInteger(k) && k >= 0 && k < output.paths.length)) return null;
      value = value.value;
      alternatives = output.op === '&&' ? all : [k];
    }
    return value === undefined ? null : { schema: { const: value as never }, known: true, alternatives };
  }
  const outputSchema = spec.tool === null ? undefined : tools?.get(spec.tool)?.tool.outputSchema;
  if (outputSchema === undefined || typeof outputSchema !== 'object') return null;
  return { schema: outputSchema, known: false, alternatives: all };
}

/**
 * The forms a value of `schema` may take, one level deep: each alternative of a top-level
 * `anyOf`/`oneOf` (with the schema's other keywords), or each type of a list of types.
 */
function formsOf(schema: JsonSchema): JsonSchema[] {
  if (typeof schema !== 'object') return [schema];
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
  if (Array.isArray(union) && union.length > 0) {
    return union.map((form) =>
      form !== null && typeof form === 'object' && !Array.isArray(form)
        ? { ...rest, ...(form as object) }
        : (form as JsonSchema),
    );
  }
  if (Array.isArray(schema.type) && schema.type.length > 1)
    return schema.type.map((type) => ({ ...schema, type }));
  return [schema];
}

function isBranchJson(value: unknown): value is { [BRANCH_KEY]: unknown; value: unknown } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && Object.hasOwn(value, BRANCH_KEY) && Object.hasOwn(value, 'value');
}
