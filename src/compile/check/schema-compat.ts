/**
 * Can a value described by schema A satisfy schema B? `never`, `sometimes` or `always`.
 *
 * Written for the type-flow check, where A is what may arrive at an argument (a writer's
 * outputSchema, a slice of the state schema, the type of a known value) and B is the
 * parameter's schema. A wrong `never` rejects a good plan, so every doubt is `sometimes`.
 *
 * Keywords understood:
 * - `type` (a name or a list; `integer` is a kind of `number`), `enum`, `const`;
 * - `properties` and `required` (a property A requires whose schema can never fit B's makes
 *   the object never fit; one B requires that A declares impossible makes it never fit);
 * - `items` (one schema for every element; an empty array fits any `items`, so a mismatch is
 *   `never` only when A has `minItems` >= 1);
 * - `anyOf` / `oneOf` as unions, on either side;
 * - a known value (`const` in A) is judged part by part: each element against `items`, each
 *   property B names against its schema, and B's `required` against the keys it has;
 * - `true`, `false` and `{}`.
 * Any other keyword of B (`minLength`, `pattern`, `minimum`, `format`, `$ref`, `allOf`, `not`…)
 * may reject some values: the verdict is at best `sometimes`. Any other keyword of A only
 * narrows A, so it is ignored, except `$ref`, `allOf`, `not`, `if`, which make A unknown.
 *
 * Schemas come from untrusted tools files: the walk uses an explicit list of nodes, not
 * recursion, and gives up with `sometimes` past MAX_NODES nodes. Verdicts are cached per
 * (A, B) object pair.
 */
import type { JsonSchema } from '../../tools/tool.js';
import {
  type Compat,
  hasStructure,
  isEmptySchema,
  isObject,
  ownVerdict,
  type Schema,
  typesOf,
  without,
  worse,
} from './schema-verdict.js';

export { type Compat, typeOfValue } from './schema-verdict.js';

/** Most schema pairs one check visits; past it the answer is `sometimes`. */
export const MAX_NODES = 256;

/** Keywords of A that change what A holds in ways this check does not follow. */
const OPAQUE_IN_A = new Set(['$ref', '$dynamicRef', 'allOf', 'not', 'if', 'then', 'else']);

/** How a node's children combine into its verdict. */
type Mode =
  /** every child must fit (properties, items): the worst child wins */
  | 'all'
  /** A is a union: each alternative may arrive */
  | 'arrives'
  /** B is a union: fitting one alternative is enough */
  | 'any';

interface Node {
  readonly a: JsonSchema;
  readonly b: JsonSchema;
  /** The verdict of this pair's own keywords, before its children. */
  own: Compat;
  mode: Mode;
  children: number[];
  /** A child that is `never` only makes this node `sometimes` (an optional property, items of a possibly empty array). */
  readonly soft: boolean;
}

const cache = new WeakMap<object, WeakMap<object, Compat>>();
const filledCache = new WeakMap<object, WeakMap<object, Compat>>();

/**
 * The verdict for one pair of schemas (see the file header for what is understood).
 * @param filled B is part of a tool's inputSchema whose `default`s the run fills in
 *   (RunOptions.applyDefaults): a property B requires and gives a `default` is there whether
 *   or not A has it.
 */
export function schemaCompat(a: JsonSchema, b: JsonSchema, filled = false): Compat {
  if (b === true) return 'always';
  if (a === false) return 'always'; // nothing arrives, nothing fails
  if (b === false) return 'never';
  // A schema that is neither a boolean nor an object (a tools file or state schema may hold
  // anything) is not understood: "may match", and it cannot key the cache.
  if (!isObject(b)) return 'sometimes';
  if (a === true) return isEmptySchema(b as Schema) ? 'always' : 'sometimes';
  if (!isObject(a)) return isEmptySchema(b as Schema) ? 'always' : 'sometimes';
  const verdicts = filled ? filledCache : cache;
  let byB = verdicts.get(a);
  const known = byB?.get(b);
  if (known) return known;
  const verdict = evaluate(a, b, filled);
  if (!byB) verdicts.set(a, (byB = new WeakMap()));
  byB.set(b, verdict);
  return verdict;
}

function evaluate(rootA: JsonSchema, rootB: JsonSchema, filled: boolean): Compat {
  const nodes: Node[] = [];
  const add = (a: JsonSchema, b: JsonSchema, soft: boolean): number => {
    nodes.push({ a, b, own: 'always', mode: 'all', children: [], soft });
    return nodes.length - 1;
  };
  add(rootA, rootB, false);
  // Expand breadth-first; a child always has a larger index than its parent.
  for (let i = 0; i < nodes.length; i++) {
    if (nodes.length > MAX_NODES) return 'sometimes';
    expand(nodes[i]!, add, filled);
  }
  // Children before parents: walk backwards.
  const verdicts: Compat[] = new Array<Compat>(nodes.length);
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    let verdict = node.own;
    if (verdict !== 'never' && node.children.length > 0) {
      const kids = node.children.map((c) => {
        const v = verdicts[c]!;
        return v === 'never' && nodes[c]!.soft ? 'sometimes' : v;
      });
      verdict = combine(node.mode, kids, verdict);
    }
    verdicts[i] = verdict;
  }
  return verdicts[0]!;
}

function combine(mode: Mode, kids: Compat[], own: Compat): Compat {
  if (mode === 'arrives') {
    if (kids.every((k) => k === 'never')) return 'never';
    return kids.every((k) => k === 'always') ? own : 'sometimes';
  }
  if (mode === 'any') {
    if (kids.every((k) => k === 'never')) return 'never';
    return kids.some((k) => k === 'always') ? own : 'sometimes';
  }
  if (kids.some((k) => k === 'never')) return 'never';
  return kids.every((k) => k === 'always') ? own : 'sometimes';
}

function expand(
  node: Node,
  add: (a: JsonSchema, b: JsonSchema, soft: boolean) => number,
  filled: boolean,
): void {
  const { a, b } = node;
  if (b === true) return;
  if (a === false) return;
  if (b === false) {
    node.own = 'never';
    return;
  }
  const sb = b as Schema;
  if (a === true || !isObject(a) || !isObject(b)) {
    node.own = isObject(b) && isEmptySchema(sb) ? 'always' : 'sometimes';
    return;
  }
  const sa = a as Schema;
  if (Object.keys(sa).some((k) => OPAQUE_IN_A.has(k))) {
    node.own = 'sometimes';
    return;
  }
  // A union arriving: each alternative (with A's own keywords laid under it) is judged alone.
  const unionA = (sa.anyOf ?? sa.oneOf) as unknown;
  if (Array.isArray(unionA) && unionA.length > 0) {
    const rest = without(sa, 'anyOf', 'oneOf');
    node.mode = 'arrives';
    for (const alternative of unionA) {
      if (!isObject(alternative) && typeof alternative !== 'boolean') continue;
      const merged = isObject(alternative) ? { ...rest, ...(alternative as Schema) } : alternative;
      node.children.push(add(merged as JsonSchema, b, false));
    }
    if (node.children.length === 0) node.own = 'sometimes';
    return;
  }
  const unionB = (sb.anyOf ?? sb.oneOf) as unknown;
  if (Array.isArray(unionB) && unionB.length > 0) {
    // B's other keywords apply as well; judged on the merged alternatives.
    const rest = without(sb, 'anyOf', 'oneOf');
    node.mode = 'any';
    for (const alternative of unionB) {
      if (!isObject(alternative) && typeof alternative !== 'boolean') continue;
      const merged = isObject(alternative) ? { ...rest, ...(alternative as Schema) } : alternative;
      node.children.push(add(a, merged as JsonSchema, false));
    }
    // oneOf fails a value that fits two alternatives: fitting one is not `always`.
    node.own = sb.oneOf !== undefined && sb.anyOf === undefined ? 'sometimes' : 'always';
    if (node.children.length === 0) node.own = 'sometimes';
    return;
  }
  node.own = ownVerdict(sa, sb);
  if (node.own === 'never') return;
  if (Object.hasOwn(sa, 'const') && sa.const !== null && typeof sa.const === 'object') {
    expandValue(node, sa.const, sb, add, filled);
    return;
  }
  const typesA = typesOf(sa);
  const onlyObjects = typesA.length === 1 && typesA[0] === 'object';
  const onlyArrays = typesA.length === 1 && typesA[0] === 'array';
  if (onlyObjects) expandObject(node, sa, sb, add, filled);
  else if (onlyArrays) expandArray(node, sa, sb, add);
  else if (hasStructure(sb) && (typesA.includes('object') || typesA.includes('array')))
    node.own = worse(node.own);
}

function expandObject(
  node: Node,
  sa: Schema,
  sb: Schema,
  add: (a: JsonSchema, b: JsonSchema, soft: boolean) => number,
  filled: boolean,
): void {
  const propsA = isObject(sa.properties) ? (sa.properties as Schema) : {};
  const propsB = isObject(sb.properties) ? (sb.properties as Schema) : {};
  const requiredA = new Set(Array.isArray(sa.required) ? (sa.required as unknown[]) : []);
  const closedA = sa.additionalProperties === false;
  if (Array.isArray(sb.required)) {
    for (const name of sb.required as unknown[]) {
      if (typeof name !== 'string') continue;
      if (requiredA.has(name) || (filled && hasDefault(propsB, name))) continue;
      if (closedA && !Object.hasOwn(propsA, name)) {
        node.own = 'never';
        return;
      }
      node.own = worse(node.own);
    }
  }
  for (const name of Object.keys(propsB)) {
    const pb = propsB[name] as JsonSchema;
    if (Object.hasOwn(propsA, name)) {
      node.children.push(add(propsA[name] as JsonSchema, pb, !requiredA.has(name)));
    } else if (!closedA && pb !== true && !(isObject(pb) && isEmptySchema(pb as Schema))) {
      // A says nothing of it: it may arrive with any value.
      node.own = worse(node.own);
    }
  }
}

/**
 * A known array or object (from the input, the initial state, an `_output`) against B's
 * `items`, `properties` and `required`: every element, every property B names, is itself
 * known, so a part that does not fit makes the whole never fit.
 */
function expandValue(
  node: Node,
  value: object,
  sb: Schema,
  add: (a: JsonSchema, b: JsonSchema, soft: boolean) => number,
  filled: boolean,
): void {
  if (Array.isArray(value)) {
    const itemsB = sb.items;
    if (itemsB === undefined) return;
    if (Array.isArray(itemsB) || value.length > MAX_NODES) {
      node.own = worse(node.own);
      return;
    }
    for (const element of value)
      node.children.push(add({ const: element as never }, itemsB as JsonSchema, false));
    return;
  }
  const record = value as Schema;
  const propsB = isObject(sb.properties) ? (sb.properties as Schema) : {};
  if (Array.isArray(sb.required)) {
    for (const name of sb.required as unknown[]) {
      if (typeof name !== 'string' || Object.hasOwn(record, name)) continue;
      if (filled && hasDefault(propsB, name)) continue;
      node.own = 'never';
      return;
    }
  }
  for (const name of Object.keys(propsB)) {
    if (Object.hasOwn(record, name))
      node.children.push(add({ const: record[name] as never }, propsB[name] as JsonSchema, false));
  }
}

function expandArray(
  node: Node,
  sa: Schema,
  sb: Schema,
  add: (a: JsonSchema, b: JsonSchema, soft: boolean) => number,
): void {
  const itemsB = sb.items;
  if (itemsB === undefined) return;
  if (Array.isArray(itemsB)) {
    node.own = worse(node.own);
    return;
  }
  const itemsA = sa.items;
  if (itemsA === undefined || Array.isArray(itemsA)) {
    node.own = worse(node.own);
    return;
  }
  const nonEmpty = typeof sa.minItems === 'number' && sa.minItems >= 1;
  node.children.push(add(itemsA as JsonSchema, itemsB as JsonSchema, !nonEmpty));
}

/** B gives property `name` a `default`, which the run fills in when the value lacks it. */
function hasDefault(propsB: Schema, name: string): boolean {
  const schema = Object.hasOwn(propsB, name) ? propsB[name] : undefined;
  return isObject(schema) && Object.hasOwn(schema as Schema, 'default');
}
