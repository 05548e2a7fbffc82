/**
 * What two schemas' own keywords say about a pair (see schema-compat.ts): `type`, `enum` and
 * `const` give the verdict of A against B before their structure (properties, items, unions)
 * is walked, and whether B has keywords the check cannot see. With the small predicates on
 * schemas that the walk shares.
 */
export type Compat = 'never' | 'sometimes' | 'always';

const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** Keywords of B this check decides itself; any other may reject values it cannot see. */
const UNDERSTOOD_IN_B = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'items',
  'anyOf',
  'oneOf',
  // Annotations: they never reject a value.
  'title',
  'description',
  'default',
  'examples',
  '$schema',
  '$id',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

export type Schema = { readonly [key: string]: unknown };

/** The pair's verdict from type, enum and const, and whether B has keywords this does not check. */
export function ownVerdict(sa: Schema, sb: Schema): Compat {
  const valuesA = valuesOf(sa);
  const valuesB = valuesOf(sb);
  let verdict: Compat = 'always';
  if (valuesA) {
    // A's values are known: each fits B's type and values, or does not.
    const typesB = new Set(typesOf(sb));
    const listedB = valuesB ? new ListedValues(valuesB) : null;
    let fits = 0;
    for (const v of valuesA) {
      const typeOk = typesB.has(typeOfValue(v)) || (typeOfValue(v) === 'integer' && typesB.has('number'));
      const valueOk = listedB === null || listedB.has(v);
      if (typeOk && valueOk) fits++;
    }
    if (fits === 0) return 'never';
    if (fits < valuesA.length) verdict = 'sometimes';
  } else {
    const typesA = typesOf(sa);
    const typesB = new Set(typesOf(sb));
    const fitting = typesA.filter((t) => typesB.has(t) || (t === 'integer' && typesB.has('number')));
    // A number that happens to be whole is an integer.
    const partial = typesA.filter((t) => t === 'number' && typesB.has('integer') && !typesB.has('number'));
    if (fitting.length === 0 && partial.length === 0) return 'never';
    if (fitting.length < typesA.length) verdict = 'sometimes';
    if (valuesB) {
      const typesOfValuesB = new Set(valuesB.map(typeOfValue));
      const reachable = typesA.some(
        (t) =>
          typesOfValuesB.has(t) ||
          (t === 'number' && typesOfValuesB.has('integer')) ||
          (t === 'integer' && typesOfValuesB.has('number')),
      );
      if (!reachable) return 'never';
      verdict = 'sometimes';
    }
  }
  for (const key of Object.keys(sb)) {
    if (!UNDERSTOOD_IN_B.has(key)) return 'sometimes';
  }
  return verdict;
}

/** The values A or B allows when it lists them (`const`, `enum`), else undefined. */
function valuesOf(s: Schema): unknown[] | undefined {
  if (Object.hasOwn(s, 'const')) return [s.const];
  if (Array.isArray(s.enum)) return s.enum as unknown[];
  return undefined;
}

export function typesOf(s: Schema): JsonType[] {
  const t = s.type;
  if (typeof t === 'string' && (JSON_TYPES as readonly string[]).includes(t)) return [t as JsonType];
  if (Array.isArray(t)) {
    const list = t.filter((x): x is JsonType => (JSON_TYPES as readonly unknown[]).includes(x));
    if (list.length > 0) return list;
  }
  // No type: the values decide when listed; else anything.
  const values = valuesOf(s);
  if (values) return [...new Set(values.map(typeOfValue))];
  return [...JSON_TYPES];
}

export function typeOfValue(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  return 'object';
}

export function hasStructure(s: Schema): boolean {
  return s.properties !== undefined || s.required !== undefined || s.items !== undefined;
}

export function worse(v: Compat): Compat {
  return v === 'always' ? 'sometimes' : v;
}

export function isObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function isEmptySchema(s: Schema): boolean {
  for (const key of Object.keys(s)) if (!ANNOTATIONS.has(key)) return false;
  return true;
}

const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$schema', '$id', '$comment']);

export function without(s: Schema, ...keys: string[]): Schema {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(s)) if (!keys.includes(key)) out[key] = s[key];
  return out;
}

/**
 * Steps one verdict may spend comparing objects and arrays listed by A with those listed by B.
 * Past it, a value is taken to be among B's (it may match), as a value too big to compare is.
 */
export const MAX_LISTED_COMPARE_STEPS = 100_000;

/**
 * B's listed values (`enum`, `const`), asked "is this one of them?" once per value of A: the
 * strings, numbers, booleans and null in a set (JSON has no NaN, and a set's 0 is -0, as with
 * ===), so two lists of 50k values cost 100k steps, not 2.5 billion; objects and arrays compared
 * one by one, within {@link MAX_LISTED_COMPARE_STEPS} for the whole verdict.
 */
class ListedValues {
  readonly #primitives = new Set<unknown>();
  readonly #structured: unknown[] = [];
  readonly #budget = { steps: MAX_LISTED_COMPARE_STEPS };

  constructor(values: readonly unknown[]) {
    for (const value of values) {
      if (value !== null && typeof value === 'object') this.#structured.push(value);
      else this.#primitives.add(value);
    }
  }

  has(value: unknown): boolean {
    if (value === null || typeof value !== 'object') return this.#primitives.has(value);
    for (const listed of this.#structured) {
      if (this.#budget.steps <= 0) return true; // out of budget: it may match
      if (jsonEqual(value, listed, this.#budget)) return true;
    }
    return false;
  }
}

/**
 * Equality of JSON values, iterative (enum entries come from untrusted schemas); each step
 * spends one of `budget.steps`, and a comparison that runs out assumes the values may match.
 */
function jsonEqual(x: unknown, y: unknown, budget: { steps: number }): boolean {
  const stack: [unknown, unknown][] = [[x, y]];
  let steps = 0;
  while (stack.length > 0) {
    budget.steps--;
    if (++steps > 10_000 || budget.steps < 0) return true; // too big to compare: assume it may match
    const [p, q] = stack.pop()!;
    if (p === q) continue;
    if (p === null || q === null || typeof p !== 'object' || typeof q !== 'object') return false;
    if (Array.isArray(p) !== Array.isArray(q)) return false;
    const kp = Object.keys(p);
    const kq = Object.keys(q);
    if (kp.length !== kq.length) return false;
    for (const k of kp) {
      if (!Object.hasOwn(q, k)) return false;
      stack.push([(p as Schema)[k], (q as Schema)[k]]);
    }
  }
  return true;
}
