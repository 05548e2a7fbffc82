/**
 * Mutations of gold plans for the type checker's test (type-mutations.test.ts): re-point one
 * reference to an earlier call's output field of another JSON type, or to a field that does not
 * exist. The choice is deterministic: the first reference (in call order, then argument order)
 * that qualifies, and the first field (earlier calls first, each in its outputSchema's order).
 */
import type { CompiledPlan } from '../../../src/compile/index.js';
import type { JsonSchema } from '../../../src/tools/index.js';
import type { ToolRegistry } from '../../../src/tools/index.js';
import type { GoldSample } from './corpora.js';
import { planCalls } from './corpora.js';

/**
 * JSON types in classes: an integer is a number, so `integer` and `number` are one class
 * (`exact`: the JSON type as declared, `integer` apart from `number`).
 */
export function typeClass(schema: unknown, exact = false): string | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') return undefined;
  return type === 'integer' && !exact ? 'number' : type;
}

/** The schema at `path` (properties, and items for an index), or undefined. */
export function schemaAt(
  schema: JsonSchema | undefined,
  path: readonly (string | number)[],
): JsonSchema | undefined {
  let current: unknown = schema;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    const s = current as { properties?: Record<string, unknown>; items?: unknown };
    if (typeof segment === 'number' || /^\d+$/.test(segment)) current = s.items;
    else current = s.properties && Object.hasOwn(s.properties, segment) ? s.properties[segment] : undefined;
  }
  return current as JsonSchema | undefined;
}

/** One reference of a plan: call index, argument pointer, the writer's id and the fields read. */
export interface PlanReference {
  readonly call: number;
  readonly at: string;
  readonly writer: number;
  readonly fields: readonly (string | number)[];
}

/** The plain references of a compiled plan (one `†state` path, no `||`/`&&`), in order. */
export function referencesOf(plan: CompiledPlan): PlanReference[] {
  const out: PlanReference[] = [];
  for (const call of plan.calls) {
    for (const argument of call.refs) {
      const { op, refs } = argument.expression;
      const ref = refs[0];
      if (op !== null || !ref || ref.root !== 'state' || argument.text !== ref.text) continue;
      const [id, ...fields] = ref.segments;
      const writer = plan.indexOf(String(id));
      if (writer === undefined || fields.some((f) => typeof f === 'symbol')) continue;
      out.push({ call: call.index, at: argument.at, writer, fields: fields as (string | number)[] });
    }
  }
  return out;
}

function pathText(id: string, fields: readonly (string | number)[]): string {
  let out = `†state.${id}`;
  for (const f of fields) {
    if (typeof f === 'number') out += `[${f}]`;
    else out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(f) ? `.${f}` : `[${JSON.stringify(f)}]`;
  }
  return out;
}

/** A mutated plan document and where the diagnostic is expected. */
export interface Mutation {
  readonly document: unknown[];
  /** The diagnostic pointer of the mutated argument. */
  readonly pointer: string;
  readonly from: string;
  readonly to: string;
  /** The type classes of the field read before and after, and the parameter's. */
  readonly types?: { readonly before: string; readonly after: string; readonly parameter: string };
}

function outputSchemaOf(plan: CompiledPlan, registry: ToolRegistry, call: number): JsonSchema | undefined {
  return registry.get(plan.calls[call]!.tool)?.tool.outputSchema;
}

/** A copy of the sample's document with the argument at `at` of call `call` set to `text`. */
function withArgument(
  sample: GoldSample,
  call: number,
  at: string,
  text: string,
): { document: unknown[]; pointer: string } {
  const document = structuredClone(sample.sample.plan) as unknown[];
  const message = document.findIndex((m) => (m as { type?: string }).type === 'plan');
  const calls = (document[message] as { plan: Record<string, unknown>[] }).plan;
  const tokens = at
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: Record<string, unknown> = calls[call]!;
  for (const t of tokens.slice(0, -1)) node = node[t] as Record<string, unknown>;
  node[tokens[tokens.length - 1]!] = text;
  return { document, pointer: `/${message}/plan/${call}${at}` };
}

/**
 * The type mutation of a valid gold plan: its first reference into a typed parameter from a
 * typed field whose call has an earlier call with a field of another class (of another JSON
 * type with `exact`); undefined when no reference qualifies.
 */
export function typeMutation(sample: GoldSample, exact = false): Mutation | undefined {
  const plan = sample.compiled.plan!;
  const ids = plan.calls.map((c) => c.id);
  for (const ref of referencesOf(plan)) {
    const reader = sample.registry.get(plan.calls[ref.call]!.tool)?.tool.inputSchema;
    const parameter = typeClass(schemaAt(reader, ref.at.split('/').slice(1)), exact);
    const before = typeClass(schemaAt(outputSchemaOf(plan, sample.registry, ref.writer), ref.fields), exact);
    if (parameter === undefined || before === undefined) continue;
    for (let j = 0; j < ref.call; j++) {
      const properties = schemaAt(outputSchemaOf(plan, sample.registry, j), []) as
        { properties?: Record<string, unknown> } | undefined;
      for (const [field, schema] of Object.entries(properties?.properties ?? {})) {
        const after = typeClass(schema, exact);
        if (after === undefined || after === before) continue;
        const to = pathText(ids[j]!, [field]);
        return {
          ...withArgument(sample, ref.call, ref.at, to),
          from: pathText(ids[ref.writer]!, ref.fields),
          to,
          types: { before, after, parameter },
        };
      }
    }
  }
  return undefined;
}

/**
 * The missing-field mutation: the first reference whose writer has an outputSchema, with `_x`
 * appended to the field of the output it reads (`output_x` for a read of the whole output).
 */
export function missingFieldMutation(sample: GoldSample): Mutation | undefined {
  const plan = sample.compiled.plan!;
  const ref = referencesOf(plan).find((r) => outputSchemaOf(plan, sample.registry, r.writer) !== undefined);
  if (!ref) return undefined;
  const id = plan.calls[ref.writer]!.id;
  const [first, ...rest] = ref.fields;
  const fields = first === undefined ? ['output_x'] : [`${String(first)}_x`, ...rest];
  const to = pathText(id, fields);
  return { ...withArgument(sample, ref.call, ref.at, to), from: pathText(id, ref.fields), to };
}

export { planCalls };
