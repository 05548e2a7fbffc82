/**
 * Values written at run time held to the state schema: a value that breaks the schema at the
 * path it is written to fails its call (INVALID_OUTPUT, a contract error of the engine's making),
 * and the state is left as it was. The compile judges what it can tell from schemas (E_STATE_TYPE);
 * this is the check of the value itself, and of what no compile can tell (a branch a tool chose,
 * a keyword like `minLength`).
 *
 * Each place written gets its validator once per plan: the state schema's part there (what
 * stateSchemaAt finds, with the root's definitions for its local `$ref`s), compiled with ajv once
 * per distinct part. A plan without a state schema never comes here (writeOutput asks first).
 */
import { stateSchemaAt } from '../../compile/state-schema.js';
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import type { JsonObject } from '../../language/document.js';
import { SchemaCompiler, type SchemaValidate } from '../../tools/schema-validator.js';
import type { JsonSchema } from '../../tools/tool.js';
import type { ToolErrorCode, ToolExecutionError } from '../../errors.js';
import { describeStateErrors } from '../schema-errors.js';

/** What the state schema check needs of the run (the Runner is one). */
export interface StateCheckHost {
  readonly calls: readonly CompiledCall[];
  readonly plan: CompiledPlan;
  failure(i: number, message: string, code: ToolErrorCode): ToolExecutionError;
}

/** In a call's list: the place has nothing to check (any value, or a part ajv cannot compile). */
const ANY = null;

interface PlanChecks {
  readonly root: JsonObject;
  readonly compiler: SchemaCompiler;
  /** Per distinct part of the schema, its validator. */
  readonly byPart: Map<JsonSchema, SchemaValidate | typeof ANY>;
  /** Per call, per alternative of its output path, the validator of the place it writes. */
  readonly byCall: ((SchemaValidate | typeof ANY | undefined)[] | undefined)[];
}

const checksByPlan = new WeakMap<CompiledPlan, PlanChecks>();

/**
 * Checks `value` against the state schema at each alternative of call i it is about to be
 * written to, before any is written.
 * @throws {ToolExecutionError} INVALID_OUTPUT naming the path and what the schema refused.
 */
export function checkStateWrites(
  run: StateCheckHost,
  i: number,
  alternatives: readonly number[],
  value: unknown,
): void {
  const checks = checksOf(run.plan);
  const call = run.calls[i]!;
  const byAlternative = (checks.byCall[i] ??= []);
  for (let n = 0; n < alternatives.length; n++) {
    const k = alternatives[n]!;
    let validate = byAlternative[k];
    if (validate === undefined) {
      validate = validatorAt(checks, call.outputPath!.paths[k]!.segments);
      byAlternative[k] = validate;
    }
    if (validate === ANY || validate(value)) continue;
    throw run.failure(
      i,
      describeStateErrors(call.outputPath!.refs[k]!.text, validate.errors),
      'INVALID_OUTPUT',
    );
  }
}

function checksOf(plan: CompiledPlan): PlanChecks {
  let checks = checksByPlan.get(plan);
  if (!checks) {
    checks = { root: plan.stateSchema!, compiler: new SchemaCompiler(), byPart: new Map(), byCall: [] };
    checksByPlan.set(plan, checks);
  }
  return checks;
}

function validatorAt(
  checks: PlanChecks,
  segments: Parameters<typeof stateSchemaAt>[1],
): SchemaValidate | typeof ANY {
  const part = stateSchemaAt(checks.root, segments);
  // No place for the path is E_STATE_SCHEMA at compile time; `true` allows anything.
  if (part === undefined || part === true) return ANY;
  const known = checks.byPart.get(part);
  if (known !== undefined) return known;
  let validate: SchemaValidate | typeof ANY;
  try {
    validate = checks.compiler.compile(withDefinitions(part, checks.root));
  } catch {
    // A part ajv cannot compile (a `$ref` outside the schema, a pattern the linear-time engine
    // cannot take): its values are not checked, as the compile's judgement gives up on what it
    // cannot read.
    validate = ANY;
  }
  checks.byPart.set(part, validate);
  return validate;
}

/**
 * The part as a schema of its own: its local `$ref`s (`#/$defs/...`) point into the root, so
 * the root's definitions and dialect go with it.
 */
function withDefinitions(part: JsonSchema, root: JsonObject): JsonSchema {
  if (typeof part !== 'object' || part === root) return part;
  const out: JsonObject = { ...(part as JsonObject) };
  for (const key of ['$schema', '$defs', 'definitions'] as const) {
    if (root[key] !== undefined && out[key] === undefined) out[key] = root[key];
  }
  return out;
}
