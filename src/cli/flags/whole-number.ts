/** A numeric flag (`--concurrency 4`), read strictly: digits only, and within bounds. */
import { MAX_DELAY_MS } from '../../tools/tool-values.js';
import { CliInputError } from '../cli-input-error.js';

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

/** What `--concurrency` takes for "no bound", besides a number. */
const UNLIMITED = new Set(['unlimited', 'infinity']);

/**
 * `--concurrency <n>`: a whole number >= 1, or `unlimited` (also `Infinity`, p-queue's own
 * word) for no bound, given only where unlimited makes sense.
 * @returns the number (Infinity for no bound), or undefined when the flag was not given.
 * @throws {CliInputError} (exit 2) naming the flag and the value.
 */
export function concurrencyFlag(
  value: string | undefined,
  flag: string,
  options: { readonly unlimited: boolean },
): number | undefined {
  if (value === undefined) return undefined;
  if (UNLIMITED.has(value.trim().toLowerCase())) {
    if (options.unlimited) return Number.POSITIVE_INFINITY;
    throw new CliInputError(
      `${flag} must be a whole number >= 1 here, not '${value}': a worker takes that many jobs off the queue at once, so it needs a bound`,
    );
  }
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    const or = options.unlimited ? " (or 'unlimited' for no bound)" : '';
    throw new CliInputError(`${flag} must be a whole number >= 1, not '${value}'${or}`);
  }
  return n;
}

/**
 * A flag in milliseconds, read as {@link wholeNumber} does. Node's timers wait at most
 * 2147483647 ms (about 24.8 days) and fire at once for anything longer, so a larger value
 * would not be a long wait but none at all.
 */
export function millisecondsFlag(value: string | undefined, flag: string, least: number): number | undefined {
  if (value === undefined) return undefined;
  const n = wholeNumber(value, flag, least);
  if (n !== undefined && n > MAX_DELAY_MS) {
    throw new CliInputError(
      `${flag} must be at most ${MAX_DELAY_MS} ms (about 24.8 days, the longest a timer can wait), not '${value}'`,
    );
  }
  return n;
}
