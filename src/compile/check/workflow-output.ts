/**
 * A workflow's `output` (see Tool.output): a reference into its sub-plan, or a JSON template
 * whose string leaves are references. Read once into leaves (where each reference goes) and a
 * base (the template with those leaves null), so that a run fills in a copy of the base; and
 * typed against the compiled sub-plan: what each reference may hold is what its writers'
 * outputSchemas say (walked below the written path), the input's from the inputSchema. A
 * reference that no call writes (nor the input holds) is a problem, as is one every writer's
 * outputSchema closes out. Templates are walked with an explicit stack, after checkJson bounds
 * them.
 */
import { copyJson } from '../../language/json/index.js';
import { DEFAULT_LIMITS } from '../../language/limits.js';
import { firstSelector, type PathSegment, segmentsBelow, segmentsOverlap } from '../../language/paths.js';
import { type Expression, parseString, type Reference } from '../../language/reference.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { JsonSchema } from '../../tools/tool.js';
import type { CompiledPlan } from '../types.js';
import { closedOutAt } from './closed-reads.js';
import { walk } from './schema-walk.js';

/** One reference of a template, and where its value goes. */
export interface OutputLeaf {
  /** Keys and indices from the template's root; empty for an output that is one reference. */
  readonly at: readonly PathSegment[];
  readonly expression: Expression;
  readonly text: string;
}

export interface OutputTemplate {
  /** The template with every reference leaf null (null for a lone reference). */
  readonly base: unknown;
  readonly leaves: readonly OutputLeaf[];
}

type Node = { readonly value: unknown; readonly at: readonly PathSegment[] };

/** Reads `output` into leaves and a base; a problem (a message) when it is not a valid one. */
export function readOutputTemplate(output: unknown): OutputTemplate | { readonly problem: string } {
  const copied = copyJson(output, { limits: DEFAULT_LIMITS });
  if ('problem' in copied) return { problem: `"output" ${copied.problem.message}` };
  const base = copied.value;
  const leaves: OutputLeaf[] = [];
  const problems: string[] = [];
  const stack: Node[] = [{ value: base, at: [] }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { value, at } = node;
    if (typeof value === 'string') {
      const parsed = parseString(value);
      if (parsed.kind === 'expression') {
        leaves.push({ at, expression: parsed.expression, text: value });
        if (at.length > 0) setAt(base, at, null);
      } else if (parsed.kind === 'error') problems.push(`"output" ${where(at)}: ${parsed.message}`);
      else if (at.length === 0)
        problems.push(
          `"output" must be a reference such as "†state.result", not the text ${JSON.stringify(value)}`,
        );
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value))
      for (let k = value.length - 1; k >= 0; k--) stack.push({ value: value[k], at: [...at, k] });
    else
      for (const key of Object.keys(value).reverse())
        stack.push({ value: (value as Record<string, unknown>)[key], at: [...at, key] });
  }
  if (problems.length > 0) return { problem: problems.join('; ') };
  if (leaves.length === 0)
    return { problem: '"output" holds no reference: name what the workflow returns (†state.…)' };
  return { base: leaves.length === 1 && leaves[0]!.at.length === 0 ? null : base, leaves };
}

function where(at: readonly PathSegment[]): string {
  return at.length === 0 ? '' : `at /${at.join('/')}`;
}

function setAt(root: unknown, at: readonly PathSegment[], value: unknown): void {
  let container = root as Record<PathSegment, unknown>;
  for (let k = 0; k < at.length - 1; k++) container = container[at[k]!] as Record<PathSegment, unknown>;
  container[at[at.length - 1]!] = value;
}

/** What a workflow's output may hold, given its compiled plan, and the problems with its references. */
export interface OutputType {
  readonly schema: JsonSchema;
  readonly problems: readonly string[];
}

/**
 * The type of the template's value after `plan` ran: an object template is a closed object
 * (every key required, no other), an array template an array, a literal leaf its `const`, a
 * reference what its writers' outputSchemas say (`{}` when that is unknown).
 */
export function outputType(
  template: OutputTemplate,
  plan: CompiledPlan,
  tools: ToolRegistry,
  inputSchema: JsonSchema | undefined,
): OutputType {
  const problems: string[] = [];
  const leafTypes = new Map<string, JsonSchema>();
  for (const leaf of template.leaves)
    leafTypes.set(leaf.at.join('\u0000'), expressionType(leaf, plan, tools, inputSchema, problems));
  if (template.leaves.length === 1 && template.leaves[0]!.at.length === 0)
    return { schema: leafTypes.get('')!, problems };
  const root: { schema?: JsonSchema } = {};
  const stack: { value: unknown; at: PathSegment[]; put: (s: JsonSchema) => void }[] = [
    { value: template.base, at: [], put: (s) => (root.schema = s) },
  ];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { value, at, put } = node;
    const leaf = leafTypes.get(at.join('\u0000'));
    if (leaf !== undefined && value === null) put(leaf);
    else if (Array.isArray(value)) put({ type: 'array', minItems: value.length, maxItems: value.length });
    else if (value !== null && typeof value === 'object') {
      const properties: Record<string, JsonSchema> = {};
      const keys = Object.keys(value);
      put({ type: 'object', properties, required: keys, additionalProperties: false });
      for (const key of keys)
        stack.push({
          value: (value as Record<string, unknown>)[key],
          at: [...at, key],
          put: (s) => (properties[key] = s),
        });
    } else put({ const: value as never });
  }
  return { schema: root.schema ?? true, problems };
}

/** What an output reference may hold: the union of its references' (the last one's for `&&`). */
function expressionType(
  leaf: OutputLeaf,
  plan: CompiledPlan,
  tools: ToolRegistry,
  inputSchema: JsonSchema | undefined,
  problems: string[],
): JsonSchema {
  const { op, refs } = leaf.expression;
  const types: JsonSchema[] = [];
  let unknown = false;
  for (const ref of refs) {
    const type = referenceType(ref, plan, tools, inputSchema, problems);
    if (op === '&&' && ref !== refs[refs.length - 1]) continue;
    if (type === undefined) unknown = true;
    else types.push(type);
  }
  if (unknown || types.length === 0) return {};
  return types.length === 1 ? types[0]! : { anyOf: types };
}

/** The type of one reference after the plan ran, undefined when unknown; a problem when nothing sets it. */
function referenceType(
  ref: Reference,
  plan: CompiledPlan,
  tools: ToolRegistry,
  inputSchema: JsonSchema | undefined,
  problems: string[],
): JsonSchema | undefined {
  const wildcard = firstSelector(ref.segments);
  const path = (wildcard < 0 ? ref.segments : ref.segments.slice(0, wildcard)) as readonly PathSegment[];
  if (ref.root === 'input') {
    if (inputSchema === undefined || wildcard >= 0) return undefined;
    if (closedOutAt(inputSchema, path) !== null) {
      problems.push(`"output" reads ${ref.text}, which the inputSchema does not allow`);
      return undefined;
    }
    return walk(inputSchema, path, '')?.schema;
  }
  const types: JsonSchema[] = [];
  let written = false;
  let unknown = false;
  let closedEverywhere = true;
  for (const call of plan.calls) {
    const paths = call.outputPath?.paths ?? [];
    for (let k = 0; k < paths.length; k++) {
      const p = paths[k]!;
      const rest = segmentsBelow(p.segments, path);
      if (rest === null) {
        if (segmentsOverlap(p.segments, path)) {
          written = true;
          unknown = true;
          closedEverywhere = false;
        }
        continue;
      }
      written = true;
      const schema = tools.get(call.tool)?.tool.outputSchema;
      if (schema === undefined || k === call.errorAlternative) {
        // No schema, or the alternative that receives the tool's error object: not followed.
        unknown = true;
        closedEverywhere = false;
        continue;
      }
      if (closedOutAt(schema, rest) === null) closedEverywhere = false;
      const walked = walk(schema, rest, '');
      if (walked === undefined) unknown = true;
      else types.push(walked.schema);
    }
  }
  if (!written) {
    problems.push(`"output" reads ${ref.text}, which no call of the plan writes`);
    return undefined;
  }
  if (closedEverywhere) {
    problems.push(
      `"output" reads ${ref.text}, which the outputSchema of every call writing there leaves out`,
    );
    return undefined;
  }
  if (wildcard >= 0) return { type: 'array' };
  if (unknown || types.length === 0) return undefined;
  return types.length === 1 ? types[0]! : { anyOf: types };
}
