/** The problems every reader reports, built one way: a row left out, the samples past the limit. */
import type { ImportProblem } from '../types.js';

/** `E_IMPORT_ROW` in the data file: the row at `line` is left out. */
export function rowError(
  line: number,
  sample: string | undefined,
  message: string,
  hint?: string,
): ImportProblem {
  return {
    severity: 'error',
    code: 'E_IMPORT_ROW',
    message,
    line,
    ...(sample !== undefined ? { sample } : {}),
    file: 'data',
    ...(hint ? { hint } : {}),
  };
}

/**
 * The one error for every sample past `maxSamples`, at the first of them: a file of millions
 * of samples makes one error, not millions.
 */
export function pastLimitError(line: number, maxSamples: number, leftOut: number): ImportProblem {
  return rowError(
    line,
    undefined,
    `more than ${maxSamples} samples (maxSamples): the sample at line ${line} and the ${leftOut - 1} after it are not imported`,
  );
}

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A value quoted in a message, at most 80 characters (`...` when cut): data may be megabytes. */
export function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
