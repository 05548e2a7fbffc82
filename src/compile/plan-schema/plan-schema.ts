/**
 * The JSON Schema of a plan over exactly a given set of tools, for constrained decoding: a
 * model whose output follows it can only name those tools, with their own arguments, and write
 * references and output paths that parse. Each call is one branch of an `anyOf` told apart by
 * `_tool: {const: name}`; every top-level argument also admits a reference expression.
 *
 * Three formats. `json-schema` embeds each tool's argument schemas as they are. `openai-strict`
 * rewrites them into the subset OpenAI's structured outputs accept in strict mode: every object
 * closed (`additionalProperties: false`) with every property required (an optional one becomes
 * `<schema> | null`), `anyOf` only (a `oneOf` becomes `anyOf`; `allOf`, `not`, `if`, `$ref` are
 * dropped, so the schema may admit more than the tool does: the compiler still checks every
 * argument), an object root, at most 10 levels of nesting and 5000 properties. A schema that
 * says nothing about its type becomes "any JSON scalar" (strict mode has no "anything"), and
 * what sits deeper than the nesting limit becomes that too. `grammar` rewrites them into the
 * subset grammar-based decoders all enforce (see grammar-rewrite.ts).
 *
 * A reference may stand for any argument value, top-level or nested (`{"filter": {"city":
 * "†state.city"}}`): every property and array element of an argument schema also admits one.
 * The reference, output-path and id patterns are written once, under the root's `$defs`, and
 * pointed at with `$ref` (a tool with its own `$defs` gets its own copy: inside its call,
 * `#/$defs/...` resolves against the tool's definitions).
 *
 * `_forEach` (a reference to an array) is offered on every call to a tool that is not latent,
 * and an argument's reference may also be `†item`, `†item.<path>` or `†index`; the
 * `json-schema` format admits those only in a call that has `_forEach` (as the compiler does,
 * E_FOR_EACH_REF), `openai-strict` anywhere (it has no `if`: the compiler still checks).
 *
 * The tools' schemas come from tools files and MCP servers, so the rewrite walks them with an
 * explicit stack and a node budget: a schema deep or large enough to matter cannot overflow the
 * stack or run unbounded.
 */
import { setOwnProperty } from '../../language/json/index.js';
import { ToolRegistry } from '../../tools/registry.js';
import {
  DEFINITIONS,
  INDEPENDENT,
  INLINE,
  NO_ELEMENT_ID,
  SHARED,
  STRICT_DEFINITIONS,
} from './plan-schema-patterns.js';
import type { JsonSchema, Tool } from '../../tools/tool.js';
import { declaredProperties, inputOf, toolConst } from './tool-parts.js';
import { grammarPlanSchema } from './grammar-rewrite.js';
import {
  type Budget,
  branches,
  MAX_NODES,
  NULL,
  nullable,
  requiredOf,
  STRICT_LIMITS,
  toStrict,
} from './strict-rewrite.js';
import { checkOptions, type OptionSpec } from '../../language/option-keys.js';

export { ID_PATTERN, OUTPUT_PATH_PATTERN, REFERENCE_PATTERN } from './plan-schema-patterns.js';
export { STRICT_LIMITS } from './strict-rewrite.js';

export const PLAN_SCHEMA_MODES = ['eager', 'lazy'] as const;
export const PLAN_SCHEMA_FORMATS = ['json-schema', 'openai-strict', 'grammar'] as const;
export const PLAN_SCHEMA_SHAPES = ['calls', 'solution'] as const;

export interface PlanSchemaOptions {
  /**
   * eager: a latent tool's call carries `_output` (its result, written by the model: required,
   * as compile requires it, E_NO_OUTPUT); lazy: no call may.
   * @default 'eager'
   */
  readonly mode?: (typeof PLAN_SCHEMA_MODES)[number];
  /**
   * `json-schema`: the tools' schemas as they are. `openai-strict`: rewritten for OpenAI's
   * strict structured outputs (and usable as an Anthropic tool input schema: its root is an
   * object). In strict mode an optional key the model leaves out comes back as `null`.
   * `grammar`: rewritten into the subset grammar-based decoders (llama.cpp, node-llama-cpp,
   * vLLM's xgrammar, Outlines) all enforce: `oneOf` only, every object closed and every
   * property listed (an optional key the model leaves out comes back as `null`), patterns in
   * their shared regex subset.
   * @default 'json-schema'
   */
  readonly format?: (typeof PLAN_SCHEMA_FORMATS)[number];
  /**
   * `calls`: the bare call array (with `openai-strict`, whose root must be an object, the
   * object `{calls: [...]}`). `solution`: `{calls, output}`, the plan loop's answer.
   * @default 'calls'
   */
  readonly shape?: (typeof PLAN_SCHEMA_SHAPES)[number];
  /**
   * Schema of a solution's final `output` (shape `solution` only); `null` is always allowed.
   * @default {} (any JSON value)
   */
  readonly outputSchema?: JsonSchema;
}

const META_KEYS = [
  '_tool',
  '_id',
  '_outputPath',
  '_output',
  '_onError',
  '_after',
  '_independent',
  '_forEach',
];

/**
 * A call without `_forEach` has no `†item` or `†index` in its arguments (E_FOR_EACH_REF): every
 * argument (a key not starting with `_`) is checked against the no-element schema, reached by
 * its `$id` so that a call which is a resource of its own reaches it too.
 */
const ELEMENTS_ONLY_IN_FOR_EACH = {
  if: { required: ['_forEach'] },
  else: { patternProperties: { '^(?!_)': { $ref: NO_ELEMENT_ID } } },
};

/**
 * The JSON Schema of a plan over exactly these tools.
 * @throws {TypeError} for an option value that is not one of its choices.
 * @throws {RangeError} (`openai-strict`) when the tools need more properties or enum values than
 *   strict mode allows, or their schemas are too large to rewrite.
 */
/** mode, format and shape have their own checks (one of their choices). */
const PLAN_SCHEMA_OPTIONS: OptionSpec<PlanSchemaOptions> = {
  mode: 'any',
  format: 'any',
  shape: 'any',
  outputSchema: 'any',
};

export function planSchema(
  tools: ToolRegistry | Iterable<Tool>,
  options: PlanSchemaOptions = {},
): Record<string, unknown> {
  checkOptions('planSchema', options, PLAN_SCHEMA_OPTIONS);
  const mode = choice('mode', options.mode, PLAN_SCHEMA_MODES, 'eager');
  const format = choice('format', options.format, PLAN_SCHEMA_FORMATS, 'json-schema');
  const shape = choice('shape', options.shape, PLAN_SCHEMA_SHAPES, 'calls');
  const strict = format === 'openai-strict';
  const registry = ToolRegistry.from(tools);
  if (format === 'grammar') return grammarPlanSchema(registry.tools(), mode, shape, options.outputSchema);
  const budget: Budget = { nodes: 0, properties: 0, enumValues: 0 };
  // Nesting level of a call object: root object (1), calls array (2), call (3).
  const callDepth = 3;
  const calls = registry.tools().map((tool) => {
    // The call's own keys and the `_tool` enum count against strict mode's limits.
    budget.enumValues++;
    return strict ? strictCall(tool, mode, callDepth, budget) : plainCall(tool, mode, budget);
  });
  const callArray = {
    type: 'array',
    description: 'Tool calls to run; results flow between them through †state paths',
    ...(calls.length === 0
      ? { maxItems: 0, items: strict ? closedObject({}, []) : {} }
      : { items: calls.length === 1 ? calls[0] : { anyOf: calls } }),
  };
  if (shape === 'calls' && !strict) return { $defs: DEFINITIONS, ...callArray };
  const properties: Record<string, unknown> = { calls: callArray };
  if (shape === 'solution') {
    const output = options.outputSchema ?? {};
    properties.output = {
      description: 'The final answer once the task is done, else null',
      anyOf: strict ? nullable(toStrict(output, 1, budget)).anyOf : [NULL, withoutDialect(output)],
    };
  }
  if (strict) checkLimits(budget, Object.keys(properties).length);
  return {
    $defs: strict ? STRICT_DEFINITIONS : DEFINITIONS,
    ...closedObject(properties, Object.keys(properties)),
  };
}

function choice<T extends string>(name: string, value: unknown, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(choices as readonly unknown[]).includes(value)) {
    throw new TypeError(
      `planSchema: ${name} must be one of ${choices.join(', ')}, not ${JSON.stringify(value)}`,
    );
  }
  return value as T;
}

function checkLimits(budget: Budget, rootProperties: number): void {
  const properties = budget.properties + rootProperties;
  if (properties > STRICT_LIMITS.maxProperties) {
    throw new RangeError(
      `planSchema: these tools need ${properties} properties; OpenAI strict mode allows ${STRICT_LIMITS.maxProperties}: offer fewer tools or use format 'json-schema'`,
    );
  }
  if (budget.enumValues > STRICT_LIMITS.maxEnumValues) {
    throw new RangeError(
      `planSchema: these tools need ${budget.enumValues} enum values; OpenAI strict mode allows ${STRICT_LIMITS.maxEnumValues}: offer fewer tools or use format 'json-schema'`,
    );
  }
}

function closedObject(properties: Record<string, unknown>, required: string[]): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false };
}

function plainCall(tool: Tool, mode: string, budget: Budget): Record<string, unknown> {
  const input = inputOf(tool);
  const patterns = hasDefinitions(input) ? INLINE : SHARED;
  const properties: Record<string, unknown> = {
    _tool: toolConst(tool),
    _id: patterns.id,
    _outputPath: patterns.outputPath,
    _onError: patterns.onError,
    // Program order (`_after`, `_independent`): offered here, not in the strict format, where
    // every key is required and would cost two properties per tool of strict mode's budget.
    _after: patterns.after,
    _independent: INDEPENDENT,
  };
  // A latent tool cannot loop (E_FOR_EACH): its result is the model's, once per call.
  if (!tool.latent) properties._forEach = patterns.forEach;
  if (tool.latent && mode === 'eager') {
    const output = typeof tool.outputSchema === 'object' ? withoutDialect(tool.outputSchema) : {};
    properties._output = {
      allOf: [output],
      description: "The result, written by you (this tool's result comes from the model)",
    };
  }
  for (const [name, schema] of declaredProperties(input)) {
    const value = withReferences(withoutDialect(schema as JsonSchema), patterns.reference, budget);
    setOwnProperty(properties, name, { anyOf: [value, patterns.reference] });
  }
  const required = [...requiredOf(input)].filter((name) => !name.startsWith('_'));
  if (tool.latent && mode === 'eager') required.unshift('_output');
  return {
    // The arguments' local `#/$defs/...` references keep pointing at the tool's definitions.
    ...(hasDefinitions(input) && {
      $id: resourceId('input', tool.name),
      ...('$defs' in input && { $defs: input.$defs }),
      ...('definitions' in input && { definitions: input.definitions }),
    }),
    type: 'object',
    properties,
    required: ['_tool', ...required],
    // Other keys are what the tool's schema says; other `_` keys are never meta.
    additionalProperties: input.additionalProperties ?? true,
    propertyNames: {
      anyOf: [{ not: { pattern: '^_' } }, { enum: META_KEYS.filter((key) => key in properties) }],
    },
    ...ELEMENTS_ONLY_IN_FOR_EACH,
  };
}

function strictCall(tool: Tool, mode: string, depth: number, budget: Budget): Record<string, unknown> {
  const input = inputOf(tool);
  const required = requiredOf(input);
  const properties: Record<string, unknown> = {
    _tool: toolConst(tool),
    _id: nullable(SHARED.id),
    _outputPath: nullable(SHARED.outputPath),
    _onError: nullable(SHARED.onError),
  };
  // Offered on every tool that can loop: one property per tool of strict mode's budget, for the
  // one way a plan runs a call per element. Where `†item` may stand is the compiler's check here
  // (strict mode has no `if`).
  if (!tool.latent) properties._forEach = nullable(SHARED.forEach);
  if (tool.latent && mode === 'eager') {
    // Not nullable: an eager latent call without its result does not compile (E_NO_OUTPUT).
    const output = toStrict(tool.outputSchema ?? {}, depth, budget);
    properties._output = {
      ...output,
      description: "The result, written by you (this tool's result comes from the model)",
    };
  }
  for (const [name, schema] of declaredProperties(input)) {
    const value = toStrict(schema, depth, budget);
    const alternatives = [...branches(value), SHARED.reference, ...(required.has(name) ? [] : [NULL])];
    setOwnProperty(properties, name, { anyOf: alternatives });
  }
  budget.properties += Object.keys(properties).length;
  return closedObject(properties, Object.keys(properties));
}

/**
 * A copy of a tool's argument schema in which every property and array element also admits a
 * reference (`{anyOf: [<its schema>, reference]}`). Only `properties`, `items`, `prefixItems`
 * and `additionalProperties` hold values of their own; the rest (`anyOf`, `$ref`, ...) are
 * kept as they are. Iterative, and counted against the node budget.
 */
function withReferences(schema: JsonSchema, reference: Record<string, unknown>, budget: Budget): JsonSchema {
  if (typeof schema !== 'object' || schema === null) return schema;
  const root: Record<string, unknown> = { ...schema };
  const stack: Record<string, unknown>[] = [root];
  const admit = (child: unknown): unknown => {
    if (typeof child !== 'object' || child === null || Array.isArray(child)) return child;
    const copy: Record<string, unknown> = { ...(child as Record<string, unknown>) };
    stack.push(copy);
    return { anyOf: [copy, reference] };
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (++budget.nodes > MAX_NODES) {
      throw new RangeError(
        `planSchema: the tools' schemas have more than ${MAX_NODES} nodes; offer fewer tools`,
      );
    }
    const properties = node.properties;
    if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
      const copy: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(properties)) setOwnProperty(copy, name, admit(child));
      node.properties = copy;
    }
    if (typeof node.items === 'object' && node.items !== null && !Array.isArray(node.items))
      node.items = admit(node.items);
    if (Array.isArray(node.prefixItems)) node.prefixItems = node.prefixItems.map(admit);
    if (typeof node.additionalProperties === 'object' && node.additionalProperties !== null)
      node.additionalProperties = admit(node.additionalProperties);
  }
  return root;
}

function hasDefinitions(schema: Record<string, unknown>): boolean {
  return '$defs' in schema || 'definitions' in schema;
}

function resourceId(kind: string, tool: string): string {
  // An ordinary URL (never fetched): ajv resolves `#/...` against it, which it cannot do for a URN.
  return `https://planmode.invalid/tools/${encodeURIComponent(tool)}/${kind}.json`;
}

/** A sub-schema without its own `$schema`: inside another schema only the root may name one. */
function withoutDialect(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object' || !('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
