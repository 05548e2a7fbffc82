/**
 * JSON Schema's `uniqueItems`, checked in time linear in the array's size. ajv's own check
 * hashes items only when the schema types them as scalars; otherwise it compares every pair
 * with a deep equality, so a tool result of 50k distinct small objects (an API's JSON, an MCP
 * server's answer) cost minutes against an `outputSchema` with `uniqueItems: true`. Here each
 * item is written once as canonical text (object keys sorted), and the texts go into a map.
 *
 * Equal means what ajv's deep equality means for JSON data: same type, same numbers (1 and 1.0
 * are one number), same strings, arrays equal item by item, objects with the same keys (in any
 * order) and equal values. The values checked are JSON copies already held to the run's limits
 * (depth, size), so the walk below (an explicit stack, no recursion) ends and its texts together
 * are about the size of the array's JSON.
 */
import { _, type CodeKeywordDefinition, type KeywordCxt, type Name, str } from 'ajv';

/** Two equal items of an array: `j` before `i`, as ajv's pairwise check reports them. */
export interface DuplicateItems {
  readonly i: number;
  readonly j: number;
}

/**
 * The last item equal to an earlier one, with the last earlier item it equals (the pair ajv's
 * pairwise check finds first, scanning from the end); `undefined` when all items differ.
 */
export function findDuplicateItems(items: readonly unknown[]): DuplicateItems | undefined {
  if (items.length < 2) return undefined;
  const lastIndexOf = new Map<string, number>();
  let found: DuplicateItems | undefined;
  for (let i = 0; i < items.length; i++) {
    const text = canonicalText(items[i]);
    const j = lastIndexOf.get(text);
    if (j !== undefined) found = { i, j };
    lastIndexOf.set(text, i);
  }
  return found;
}

/** What is left to write of one array or object on the stack: its items (or keys) from `next` on. */
interface Open {
  readonly value: unknown[] | Record<string, unknown>;
  readonly keys: readonly string[] | undefined;
  next: number;
}

/**
 * `value` as text in which two equal JSON values, and only they, are the same string: object
 * keys in sorted order, strings and keys quoted as JSON quotes them.
 */
export function canonicalText(value: unknown): string {
  if (value === null || typeof value !== 'object') return scalarText(value);
  let text = '';
  const stack: Open[] = [];
  let pending: unknown = value;
  let hasPending = true;
  for (;;) {
    if (hasPending) {
      hasPending = false;
      if (Array.isArray(pending)) {
        text += '[';
        stack.push({ value: pending, keys: undefined, next: 0 });
      } else if (pending !== null && typeof pending === 'object') {
        text += '{';
        const object = pending as Record<string, unknown>;
        stack.push({ value: object, keys: Object.keys(object).sort(), next: 0 });
      } else {
        text += scalarText(pending);
      }
    }
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    const count = top.keys === undefined ? (top.value as unknown[]).length : top.keys.length;
    if (top.next === count) {
      text += top.keys === undefined ? ']' : '}';
      stack.pop();
      continue;
    }
    if (top.next > 0) text += ',';
    if (top.keys === undefined) {
      pending = (top.value as unknown[])[top.next];
    } else {
      const key = top.keys[top.next]!;
      text += JSON.stringify(key) + ':';
      pending = (top.value as Record<string, unknown>)[key];
    }
    top.next++;
    hasPending = true;
  }
  return text;
}

/** A scalar's JSON text; what is not JSON (never in a checked value) still gets a distinct text. */
function scalarText(value: unknown): string {
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value === 0 ? 0 : value) : `#${value}`;
  if (value === undefined) return '#undefined';
  if (typeof value === 'bigint') return `#${value}n`;
  return JSON.stringify(value) ?? `#${typeof value}`;
}

/**
 * ajv's `uniqueItems` keyword (same error: keyword, params `{i, j}`, message "must NOT have
 * duplicate items (items ## j and i are identical)"), checked by {@link findDuplicateItems}.
 * `$data` references are not taken: a schema's `uniqueItems` is a boolean.
 */
export const UNIQUE_ITEMS_KEYWORD: CodeKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  error: {
    message: ({ params }) =>
      str`must NOT have duplicate items (items ## ${params.j} and ${params.i} are identical)`,
    params: ({ params }) => _`{i: ${params.i}, j: ${params.j}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    if (schema !== true) return;
    const find = gen.scopeValue('func', {
      ref: findDuplicateItems,
      code: _`require("planmode/unique-items").findDuplicateItems`,
    });
    const pair: Name = gen.const('duplicate', _`${find}(${data})`);
    cxt.setParams({ i: _`${pair}.i`, j: _`${pair}.j` });
    cxt.fail(_`${pair} !== undefined`);
  },
};
