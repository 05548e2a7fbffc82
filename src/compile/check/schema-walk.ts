/**
 * Walking a JSON Schema along a path, for the type flow (type-flow.ts): the schema of the value
 * a read path reaches inside a writer's outputSchema (and the first property on the way that
 * may be missing), of a `[*]` selection, and of the parameter at an argument pointer in a
 * tool's inputSchema (cached per schema). Iterative and bounded by MAX_WALK: schemas come from
 * untrusted tools files.
 */
import { getAtPath, type PathSegment, selectsMany, type Wildcard, WILDCARD } from '../../language/paths.js';
import { splitPointer } from '../../language/pointer.js';
import { canSelectFrom, selectFrom } from '../../language/resolve.js';
import type { JsonSchema } from '../../tools/tool.js';
import { schemaCompat } from './schema-compat.js';

/** Most path segments walked into a schema; deeper reads are not typed. */
const MAX_WALK = 64;

/**
 * The schema of what `tail` (from its first `[*]` or selection) reads in a container of
 * `schema`: for a tail that selects many, an array of what the path after each selector holds
 * in every element (`{type: 'array'}` when that is not known); for one whose only selectors are
 * `[-n]`, that element's own schema. A filter, a slice, a union and `[-n]` keep the element type
 * as `[*]` does; a recursive descent (`..key`) is an array of values of unknown type. Null when
 * the container can never be selected from (nothing is selected: the read is missing).
 */
export function selectAll(schema: JsonSchema, tail: readonly (PathSegment | Wildcard)[]): JsonSchema | null {
  const first = tail[0] as Wildcard;
  const many = selectsMany(tail);
  if (typeof schema === 'object' && Object.hasOwn(schema, 'const')) {
    const container = schema.const as unknown;
    if (!canSelectFrom(container, first)) return null;
    let selected: unknown;
    try {
      selected = selectFrom(container, tail);
    } catch {
      // Past the selection budget: the run will say so; here the value stays unknown.
      return many ? { type: 'array' } : true;
    }
    return selected === undefined ? null : { const: selected as never };
  }
  const descent = first !== WILDCARD && first.form === 'descent';
  if (schemaCompat(schema, { type: descent ? ['object', 'array'] : 'array' }) === 'never') return null;
  let current: JsonSchema | undefined = schema;
  for (let i = 0; i < tail.length && current !== undefined; i++) {
    // `[*]` and the selections of elements step into them as an index would.
    const segment = tail[i]!;
    if (typeof segment === 'object' && segment.form === 'descent') current = undefined;
    else current = walkSchema(current, [typeof segment === 'object' || segment === WILDCARD ? 0 : segment]);
  }
  // The element type after the last step this walk can follow; any value once it cannot.
  const element = current ?? true;
  if (!many) return element;
  return element === true ? { type: 'array' } : { type: 'array', items: element };
}

/** The schema of the value at `path` inside a value of `schema`, or undefined when unknown. */
export function walkSchema(schema: JsonSchema, path: readonly PathSegment[]): JsonSchema | undefined {
  return walk(schema, path, '')?.schema;
}

/**
 * {@link walkSchema}, also telling the first property on the way that `schema` does not
 * require (so the value may be missing), described with `what` (the schema's owner).
 */
export function walk(
  schema: JsonSchema,
  path: readonly PathSegment[],
  what: string,
): { schema: JsonSchema; optional: string | null } | undefined {
  if (path.length > MAX_WALK) return undefined;
  let current: JsonSchema = schema;
  let optional: string | null = null;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (current === true || current === false) return undefined;
    if (isUnfollowable(current)) return undefined;
    if (Object.hasOwn(current, 'const')) {
      // A known value (input, initial state, _output): its part at the rest of the path.
      const value = getAtPath(current.const, path.slice(i));
      return value === undefined ? undefined : { schema: { const: value as never }, optional };
    }
    const properties = current.properties as Record<string, JsonSchema> | undefined;
    const key = String(segment);
    if (properties && typeof properties === 'object' && Object.hasOwn(properties, key)) {
      const required = current.required;
      if (optional === null && !(Array.isArray(required) && required.includes(key)))
        optional = `property '${key}' is not required by ${what}`;
      current = properties[key]!;
      continue;
    }
    const items = current.items;
    if (
      /^\d+$/.test(key) &&
      items !== undefined &&
      !Array.isArray(items) &&
      current.prefixItems === undefined
    ) {
      // An index is not flagged as optional: an empty result is an ordinary outcome.
      current = items as JsonSchema;
      continue;
    }
    return undefined;
  }
  if (typeof current === 'object' && isUnfollowable(current)) return undefined;
  return { schema: current, optional };
}

/** Schemas whose parts this walk does not follow: a read through them is untyped. */
function isUnfollowable(schema: { [key: string]: unknown }): boolean {
  return (
    schema.$ref !== undefined ||
    schema.$dynamicRef !== undefined ||
    schema.allOf !== undefined ||
    schema.if !== undefined
  );
}

/** Most argument pointers remembered per inputSchema. */
const MAX_CACHED_POINTERS = 4096;

/** In the cache: the parameter takes any value (or has no schema), so there is nothing to check. */
const ANY_VALUE = null;

/**
 * Parameter schemas found so far, per inputSchema and argument pointer (most plans repeat
 * both): the schema to check against, or ANY_VALUE.
 */
const parameterCache = new WeakMap<object, Map<string, JsonSchema | typeof ANY_VALUE>>();

/**
 * The schema to check the argument at a pointer against (walked through properties and items),
 * or undefined when it takes any value (no schema, `true` or `{}`) and for `false`, which no
 * value fits: the arguments' check when the call runs says so.
 */
export function parameterToCheck(inputSchema: JsonSchema, at: string): JsonSchema | undefined {
  if (typeof inputSchema !== 'object') return toCheck(walkSchema(inputSchema, splitPointer(at)));
  let byPointer = parameterCache.get(inputSchema);
  if (!byPointer) parameterCache.set(inputSchema, (byPointer = new Map()));
  const known = byPointer.get(at);
  if (known !== undefined) return known === ANY_VALUE ? undefined : known;
  const schema = toCheck(walkSchema(inputSchema, splitPointer(at)));
  // Bounded: pointers into long argument arrays (`/list/0`, `/list/1`...) are not all kept.
  if (byPointer.size < MAX_CACHED_POINTERS) byPointer.set(at, schema ?? ANY_VALUE);
  return schema;
}

function toCheck(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (schema === undefined || schema === true) return undefined;
  return Object.keys(schema).length === 0 ? undefined : schema;
}
