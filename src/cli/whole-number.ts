/** A numeric flag (`--concurrency 4`), read strictly: digits only, and at least `least`. */
import { CliInputError } from './cli-input-error.js';

/**
 * @returns the number, or undefined when the flag was not given.
 * @throws {CliInputError} (exit 2) naming the flag and the value.
 */
export function wholeNumber(value: string | undefined, flag: string, least: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < least)
    throw new CliInputError(`${flag} must be a whole number >= ${least}, not '${value}'`);
  return n;
}
