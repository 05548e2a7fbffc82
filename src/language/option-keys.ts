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
