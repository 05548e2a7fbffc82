/**
 * The `openai-strict` rewrite of a tool's schemas (see plan-schema.ts): into the subset OpenAI's
 * structured outputs accept in strict mode, every object closed with every property required
 * (an optional one nullable), `anyOf` only, at most STRICT_LIMITS.maxDepth levels. Apart from
 * the plan's own shape because it is a walk of its own over untrusted schemas: iterative, with
 * an explicit stack and a node budget, so a deep or large schema cannot overflow the stack or
 * run unbounded.
 */
import { setOwnProperty } from '../../language/json/index.js';
import { SHARED } from './plan-schema-patterns.js';

/** OpenAI's strict-mode limits (its structured-outputs guide). */
export const STRICT_LIMITS = {
  /** Levels of object and array nesting, the root included. */
  maxDepth: 10,
  maxProperties: 5000,
  maxEnumValues: 1000,
} as const;

/** Most schema nodes the strict rewrite visits, over all tools: bounds the work on untrusted schemas. */
export const MAX_NODES = 100_000;

const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

export const NULL = { type: 'null' };

/** The strict stand-in for "any value": strict mode cannot say "anything". */
function anyScalar(description?: string): Record<string, unknown> {
  return {
    anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, NULL],
    ...(description !== undefined && { description }),
  };
}

export interface Budget {
  nodes: number;
  properties: number;
  enumValues: number;
}

export function requiredOf(input: Record<string, unknown>): Set<string> {
  return new Set(Array.isArray(input.required) ? input.required.filter((n) => typeof n === 'string') : []);
}

/** A strict value schema that also admits a reference in its place. */
function orReference(schema: Record<string, unknown>): Record<string, unknown> {
  return {
    anyOf: [...branches(schema), SHARED.reference],
    ...(typeof schema.description === 'string' && { description: schema.description }),
  };
}

/** A schema's alternatives, so that wrapping it in another `anyOf` adds no level. */
export function branches(schema: Record<string, unknown>): unknown[] {
  const keys = Object.keys(schema).filter((key) => key !== 'description');
  return keys.length === 1 && Array.isArray(schema.anyOf) ? schema.anyOf : [schema];
}

export function nullable(schema: Record<string, unknown>): { anyOf: unknown[] } & Record<string, unknown> {
  return {
    anyOf: [...branches(schema), NULL],
    ...(typeof schema.description === 'string' && { description: schema.description }),
  };
}

interface Task {
  readonly schema: unknown;
  /** Levels of object and array nesting of the container this schema's value sits in. */
  readonly depth: number;
  readonly put: (schema: Record<string, unknown>) => void;
}

/**
 * `schema` rewritten into strict mode's subset, for a value nested inside `depth` levels.
 * Iterative: each task fills one node and pushes its children.
 */
export function toStrict(schema: unknown, depth: number, budget: Budget): Record<string, unknown> {
  let result: Record<string, unknown> = anyScalar();
  const stack: Task[] = [{ schema, depth, put: (s) => (result = s) }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if (++budget.nodes > MAX_NODES) {
      throw new RangeError(
        `planSchema: the tools' schemas have more than ${MAX_NODES} nodes; offer fewer tools or use format 'json-schema'`,
      );
    }
    task.put(strictNode(task, stack, budget));
  }
  return result;
}

function strictNode(task: Task, stack: Task[], budget: Budget): Record<string, unknown> {
  const source = task.schema;
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return anyScalar();
  const s = source as Record<string, unknown>;
  const description = typeof s.description === 'string' ? s.description : undefined;
  const out: Record<string, unknown> = description === undefined ? {} : { description };
  const types = typesOf(s.type);

  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every(isScalar)) {
    budget.enumValues += s.enum.length;
    return { ...(types.length > 0 && { type: typeValue(types) }), ...out, enum: [...s.enum] };
  }
  if ('const' in s && isScalar(s.const)) {
    budget.enumValues++;
    return { ...(types.length > 0 && { type: typeValue(types) }), ...out, const: s.const };
  }
  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (alternatives && alternatives.length > 0) {
    const filled: unknown[] = new Array(alternatives.length);
    alternatives.forEach((alternative, i) =>
      stack.push({ schema: alternative, depth: task.depth, put: (child) => (filled[i] = child) }),
    );
    out.anyOf = filled;
    return out;
  }
  if (types.length === 0) return anyScalar(description);
  const nested = task.depth + 1;
  if ((types.includes('object') || types.includes('array')) && nested > STRICT_LIMITS.maxDepth) {
    const scalars = types.filter((type) => type !== 'object' && type !== 'array');
    return scalars.length > 0 ? { ...out, type: typeValue(scalars) } : anyScalar(description);
  }
  out.type = typeValue(types);
  if (types.includes('object')) {
    const required = requiredOf(s);
    const properties: Record<string, unknown> = {};
    const names: string[] = [];
    const declared = s.properties;
    if (typeof declared === 'object' && declared !== null && !Array.isArray(declared)) {
      for (const [name, child] of Object.entries(declared)) {
        names.push(name);
        setOwnProperty(properties, name, null); // keeps the declared order; filled below
        budget.properties++;
        const optional = !required.has(name);
        stack.push({
          schema: child,
          depth: nested,
          put: (value) => {
            const admitted = orReference(value);
            setOwnProperty(properties, name, optional ? nullable(admitted) : admitted);
          },
        });
      }
    }
    Object.assign(out, { properties, required: names, additionalProperties: false });
  }
  if (types.includes('array')) {
    const items = s.items;
    out.items = anyScalar();
    if (typeof items === 'object' && items !== null && !Array.isArray(items)) {
      stack.push({ schema: items, depth: nested, put: (value) => (out.items = orReference(value)) });
    }
    for (const key of ['minItems', 'maxItems']) if (typeof s[key] === 'number') out[key] = s[key];
  }
  if (types.includes('string')) {
    if (typeof s.pattern === 'string') out.pattern = s.pattern;
    if (typeof s.format === 'string' && STRICT_FORMATS.has(s.format)) out.format = s.format;
  }
  if (types.includes('number') || types.includes('integer')) {
    for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']) {
      if (typeof s[key] === 'number') out[key] = s[key];
    }
  }
  return out;
}

function typesOf(type: unknown): string[] {
  const list = Array.isArray(type) ? type : [type];
  return list.filter((t): t is string => typeof t === 'string' && JSON_TYPES.has(t));
}

function typeValue(types: string[]): string | string[] {
  return types.length === 1 ? types[0]! : types;
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
