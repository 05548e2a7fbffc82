/** compile(): one pass from a document to a validated, ordered dependency graph. */
import { optionKeys, rejectUnknownOptions } from '../language/option-keys.js';
import {
  asStrict,
  capDiagnostics,
  compareDiagnostics,
  type Diagnostic,
  DiagnosticList,
  type DiagnosticSink,
  error,
  hasErrors,
} from '../language/diagnostics.js';
import { describeValue } from '../language/describe-value.js';
import { checkJson } from '../language/json/index.js';
import type { JsonObject, PlanDocument, ExecutionMode, PlanInput } from '../language/document.js';
import { lazierMode } from '../language/execution-mode.js';
import { type Limits, resolveLimits } from '../language/limits.js';
import { parsePlan, positionDiagnostics } from '../language/parse/index.js';
import { SourceText } from '../language/text/index.js';
import { ToolRegistry } from '../tools/registry.js';
import type { JsonSchema, Tool } from '../tools/tool.js';
import { keepEdgeLists, keepProgramOrder, Plan } from './compiled-plan.js';
import { PlanBuilder } from './plan-builder.js';
import { checkStateSchemaPatterns } from './state-schema.js';
import { checkOutputSchema } from './output-schema.js';
import { checkToolMessages } from './check/index.js';
import type { CompiledCall, CompiledPlan } from './types.js';

export interface CompileOptions {
  /**
   * The tools calls may use. Without them, tool names and arguments are not checked, and
   * everything else still is.
   * @default undefined
   */
  readonly tools?: ToolRegistry | Iterable<Tool>;
  /**
   * `†input` values, merged over the document's input message. When neither gives any input,
   * input reads are not checked.
   * @default undefined
   */
  readonly input?: JsonObject;
  /**
   * JSON Schema of `†input`, for a plan compiled before its input is known (a workflow's plan,
   * against the workflow's inputSchema): input reads are typed by it.
   * @default undefined
   */
  readonly inputSchema?: JsonSchema;
  /**
   * Initial state, merged over the document's state message.
   * @default {}
   */
  readonly state?: JsonObject;
  /**
   * JSON Schema of the state object, used instead of the document's state message schema:
   * output paths must fit it (E_STATE_SCHEMA), and a read it declares is not unresolved.
   * @default the document's state schema, if any
   */
  readonly stateSchema?: JsonObject;
  /**
   * Makes the plan lazy: the plan's mode is `lazy` when the document or this option says so,
   * else `eager`. An option cannot make a lazy document eager (see lazierMode).
   * @default the document's mode (eager when it names none)
   */
  readonly mode?: ExecutionMode;
  /**
   * Name of the document in diagnostics when it is given as text or a value.
   * @default '<input>'
   */
  readonly source?: string;
  /**
   * Bounds on the document.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
  /**
   * Check what flows through references against each parameter's schema (E_REF_TYPE,
   * W_REF_TYPE, W_REF_OPTIONAL), and what calls write against the state schema (E_STATE_TYPE,
   * W_STATE_TYPE). Off, a plan whose types cannot fit still compiles, so that a dry run can
   * show the failure as it would happen.
   * @default true
   */
  readonly checkTypes?: boolean;
  /**
   * Every warning counts as an error: it keeps its code, gets severity `error` and `(strict)`
   * after its message, and the plan does not compile (`ok` false). For CI, where a missing `†`
   * (W_MISSING_DAGGER) or an overwritten output (W_MULTIPLE_WRITERS) should fail the build.
   * @default false
   */
  readonly strict?: boolean;
}

/** What every compile result has, whether the plan compiled or not. */
interface CompileOutcome {
  /** Every error and warning, in source order. */
  readonly diagnostics: Diagnostic[];
  /** The parsed document, when the text was JSON of a known shape. */
  readonly document: PlanDocument | null;
}

/** The plan compiled: no error (warnings allowed), and here is the plan. */
export interface CompileSuccess extends CompileOutcome {
  readonly ok: true;
  readonly plan: CompiledPlan;
}

/** The plan has errors (in `diagnostics`): there is no plan. */
export interface CompileFailure extends CompileOutcome {
  readonly ok: false;
  readonly plan?: undefined;
}

/** `ok` tells which: `if (result.ok) result.plan.order` type-checks without a `!`. */
export type CompileResult = CompileSuccess | CompileFailure;

/**
 * Compiles a plan: a document from {@link parsePlan}, JSON text, or a JSON value. Never throws
 * for a bad plan; every problem is a diagnostic.
 *
 * @throws {ToolDefinitionError} when `tools` holds a definition that cannot be used.
 * @throws {TypeError} for a bad option value.
 */
const COMPILE_OPTIONS = optionKeys<CompileOptions>({
  tools: true,
  input: true,
  inputSchema: true,
  state: true,
  stateSchema: true,
  mode: true,
  source: true,
  limits: true,
  checkTypes: true,
  strict: true,
});

export function compile(input: PlanInput, options: CompileOptions = {}): CompileResult {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`compile: options must be an object, not ${describeValue(options)}`);
  }
  rejectUnknownOptions('compile', options, COMPILE_OPTIONS);
  const limits = resolveLimits(options.limits);
  if (options.mode !== undefined && options.mode !== 'eager' && options.mode !== 'lazy') {
    throw new TypeError(`Expected mode to be 'eager' or 'lazy', got ${String(options.mode)}`);
  }
  if (options.strict !== undefined && typeof options.strict !== 'boolean') {
    throw new TypeError(`Expected strict to be true or false, got ${describeValue(options.strict)}`);
  }
  const strict = options.strict === true;
  const tools = options.tools === undefined ? undefined : ToolRegistry.from(options.tools);
  let document: PlanDocument | null;
  let parseDiagnostics: Diagnostic[] = [];
  if (isPlanDocument(input)) document = input;
  else {
    const parsed = parsePlan(input, {
      limits,
      ...(options.source !== undefined && { source: options.source }),
    });
    document = parsed.document;
    parseDiagnostics = parsed.diagnostics;
  }
  if (!document) return { ok: false, diagnostics: strictly(parseDiagnostics, strict), document: null };

  const mode = lazierMode(document.mode, options.mode);
  const pending = new DiagnosticList(limits.maxDiagnostics);
  const givenInput = optionValue('input', document.input, options.input, limits, pending);
  const state = optionValue('state', document.state, options.state, limits, pending) ?? {};
  const stateSchema = optionStateSchema(options.stateSchema, limits, pending) ?? document.stateSchema;
  const stateSchemaPointer = options.stateSchema ? '' : (document.stateSchemaPointer ?? '');
  const builder = new PlanBuilder({
    tools,
    input: givenInput,
    ...(options.inputSchema !== undefined && { inputSchema: options.inputSchema }),
    state,
    stateSchema,
    mode,
    limits,
    callsPointer: document.callsPointer,
    diagnostics: pending,
    checkTypes: options.checkTypes !== false,
  });
  if (stateSchema) checkStateSchemaPatterns(stateSchema, stateSchemaPointer, builder.pending);
  if (tools && document.tools) checkToolMessages(document.tools, tools, builder.pending);
  if (document.schema !== undefined) {
    checkOutputSchema(document.schema, document.schemaPointer ?? '/schema', builder.pending);
  }
  // An indexed loop: this function runs once per compile, often before the engine optimises
  // it, and a for-of there made an iterator result per call.
  const rawCalls = document.calls;
  for (let k = 0; k < rawCalls.length; k++) builder.add(rawCalls[k]);
  const ordering = builder.finish();
  const specs = builder.calls;

  // Each list is in source order; together they must be too (CompileResult promises it).
  const diagnostics = strictly(
    capDiagnostics(
      [...parseDiagnostics, ...positionDiagnostics(pending.items, document.source)].sort(compareDiagnostics),
      limits.maxDiagnostics,
      pending.omitted,
    ),
    strict,
  );
  if (hasErrors(diagnostics)) return { ok: false, diagnostics, document };
  // Without errors every call has its tool, so the specs are the compiled calls as they are.
  const calls = specs as readonly CompiledCall[];
  // One target per dependency: no walk over every call's list to count them.
  const edgeCount = ordering.targets.length;
  const plan = new Plan({
    mode,
    calls,
    order: ordering.order,
    levels: ordering.levels,
    criticalPath: ordering.criticalPath,
    edgeCount,
    ...(givenInput && { input: givenInput }),
    state,
    ...(stateSchema && { stateSchema }),
    ...(document.outputSchema !== undefined && { outputSchema: document.outputSchema }),
    ...(tools && { tools }),
    diagnostics,
  });
  keepEdgeLists(plan, {
    successors: { offsets: ordering.offsets, targets: ordering.targets },
    dependencies: ordering.dependencies,
  });
  const { gates, optedOut } = builder;
  if (gates.size > 0 || optedOut.size > 0) keepProgramOrder(plan, { gates, optedOut });
  return { ok: true, plan, diagnostics, document };
}

/** The diagnostics as strict mode reports them (warnings as errors), or as they are. */
function strictly(diagnostics: Diagnostic[], strict: boolean): Diagnostic[] {
  return strict ? diagnostics.map(asStrict) : diagnostics;
}

function isPlanDocument(value: unknown): value is PlanDocument {
  return (
    value !== null &&
    typeof value === 'object' &&
    (value as PlanDocument).source instanceof SourceText &&
    'shape' in value
  );
}

/**
 * The document's input (or state) with the option's laid over it, copied only when both give
 * some (a state of a million keys is not copied to be read). The option's value is checked
 * against the limits here; the document's was checked when it was parsed.
 * @throws {TypeError} when the option holds something JSON cannot (a function, a cycle...).
 */
function optionValue(
  what: 'input' | 'state',
  fromDocument: JsonObject | undefined,
  fromOption: JsonObject | undefined,
  limits: Limits,
  pending: DiagnosticSink,
): JsonObject | undefined {
  if (fromOption === undefined) return fromDocument;
  if (fromOption === null || typeof fromOption !== 'object' || Array.isArray(fromOption)) {
    throw new TypeError(`Expected ${what} to be an object of values, got ${describeValue(fromOption)}`);
  }
  const checked = checkJson(fromOption, { limits });
  if ('problem' in checked) {
    const { problem } = checked;
    const where = problem.pointer === '' ? '' : ` at ${problem.pointer}`;
    if (problem.code === 'NOT_JSON') {
      throw new TypeError(`Expected ${what} to be JSON data, but the ${what}${where} ${problem.message}`);
    }
    pending.push(
      error('E_LIMIT', '', `the ${what} option${where} ${problem.message}`, { hint: problem.hint }),
    );
  }
  return fromDocument === undefined ? fromOption : { ...fromDocument, ...fromOption };
}

/**
 * The stateSchema option, bounded like a document's (it is walked by the compiler and by ajv).
 * Its problems have no place in the document: they are reported at its root.
 * @throws {TypeError} when it is not a JSON Schema object, or holds what JSON cannot.
 */
function optionStateSchema(
  schema: JsonObject | undefined,
  limits: Limits,
  pending: DiagnosticSink,
): JsonObject | undefined {
  if (schema === undefined) return undefined;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new TypeError(`Expected stateSchema to be a JSON Schema object, got ${describeValue(schema)}`);
  }
  const checked = checkJson(schema, { limits });
  if (!('problem' in checked)) return schema;
  const { problem } = checked;
  const where = problem.pointer === '' ? '' : ` at ${problem.pointer}`;
  if (problem.code === 'NOT_JSON') {
    throw new TypeError(`Expected stateSchema to be JSON data, but the schema${where} ${problem.message}`);
  }
  pending.push(
    error('E_LIMIT', '', `the stateSchema option${where} ${problem.message}`, { hint: problem.hint }),
  );
  return undefined;
}
