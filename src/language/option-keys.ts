/**
 * Unknown option keys are mistakes: `run(plan, { concurency: 4 })` or a provider given
 * `{ apikey }` would otherwise run with the default and say nothing. Each options type lists its
 * keys once, as a record TypeScript checks against the interface (a key added to the interface
 * and not here, or the reverse, does not compile), and the function that takes the options
 * refuses any other own key with a TypeError naming it.
 */
import { describeValue } from './describe-value.js';

/** The keys of an options interface: every one of them, and no other (checked by TypeScript). */
export type OptionKeys<T> = { readonly [K in keyof Required<T>]: true };

/** The key set of an options type, from its {@link OptionKeys} record. */
export function optionKeys<T>(keys: OptionKeys<T>): ReadonlySet<string> {
  return new Set(Object.keys(keys));
}

/**
 * @throws {TypeError} naming the first own key of `options` that is not one of `known`, with the
 *   known keys listed, so the caller sees the typo (`concurency`) and what it meant.
 */
export function rejectUnknownOptions(where: string, options: object, known: ReadonlySet<string>): void {
  for (const key in options) {
    if (!Object.hasOwn(options, key) || known.has(key)) continue;
    throw new TypeError(
      `${where}: unknown option ${describeValue(key)}; the options are ${[...known].join(', ')}`,
    );
  }
}

/**
 * What an option's value must be, for {@link checkOptions}: `count` is a number >= 0 (a bound,
 * a timeout, a size; Infinity allowed where the field allows it), `number` a finite number,
 * `oneOf` one of the listed strings, `any` whatever the field's own check says.
 */
export type OptionKind =
  | 'any'
  | 'string'
  | 'boolean'
  | 'function'
  | 'array'
  | 'object'
  | 'count'
  | 'number'
  | { readonly oneOf: readonly string[] };

/** Each key of an options interface with what its value must be: every key, no other (checked by TypeScript). */
export type OptionSpec<T> = { readonly [K in keyof Required<T>]: OptionKind };

/**
 * Checks an options object against its spec: undefined is no options; anything but an object, a
 * key the spec does not list, or a value of the wrong kind is a TypeError naming `where`, the key
 * and the value. An undefined value is an option left out.
 * @throws {TypeError}
 */
export function checkOptions(
  where: string,
  options: unknown,
  spec: Readonly<Record<string, OptionKind>>,
): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${where}: options must be an object, not ${describeValue(options)}`);
  }
  for (const key in options) {
    if (!Object.hasOwn(options, key)) continue;
    if (!Object.hasOwn(spec, key)) {
      throw new TypeError(
        `${where}: unknown option ${describeValue(key)}; the options are ${Object.keys(spec).join(', ')}`,
      );
    }
    const value = (options as Record<string, unknown>)[key];
    const wanted = spec[key]!;
    if (value === undefined || fits(value, wanted)) continue;
    throw new TypeError(`${where}: option ${key} must be ${kindText(wanted)}, not ${describeValue(value)}`);
  }
}

function fits(value: unknown, kind: OptionKind): boolean {
  switch (kind) {
    case 'any':
      return true;
    case 'string':
    case 'boolean':
    case 'function':
      return typeof value === kind;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object';
    case 'count':
      return typeof value === 'number' && value >= 0;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === 'string' && kind.oneOf.includes(value);
  }
}

function kindText(kind: OptionKind): string {
  switch (kind) {
    case 'count':
      return 'a number >= 0';
    case 'number':
      return 'a finite number';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    case 'function':
      return 'a function';
    case 'string':
    case 'boolean':
      return `a ${kind}`;
    case 'any':
      return 'a value';
    default:
      return `one of ${kind.oneOf.map((k) => JSON.stringify(k)).join(', ')}`;
  }
}
