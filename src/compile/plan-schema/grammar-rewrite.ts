/**
 * The `grammar` format of a plan schema (see plan-schema.ts): the subset of JSON Schema that the
 * grammar-based decoders all turn into grammar, keyword for keyword: llama.cpp (llama-server's
 * `json_schema` / `response_format`), node-llama-cpp (`createGrammarForJsonSchema`), vLLM's
 * xgrammar backend and Outlines. What each converter supports is in grammar-regex.ts (patterns)
 * and test/compile/grammar-engine-rules.ts (keywords), with the sources.
 *
 * The rewrite, and why:
 * - `oneOf` for every choice, never `anyOf`: node-llama-cpp has no `anyOf` (a schema with only
 *   `anyOf` becomes `null` in its grammar); the other three read `oneOf` as "any one of"
 *   (llama.cpp and Outlines as an alternation; xgrammar too, with a warning, when it cannot
 *   prove the branches disjoint, as a string argument and a reference are not).
 * - Every object lists every property and is closed: node-llama-cpp writes every property it
 *   lists, so an optional one becomes `<schema> | null` (as in `openai-strict`), and Outlines
 *   ignores `additionalProperties` beside `properties`. An object that declares no properties
 *   says `additionalProperties` explicitly (node-llama-cpp's default is false, JSON Schema's true).
 * - A string keeps one of: a pattern in the shared regex subset, a format all four know (`date`,
 *   `time`, `date-time`), or `minLength`/`maxLength`: xgrammar drops lengths beside a pattern
 *   and Outlines drops the pattern beside lengths.
 * - Dropped, because some converter would not enforce them: other patterns and formats,
 *   `minimum`/`maximum` (node-llama-cpp and Outlines have none, llama.cpp only on integers),
 *   `uniqueItems`, `prefixItems`, `allOf`, `not`, `if`, a tool's own `$ref`. The compiler still
 *   checks every argument against the tool's whole schema after decoding.
 * - "Any value" is written out as a choice of the six JSON types (node-llama-cpp reads `{}` as
 *   null, Outlines refuses a schema without a type).
 *
 * Iterative, with an explicit stack and the shared node budget, like the strict rewrite.
 */
import { setOwnProperty } from '../../language/json/index.js';
import type { Tool } from '../../tools/tool.js';
import { portablePatternViolations } from './grammar-regex.js';
import { FOR_EACH, ON_ERROR, OUTPUT_PATH, REFERENCE } from './plan-schema-patterns.js';
import { referencePatterns } from './reference-regex.js';
import { type Budget, MAX_NODES, requiredOf } from './strict-rewrite.js';
import { declaredProperties, inputOf, toolConst } from './tool-parts.js';

const PATTERNS = referencePatterns('grammar');

/** Formats that node-llama-cpp, llama.cpp, xgrammar and Outlines all turn into grammar. */
export const GRAMMAR_FORMATS: ReadonlySet<string> = new Set(['date', 'time', 'date-time']);

/** Levels of nesting a tool's schema keeps; deeper values are "any value" (the compiler checks). */
const MAX_DEPTH = 64;

/** The shared patterns, under the root's `$defs`, in the grammar regex subset. */
export const GRAMMAR_DEFINITIONS = {
  reference: { ...REFERENCE, pattern: PATTERNS.argumentReference },
  outputPath: { ...OUTPUT_PATH, pattern: PATTERNS.outputPath },
  onError: { ...ON_ERROR, pattern: PATTERNS.onError },
  forEach: { ...FOR_EACH, pattern: PATTERNS.reference },
};
const REF = {
  reference: { $ref: '#/$defs/reference' },
  outputPath: { $ref: '#/$defs/outputPath' },
  onError: { $ref: '#/$defs/onError' },
  forEach: { $ref: '#/$defs/forEach' },
};
/** `_id`: any non-empty string (a length, not a pattern: `[\s\S]` is outside the subset). */
const ID = { type: 'string', minLength: 1, description: 'Optional stable id of the call' };

export const GRAMMAR_NULL = { type: 'null' };

/** Any JSON value, written out. */
export function anyValue(description?: string): Record<string, unknown> {
  return {
    oneOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      GRAMMAR_NULL,
      { type: 'object', additionalProperties: true },
      { type: 'array' },
    ],
    ...(description !== undefined && { description }),
  };
}

/** A schema's alternatives, so that wrapping it in another `oneOf` adds no level. */
function branches(schema: Record<string, unknown>): unknown[] {
  const keys = Object.keys(schema).filter((key) => key !== 'description');
  return keys.length === 1 && Array.isArray(schema.oneOf) ? schema.oneOf : [schema];
}

function withDescription(schema: Record<string, unknown>, oneOf: unknown[]): Record<string, unknown> {
  return { oneOf, ...(typeof schema.description === 'string' && { description: schema.description }) };
}

/** `schema`, or null (a key the model leaves out). */
export function grammarNullable(schema: Record<string, unknown>): Record<string, unknown> {
  const alternatives = branches(schema);
  const hasNull = alternatives.some((b) => (b as Record<string, unknown>).type === 'null');
  return withDescription(schema, hasNull ? alternatives : [...alternatives, GRAMMAR_NULL]);
}

/** `schema`, or a reference in its place. */
function orReference(schema: Record<string, unknown>): Record<string, unknown> {
  return withDescription(schema, [...branches(schema), REF.reference]);
}

/** One call of `tool`: `_tool`, the meta keys (nullable), then its arguments. */
export function grammarCall(tool: Tool, mode: string, budget: Budget): Record<string, unknown> {
  const input = inputOf(tool);
  const required = requiredOf(input);
  const properties: Record<string, unknown> = {
    _tool: toolConst(tool),
    _id: grammarNullable(ID),
    _outputPath: grammarNullable(REF.outputPath),
    _onError: grammarNullable(REF.onError),
  };
  if (!tool.latent) properties._forEach = grammarNullable(REF.forEach);
  if (tool.latent && mode === 'eager') {
    // Not nullable: an eager latent call without its result does not compile (E_NO_OUTPUT).
    const output = toGrammar(tool.outputSchema ?? {}, budget);
    properties._output = {
      ...output,
      description: "The result, written by you (this tool's result comes from the model)",
    };
  }
  for (const [name, schema] of declaredProperties(input)) {
    const admitted = orReference(toGrammar(schema, budget));
    setOwnProperty(properties, name, required.has(name) ? admitted : grammarNullable(admitted));
  }
  return closedObject(properties);
}

export function closedObject(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

interface Task {
  readonly schema: unknown;
  readonly depth: number;
  readonly put: (schema: Record<string, unknown>) => void;
}

/** `schema` rewritten into the grammar subset. Iterative: each task fills one node. */
export function toGrammar(schema: unknown, budget: Budget): Record<string, unknown> {
  let result: Record<string, unknown> = anyValue();
  const stack: Task[] = [{ schema, depth: 0, put: (s) => (result = s) }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if (++budget.nodes > MAX_NODES) {
      throw new RangeError(
        `planSchema: the tools' schemas have more than ${MAX_NODES} nodes; offer fewer tools or use format 'json-schema'`,
      );
    }
    task.put(grammarNode(task, stack));
  }
  return result;
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

function grammarNode(task: Task, stack: Task[]): Record<string, unknown> {
  const source = task.schema;
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return anyValue();
  const s = source as Record<string, unknown>;
  const description = typeof s.description === 'string' ? s.description : undefined;
  const out: Record<string, unknown> = description === undefined ? {} : { description };
  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every(isScalar)) {
    return { ...out, enum: [...s.enum] };
  }
  if ('const' in s && isScalar(s.const)) return { ...out, const: s.const };
  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter(
    (t): t is string => typeof t === 'string' && JSON_TYPES.has(t),
  );
  const split = alternatives && alternatives.length > 0 ? alternatives : types.length > 1 ? types : undefined;
  if (split !== undefined) {
    // A choice: each alternative (or each of several types) is a branch of its own.
    const filled: unknown[] = new Array(split.length);
    split.forEach((alternative, i) => {
      const schema: unknown = alternatives ? alternative : { ...s, type: alternative };
      stack.push({ schema, depth: task.depth, put: (child) => (filled[i] = child) });
    });
    return { ...out, oneOf: filled };
  }
  if (types.length === 0 || task.depth >= MAX_DEPTH) return anyValue(description);
  const type = types[0]!;
  out.type = type;
  if (type === 'object') objectNode(s, out, task, stack);
  if (type === 'array') {
    if (typeof s.items === 'object' && s.items !== null && !Array.isArray(s.items)) {
      stack.push({ schema: s.items, depth: task.depth + 1, put: (v) => (out.items = orReference(v)) });
    }
    for (const key of ['minItems', 'maxItems']) if (isCount(s[key])) out[key] = s[key];
  }
  if (type === 'string') stringNode(s, out);
  return out;
}

function objectNode(
  s: Record<string, unknown>,
  out: Record<string, unknown>,
  task: Task,
  stack: Task[],
): void {
  const declared = s.properties;
  const names =
    typeof declared === 'object' && declared !== null && !Array.isArray(declared)
      ? Object.keys(declared)
      : [];
  if (names.length === 0) {
    const additional = s.additionalProperties;
    // Closed and empty: said with `properties: {}`, since Outlines cannot read a lone `false`.
    if (additional === false) {
      Object.assign(out, closedObject({}));
      return;
    }
    out.additionalProperties = true;
    if (typeof additional === 'object' && additional !== null && !Array.isArray(additional)) {
      stack.push({
        schema: additional,
        depth: task.depth + 1,
        put: (v) => (out.additionalProperties = orReference(v)),
      });
    }
    return;
  }
  const required = requiredOf(s);
  const properties: Record<string, unknown> = {};
  for (const name of names) {
    setOwnProperty(properties, name, null); // keeps the declared order; filled below
    stack.push({
      schema: (declared as Record<string, unknown>)[name],
      depth: task.depth + 1,
      put: (value) => {
        const admitted = orReference(value);
        setOwnProperty(properties, name, required.has(name) ? admitted : grammarNullable(admitted));
      },
    });
  }
  Object.assign(out, { properties, required: names, additionalProperties: false });
}

function stringNode(s: Record<string, unknown>, out: Record<string, unknown>): void {
  if (typeof s.pattern === 'string' && portablePatternViolations(s.pattern).length === 0) {
    out.pattern = s.pattern;
  } else if (typeof s.format === 'string' && GRAMMAR_FORMATS.has(s.format)) {
    out.format = s.format;
  } else {
    for (const key of ['minLength', 'maxLength']) if (isCount(s[key])) out[key] = s[key];
  }
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** The whole `grammar`-format schema: the call array, or `{calls, output}`. */
export function grammarPlanSchema(
  tools: readonly Tool[],
  mode: string,
  shape: 'calls' | 'solution',
  outputSchema: unknown,
): Record<string, unknown> {
  const budget: Budget = { nodes: 0, properties: 0, enumValues: 0 };
  const calls = tools.map((tool) => grammarCall(tool, mode, budget));
  const callArray = {
    type: 'array',
    description: 'Tool calls to run; results flow between them through †state paths',
    ...(calls.length === 0
      ? { maxItems: 0, items: closedObject({}) }
      : { items: calls.length === 1 ? calls[0] : { oneOf: calls } }),
  };
  // The root keeps `$defs` in both shapes: every converter resolves `#/$defs/...` from the root.
  if (shape === 'calls') return { $defs: GRAMMAR_DEFINITIONS, ...callArray };
  const output = {
    ...grammarNullable(toGrammar(outputSchema ?? {}, budget)),
    description: 'The final answer once the task is done, else null',
  };
  return { $defs: GRAMMAR_DEFINITIONS, ...closedObject({ calls: callArray, output }) };
}
