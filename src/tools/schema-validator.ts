/** JSON Schema validation with ajv: draft-07 by default, 2020-12 when a schema says so. */
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { PlanError } from '../errors.js';
import {
  compileLinearRegExp,
  linearRegExpEngine,
  quotePattern,
  unsupportedReason,
} from './patterns/index.js';
import { SAFE_FORMATS } from './safe-formats.js';
import { findSchemaPatterns } from './schema-patterns.js';
import type { JsonSchema } from './tool.js';
import { UNIQUE_ITEMS_KEYWORD } from './unique-items.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

export type SchemaErrors = ErrorObject[];
export type SchemaValidate = ValidateFunction;

const OPTIONS = {
  // Every violation, not just the first: the model fixes them all in one turn.
  allErrors: true,
  // Tool schemas in the wild carry extra keywords (OpenAPI's `nullable`, `examples`, vendor
  // keys); strict mode would reject the whole tool for them.
  strict: false,
  allowUnionTypes: true,
  validateFormats: true,
  // `pattern`, `patternProperties` (and `additionalProperties` next to them) match with the
  // linear-time engine: a plan's string must not be able to make validation backtrack.
  code: { regExp: linearRegExpEngine },
} as const;

/**
 * The instances that compile a tool set's schemas do not check them against their meta-schema
 * themselves: ajv compiles its meta-schema's validator once per instance, about 30 ms, which a
 * registry of three small tools paid twice (a run given plain definitions, each imported gold
 * plan, each sample `plan eval` scores). The check is the same, done by instances shared by the
 * whole process ({@link metaChecker}), which hold nothing but the meta-schemas: they validate
 * schemas, never compile them, so they keep no tool's schema.
 */
const COMPILE_OPTIONS = { ...OPTIONS, validateSchema: false } as const;

const DRAFT_2020 = /json-schema\.org\/draft\/2020-12\/schema/;

const DRAFT_07_ID = 'http://json-schema.org/draft-07/schema';

/**
 * ajv's draft-07 meta-schema without `uniqueItems` on `enum`: ajv checks that on items of any
 * type by comparing every pair, so a tool schema's enum of 50k values cost a minute before the
 * schema was even compiled. Duplicates in an enum are harmless (2020-12 allows them).
 */
function draft07MetaSchema(): Record<string, unknown> {
  const meta = createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-07.json') as {
    properties: { enum: Record<string, unknown> };
  };
  const { uniqueItems: _pairwise, ...enumWithoutUniqueness } = meta.properties.enum;
  return { ...meta, properties: { ...meta.properties, enum: enumWithoutUniqueness } };
}

/** One pattern in a schema that the linear-time engine cannot take. */
export interface UnsupportedSchemaPattern {
  /** RFC 6901 pointer to the pattern inside the schema. */
  readonly pointer: string;
  readonly pattern: string;
  /** Why, and how to fix it. */
  readonly reason: string;
}

/** A schema with patterns the linear-time engine cannot take; `patterns` lists each. */
export class SchemaPatternError extends PlanError {
  override name = 'SchemaPatternError';
  constructor(readonly patterns: readonly UnsupportedSchemaPattern[]) {
    super(patterns.map(describeUnsupportedPattern).join('; '));
  }
}

/**
 * Sum of the lengths and compiled sizes of the distinct patterns one tool set's schemas may
 * have (every tool's input and output schema together, MCP tools' too). Each pattern is
 * bounded on its own (length, size); this bounds them together, as a state schema's are, so
 * 300 heavy patterns from one server cost a few seconds, not a minute and gigabytes.
 */
export const MAX_TOOL_SET_PATTERN_BUDGET = 100_000;

/** A schema whose pattern at `pointer` would take its tool set past {@link MAX_TOOL_SET_PATTERN_BUDGET}. */
export class PatternBudgetError extends PlanError {
  override name = 'PatternBudgetError';
  constructor(readonly pointer: string) {
    super(
      `pattern at ${pointer}: the tool set's schema patterns together are past ${MAX_TOOL_SET_PATTERN_BUDGET} characters and compiled steps; use fewer or smaller patterns (or split the tools into several sets)`,
    );
  }
}

/** `pattern at /properties/id/pattern: the pattern "^(?=x)" uses a lookahead ...`. */
export function describeUnsupportedPattern(found: UnsupportedSchemaPattern): string {
  return `pattern at ${found.pointer}: the pattern ${quotePattern(found.pattern)} ${found.reason}`;
}

/** A pair of ajv instances; schemas are compiled once and the validators reused. */
export class SchemaCompiler {
  readonly #draft07 = draft07Instance(COMPILE_OPTIONS);
  // Made at the first schema that asks for 2020-12: most tool sets have none.
  #draft2020: Ajv | undefined;
  /** The distinct patterns of the schemas compiled so far (one tool set's), and what they cost. */
  readonly #patterns = new Set<string>();
  #patternSpend = 0;

  /**
   * Compiles a schema.
   * @throws {SchemaPatternError} when a pattern in it is one the linear-time engine cannot take.
   * @throws {PatternBudgetError} when its patterns take this compiler's schemas together past
   *   {@link MAX_TOOL_SET_PATTERN_BUDGET}.
   * @throws ajv's error (with its message) when the schema is otherwise not valid.
   */
  compile(schema: JsonSchema): SchemaValidate {
    const unsupported: UnsupportedSchemaPattern[] = [];
    for (const { pointer, pattern } of findSchemaPatterns(schema)) {
      if (this.#patterns.has(pattern)) continue;
      // Checked before each pattern is compiled: past the budget, nothing more is.
      if (this.#patternSpend > MAX_TOOL_SET_PATTERN_BUDGET) throw new PatternBudgetError(pointer);
      this.#patterns.add(pattern);
      const reason = unsupportedReason(pattern);
      if (reason !== undefined) unsupported.push({ pointer, pattern, reason });
      this.#patternSpend += pattern.length + (reason === undefined ? compileLinearRegExp(pattern).size : 0);
    }
    if (unsupported.length > 0) throw new SchemaPatternError(unsupported);
    const is2020 =
      typeof schema === 'object' && typeof schema.$schema === 'string' && DRAFT_2020.test(schema.$schema);
    // Throws ajv's own "schema is invalid: ..." error, as the compiling instance would have.
    metaChecker(is2020).validateSchema(schema, true);
    const ajv = is2020 ? (this.#draft2020 ??= draft2020Instance(COMPILE_OPTIONS)) : this.#draft07;
    return ajv.compile(schema);
  }
}

/** One thing wrong with a schema: where in it (an RFC 6901 pointer) and what. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly message: string;
}

/**
 * What keeps `schema` from being compiled, each problem at its place in the schema (the first
 * ajv names at each place), or an empty list when it compiles: the meta-schema's verdict, then
 * what only compiling finds (a `$ref` that resolves nowhere, `nullable` without `type`, a pattern
 * the linear-time engine cannot take).
 */
export function schemaProblems(schema: JsonSchema): SchemaProblem[] {
  const is2020 =
    typeof schema === 'object' && typeof schema.$schema === 'string' && DRAFT_2020.test(schema.$schema);
  const checker = metaChecker(is2020);
  if (!checker.validateSchema(schema)) {
    const seen = new Map<string, string>();
    for (const e of checker.errors ?? []) {
      if (seen.has(e.instancePath)) continue;
      const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
      const detail = allowed ? ` (${allowed.map((v) => JSON.stringify(v)).join(', ')})` : '';
      seen.set(e.instancePath, `${e.message ?? 'is not valid'}${detail}`);
    }
    return [...seen].map(([pointer, message]) => ({ pointer, message }));
  }
  try {
    new SchemaCompiler().compile(schema);
    return [];
  } catch (cause) {
    if (cause instanceof SchemaPatternError) {
      return cause.patterns.map((p) => ({ pointer: p.pointer, message: describeUnsupportedPattern(p) }));
    }
    if (cause instanceof PatternBudgetError) return [{ pointer: cause.pointer, message: cause.message }];
    return [{ pointer: '', message: cause instanceof Error ? cause.message : String(cause) }];
  }
}

const checkers: { draft07?: Ajv; draft2020?: Ajv } = {};

/** The process's instance that checks schemas of one draft against its meta-schema. */
function metaChecker(is2020: boolean): Ajv {
  return is2020
    ? (checkers.draft2020 ??= draft2020Instance(OPTIONS))
    : (checkers.draft07 ??= draft07Instance(OPTIONS));
}

function draft07Instance(options: typeof OPTIONS | typeof COMPILE_OPTIONS): Ajv {
  return withFormats(draft07(withLinearUniqueItems(new Ajv({ ...options, meta: false }))));
}

function draft2020Instance(options: typeof OPTIONS | typeof COMPILE_OPTIONS): Ajv {
  return withFormats(withLinearUniqueItems(new Ajv2020(options) as unknown as Ajv));
}

/** `ajv` (made with `meta: false`) with the draft-07 meta-schema it would have added, but see {@link draft07MetaSchema}. */
function draft07(ajv: Ajv): Ajv {
  ajv.addMetaSchema(draft07MetaSchema(), DRAFT_07_ID, false);
  ajv.refs['http://json-schema.org/schema'] = DRAFT_07_ID;
  return ajv;
}

/** `ajv` with `uniqueItems` checked in linear time: ajv's own compares every pair of objects. */
function withLinearUniqueItems(ajv: Ajv): Ajv {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(UNIQUE_ITEMS_KEYWORD);
  return ajv;
}

function withFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  for (const [name, format] of Object.entries(SAFE_FORMATS)) ajv.addFormat(name, format);
  return ajv;
}
