/**
 * Where a JSON Schema's patterns are: every `pattern` string and every `patternProperties` key,
 * with the JSON pointer to it inside the schema. The tool registry and the state schema check
 * them with the linear-time engine before use, so a pattern it cannot take is reported at its
 * place rather than as one opaque compile error.
 *
 * The walk knows the keywords that hold subschemas (draft-07 and 2020-12), so an `enum` or
 * `default` value that happens to have a `pattern` key is not taken for a schema, and it follows
 * local `$ref`s, so a subschema kept under any key is reached too. It is iterative and visits
 * each object once (a schema built in code may be cyclic).
 */
import { joinPointer, splitPointer } from '../language/pointer.js';

export interface SchemaPattern {
  /** RFC 6901 pointer inside the schema: `/properties/id/pattern`, `/patternProperties/^x-`. */
  readonly pointer: string;
  readonly pattern: string;
  readonly keyword: 'pattern' | 'patternProperties';
}

/** Keywords whose value is one subschema. */
const SINGLE = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
/** Keywords whose value is an array of subschemas (`items` is one subschema or, before 2020-12, an array). */
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const MAPS = [
  '$defs',
  'definitions',
  'dependencies',
  'dependentSchemas',
  'patternProperties',
  'properties',
] as const;

type Node = Readonly<Record<string, unknown>>;

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const SUBSCHEMA_KEYWORDS = new Map<string, 'single' | 'list' | 'map'>([
  ...SINGLE.map((key) => [key, 'single'] as const),
  ...LISTS.map((key) => [key, 'list'] as const),
  ...MAPS.map((key) => [key, 'map'] as const),
]);

/** What the walk does next: visit a (sub)schema, or note a pattern found while visiting one. */
type Task = { readonly node: unknown; readonly pointer: string } | { readonly found: SchemaPattern };

/** Every pattern in `schema`, in document order. */
export function findSchemaPatterns(schema: unknown): SchemaPattern[] {
  const found: SchemaPattern[] = [];
  const seen = new Set<object>();
  const stack: Task[] = [{ node: schema, pointer: '' }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('found' in task) {
      found.push(task.found);
      continue;
    }
    const { node, pointer } = task;
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    // A node's tasks in its own key order, pushed in reverse so they pop in that order.
    const tasks: Task[] = [];
    for (const key of Object.keys(node)) {
      const value = node[key];
      const at = joinPointer(pointer, key);
      if (key === 'pattern' && typeof value === 'string') {
        tasks.push({ found: { pointer: at, pattern: value, keyword: 'pattern' } });
      } else if (key === 'patternProperties' && isObject(value)) {
        for (const name of Object.keys(value)) {
          const entry = joinPointer(at, name);
          tasks.push({ found: { pointer: entry, pattern: name, keyword: 'patternProperties' } });
          tasks.push({ node: value[name], pointer: entry });
        }
      } else if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) {
        const target = resolveLocal(schema, value);
        if (target !== undefined) tasks.push(target);
      } else {
        const kind = SUBSCHEMA_KEYWORDS.get(key);
        if (kind === 'single' && !Array.isArray(value)) tasks.push({ node: value, pointer: at });
        else if ((kind === 'list' || key === 'items') && Array.isArray(value))
          value.forEach((sub, i) => tasks.push({ node: sub, pointer: joinPointer(at, i) }));
        else if (kind === 'map' && isObject(value))
          for (const name of Object.keys(value))
            tasks.push({ node: value[name], pointer: joinPointer(at, name) });
      }
    }
    for (let i = tasks.length - 1; i >= 0; i--) stack.push(tasks[i]!);
  }
  return found;
}

function resolveLocal(root: unknown, ref: string): { node: unknown; pointer: string } | undefined {
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined; // a malformed escape: ajv reports the $ref itself
  }
  let node: unknown = root;
  for (const token of splitPointer(pointer)) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = Object.hasOwn(node, token) ? (node as Node)[token] : undefined;
  }
  return node === undefined ? undefined : { node, pointer };
}

function isObject(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
