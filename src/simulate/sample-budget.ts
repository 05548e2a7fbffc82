/**
 * What a sample of an output schema may cost, checked before json-schema-faker makes it. The
 * faker honours a schema's minimums whatever its own options say: `minItems: 1e9` (say, in an MCP
 * server's `outputSchema`) made it build a billion-element array (3.7 GB and still going), and
 * `minItems: 1000` of `minItems: 1000` of ... multiplies. It also picks a string's length at
 * random up to its `maxLength`, so `maxLength: 1e9` alone could make a gigabyte string.
 *
 * So a sample is held to the limits a real result is held to, and to the total a dry run needs:
 * - an array whose `minItems` a real result could not have (its last index past
 *   `maxArrayIndex`), an object whose `minProperties` is past `maxKeys`, or a string whose
 *   `minLength` is past `maxTextLength`, is not sampled;
 * - nor is a schema whose sample could be longer than {@link MAX_SAMPLE_TEXT} characters of JSON
 *   (or `maxTextLength`, when lower), counted as an upper bound: each node's own size times how
 *   many times the sample can hold it (the product of the element counts of the arrays around it).
 * - A `maxLength` past {@link MAX_SAMPLED_STRING} is lowered to it (or to `minLength`) in the copy
 *   the faker gets: a shorter string still fits the schema.
 *
 * One walk with an explicit stack, costing each subschema once per depth (a local `$ref` where it
 * points, at the depth it is used, as the faker follows it): linear in the schema. A schema that
 * refers to itself without nesting (the faker would recurse until the stack ends), or has more
 * than {@link MAX_SCHEMA_VISITS} subschemas and depths to cost, is not sampled.
 */
import type { Limits } from '../language/limits.js';
import { jsonSize, setOwnProperty } from '../language/json/index.js';
import { splitPointer } from '../language/pointer.js';
import type { JsonSchema } from '../tools/tool.js';

/** The most characters of JSON a sample may have, whatever the limits allow. */
export const MAX_SAMPLE_TEXT = 4 * 1024 * 1024;
/** The longest string the faker is let make from a `maxLength`. */
export const MAX_SAMPLED_STRING = 10_000;
/** The most (subschema, depth) pairs the bound costs: past it the schema is not sampled. */
export const MAX_SCHEMA_VISITS = 200_000;
/** The faker's own element count for an array without a larger `minItems` (FAKER_OPTIONS.maxItems). */
const FAKER_ITEMS = 3;
/** The faker nests objects and arrays this deep at most; below, it makes empty or minimal values. */
export const FAKER_MAX_DEPTH = 8;
/** The faker's attempts at extra properties for `minProperties`. */
const FAKER_PROPERTY_ATTEMPTS = 1000;
/** A string without length keywords: the faker makes at most 10 characters; a pattern's at most 10,000. */
const PLAIN_STRING = 10;
const PATTERN_STRING = 10_000;

/** Keywords whose value is one subschema, instantiated where its parent is. */
const ONE_SCHEMA = ['not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties'];
/** Keywords whose value is a list of subschemas, each possibly instantiated. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

export type SampleBudget =
  { readonly ok: true; readonly schema: JsonSchema } | { readonly ok: false; readonly reason: string };

/** A subschema the sample may hold `times` times per value of its parent, `deeper` levels down. */
interface Edge {
  readonly node: unknown;
  readonly step: string;
  readonly times: number;
  readonly deeper: 0 | 1;
}

/** One (schema, depth) being costed: its own size and the sum of its children's so far. */
interface Frame {
  readonly node: object;
  readonly depth: number;
  readonly step: string;
  edges: readonly Edge[];
  next: number;
  cost: number;
}

/** Marks a (schema, depth) whose cost is being worked out: met again, the schema recurses in place. */
const IN_PROGRESS = -1;

/**
 * The schema to give the faker (`schema` itself, or a copy with huge `maxLength`s lowered), or why
 * no sample within `limits` can be made of it.
 *
 * The bound is worked out once per subschema and depth (a local `$ref` is costed where it points,
 * at the depth it is used): cost = its own characters + the sum over its subschemas of how many
 * times the sample may hold each times that one's cost. At most {@link FAKER_MAX_DEPTH} + 1 depths
 * per subschema, so the work is linear in the schema's size.
 */
export function sampleBudget(schema: JsonSchema, limits: Limits): SampleBudget {
  const budget = Math.min(MAX_SAMPLE_TEXT, limits.maxTextLength);
  const memo = new Map<object, Float64Array>();
  const lowered = new Set<object>();
  const stack: Frame[] = [];
  let visits = 0;
  const pointer = () => shown(stack.map((frame) => frame.step).join('/'));
  /** Starts costing `node` at `depth`, or says why it cannot be. */
  const enter = (node: object, depth: number, step: string): string | undefined => {
    if (++visits > MAX_SCHEMA_VISITS) return `it has more than ${MAX_SCHEMA_VISITS} subschemas`;
    const s = node as Record<string, unknown>;
    const minItems = count(s.minItems);
    const minProperties = count(s.minProperties);
    const minLength = count(s.minLength);
    stack.push({ node, depth, step, edges: [], next: 0, cost: 0 });
    if (minItems > limits.maxArrayIndex + 1) {
      return `minItems ${minItems} at ${pointer()} is past limits.maxArrayIndex (${limits.maxArrayIndex}): a result that long would fail its call with LIMIT`;
    }
    if (minProperties > limits.maxKeys) {
      return `minProperties ${minProperties} at ${pointer()} is past limits.maxKeys (${limits.maxKeys}): a result that wide would fail its call with LIMIT`;
    }
    if (minLength > limits.maxTextLength) {
      return `minLength ${minLength} at ${pointer()} is past limits.maxTextLength (${limits.maxTextLength}): a result that long would fail its call with LIMIT`;
    }
    let maxLength = typeof s.maxLength === 'number' && s.maxLength >= 0 ? s.maxLength : undefined;
    if (maxLength !== undefined && maxLength > Math.max(MAX_SAMPLED_STRING, minLength)) {
      lowered.add(node);
      maxLength = Math.max(MAX_SAMPLED_STRING, minLength);
    }
    // Its own characters: the longest of what it may be (a string, a literal), the brackets and
    // commas of an array, the keys of an object.
    let own = Math.max(
      maxLength ?? minLength + PLAIN_STRING,
      typeof s.pattern === 'string' || typeof s.format === 'string' ? Math.max(PATTERN_STRING, minLength) : 0,
      literalSize(s),
    );
    const items = depth >= FAKER_MAX_DEPTH ? minItems : Math.max(FAKER_ITEMS, minItems);
    const extraProperties = Math.min(minProperties, FAKER_PROPERTY_ATTEMPTS);
    own += 2 + items + extraProperties * 12 + keysSize(s.properties) + keysSize(s.required);
    const frame = stack[stack.length - 1]!;
    frame.cost = own;
    frame.edges = edgesOf(s, depth, items, extraProperties);
    return undefined;
  };

  const rootNode = schema as unknown;
  if (rootNode === null || typeof rootNode !== 'object') return { ok: true, schema };
  const refused = enter(rootNode, 0, '');
  if (refused !== undefined) return { ok: false, reason: refused };
  let total = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.edges.length) {
      stack.pop();
      costs(memo, frame.node)[frame.depth] = frame.cost;
      if (stack.length === 0) total = frame.cost;
      else {
        const parent = stack[stack.length - 1]!;
        parent.cost += parent.edges[parent.next++]!.times * frame.cost;
      }
      continue;
    }
    const edge = frame.edges[frame.next]!;
    const target = edge.step === '$ref' ? resolveLocal(rootNode, edge.node as string) : edge.node;
    const depth = frame.depth + edge.deeper;
    if (target === null || typeof target !== 'object' || Array.isArray(target)) {
      frame.next++;
      continue;
    }
    const known = costs(memo, target)[depth]!;
    if (known === IN_PROGRESS) {
      return {
        ok: false,
        reason: `it refers to itself at ${pointer()}/${edge.step} without nesting, so its sample has no end`,
      };
    }
    if (!Number.isNaN(known)) {
      frame.cost += edge.times * known;
      frame.next++;
    } else {
      costs(memo, target)[depth] = IN_PROGRESS;
      const why = enter(target, depth, edge.step);
      if (why !== undefined) return { ok: false, reason: why };
    }
    if (!(frame.cost <= budget)) {
      return {
        ok: false,
        reason: `its sample could be about ${Number.isFinite(frame.cost) ? frame.cost : 'infinitely many'} characters of JSON (at ${pointer()}); a dry run samples at most ${budget}`,
      };
    }
  }
  if (!(total <= budget)) {
    return {
      ok: false,
      reason: `its sample could be about ${total} characters of JSON; a dry run samples at most ${budget}`,
    };
  }
  return { ok: true, schema: lowered.size === 0 ? schema : lowerMaxLengths(schema, lowered) };
}

/** Per depth, a subschema's cost: NaN not yet known, IN_PROGRESS while being worked out. */
function costs(memo: Map<object, Float64Array>, node: object): Float64Array {
  let byDepth = memo.get(node);
  if (!byDepth) memo.set(node, (byDepth = new Float64Array(FAKER_MAX_DEPTH + 1).fill(NaN)));
  return byDepth;
}

/**
 * The subschemas a value of `s` may hold, and how many times: array items (the faker's count, or
 * `minItems`), properties once each, `additionalProperties` once per extra property, a `$ref`
 * and the applicators (`allOf`, `anyOf`, `then`, ...) beside it, all counted (an upper bound).
 * Below {@link FAKER_MAX_DEPTH} the faker nests nothing more, and neither does the bound.
 */
function edgesOf(s: Record<string, unknown>, depth: number, items: number, extraProperties: number): Edge[] {
  const edges: Edge[] = [];
  if (depth >= FAKER_MAX_DEPTH) return edges;
  if (typeof s.$ref === 'string') edges.push({ node: s.$ref, step: '$ref', times: 1, deeper: 0 });
  const inner = (node: unknown, step: string, times: number) => edges.push({ node, step, times, deeper: 1 });
  const beside = (node: unknown, step: string) => edges.push({ node, step, times: 1, deeper: 0 });
  if (!Array.isArray(s.items)) inner(s.items, 'items', items);
  else list(s.items, 'items', (node, step) => inner(node, step, 1));
  inner(s.additionalItems, 'additionalItems', items);
  inner(s.unevaluatedItems, 'unevaluatedItems', items);
  list(s.prefixItems, 'prefixItems', (node, step) => inner(node, step, 1));
  members(s.properties, 'properties', (node, step) => inner(node, step, 1));
  members(s.dependentSchemas, 'dependentSchemas', beside);
  const extras = Math.max(1, extraProperties, Array.isArray(s.required) ? s.required.length : 0);
  inner(s.additionalProperties, 'additionalProperties', extras);
  for (const keyword of ONE_SCHEMA) beside(s[keyword], keyword);
  for (const keyword of SCHEMA_LISTS) list(s[keyword], keyword, beside);
  return edges;
}

/** A pointer for a message: `/` for the root, and only the end of a very long one. */
function shown(pointer: string): string {
  if (pointer === '') return '/';
  if (!pointer.startsWith('/')) pointer = `/${pointer}`;
  return pointer.length <= 200 ? pointer : `…${pointer.slice(-200)}`;
}

/** A whole, non-negative count keyword, else 0. */
function count(value: unknown): number {
  return typeof value === 'number' && value > 0 ? Math.ceil(value) : 0;
}

/** The largest literal the faker may use as is: `const`, `default`, an `enum` or `examples` member. */
function literalSize(s: Record<string, unknown>): number {
  let size = 0;
  if (s.const !== undefined) size = jsonSize(s.const);
  if (s.default !== undefined) size = Math.max(size, jsonSize(s.default));
  for (const keyword of ['enum', 'examples']) {
    const values = s[keyword];
    if (Array.isArray(values)) for (const value of values) size = Math.max(size, jsonSize(value));
  }
  return size;
}

/** Characters of the names an object sample may carry (`"name":` and a comma each). */
function keysSize(names: unknown): number {
  let size = 0;
  if (Array.isArray(names)) for (const name of names) size += typeof name === 'string' ? name.length + 4 : 0;
  else if (names !== null && typeof names === 'object')
    for (const name of Object.keys(names)) size += name.length + 4;
  return size;
}

function list(value: unknown, keyword: string, each: (item: unknown, where: string) => void): void {
  if (Array.isArray(value)) value.forEach((item, i) => each(item, `${keyword}/${i}`));
}

function members(value: unknown, keyword: string, each: (item: unknown, where: string) => void): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  for (const key of Object.keys(value)) {
    each(
      (value as Record<string, unknown>)[key],
      `${keyword}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`,
    );
  }
}

/** The schema a local `$ref` (`#`, `#/$defs/a`) names, or undefined. */
function resolveLocal(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  for (const token of splitPointer(pointer)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** A copy of `schema` with the `maxLength` of these subschemas lowered (see the file's header). */
function lowerMaxLengths(schema: JsonSchema, nodes: ReadonlySet<object>): JsonSchema {
  const root: unknown = Array.isArray(schema) ? [] : {};
  const stack: [from: object, to: Record<string, unknown>][] = [
    [schema as object, root as Record<string, unknown>],
  ];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    for (const key of Object.keys(from)) {
      const value: unknown = (from as Record<string, unknown>)[key];
      if (value !== null && typeof value === 'object') {
        const copy = Array.isArray(value) ? [] : {};
        setOwnProperty(to, key, copy);
        stack.push([value, copy as Record<string, unknown>]);
      } else setOwnProperty(to, key, value);
    }
    if (nodes.has(from)) to.maxLength = Math.max(MAX_SAMPLED_STRING, count(to.minLength));
  }
  return root as JsonSchema;
}
