/**
 * json-schema-faker gives an array schema without `items` (`{"type": "array"}`, as datasets
 * often write a list) no elements at all, whatever its `minItems` option says, so a read of
 * `†state.list[0]` would be skipped in every dry run. Such arrays get `items: {}` (any element)
 * in a copy; a schema without them is returned as it is. The walk follows the keywords that
 * hold subschemas, with an explicit stack and a bound on the nodes visited.
 */
import type { JsonSchema } from '../tools/tool.js';

/** Most schema nodes visited; past it the schema is left as it is. */
const MAX_NODES = 100_000;

const SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;

/** `schema`, or a copy whose arrays without `items` take any element. */
export function withArrayItems(schema: JsonSchema): JsonSchema {
  if (!itemlessArrays(schema, () => undefined)) return schema;
  const copy = structuredClone(schema);
  itemlessArrays(copy, (node) => {
    node.items = {};
  });
  return copy;
}

/** Calls `found` on each array schema without `items` or `prefixItems`; true when there is one. */
function itemlessArrays(schema: JsonSchema, found: (node: Record<string, unknown>) => void): boolean {
  const stack: unknown[] = [schema];
  let any = false;
  for (let visited = 0; stack.length > 0 && visited < MAX_NODES; visited++) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    const s = node as Record<string, unknown>;
    const type = s.type;
    const array = type === 'array' || (Array.isArray(type) && type.includes('array'));
    if (array && s.items === undefined && s.prefixItems === undefined) {
      any = true;
      found(s);
    }
    for (const key of SINGLE) if (s[key] !== undefined) stack.push(s[key]);
    for (const key of LISTS) if (Array.isArray(s[key])) stack.push(...(s[key] as unknown[]));
    for (const key of MAPS) {
      const map = s[key];
      if (map !== null && typeof map === 'object') stack.push(...Object.values(map));
    }
  }
  return any;
}
