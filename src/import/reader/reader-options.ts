import type { ImportFormat, ImportResult } from '../types.js';

/** The resolved options every dialect's reader gets from `importPlans`. */
export interface ReaderOptions {
  /** The spec or tools file's text, when the format has one. */
  readonly spec: string | undefined;
  /** Mode of the plan messages written. */
  readonly mode: 'eager' | 'lazy';
  /** Prefix of generated sample ids. */
  readonly idPrefix: string;
  /** Most samples imported; the rows past it are errors. */
  readonly maxSamples: number;
}

/** A result with no samples and one whole-file error. */
export function fileError(
  format: ImportFormat,
  message: string,
  file: 'data' | 'spec',
  hint?: string,
): ImportResult {
  return {
    format,
    samples: [],
    errors: [{ severity: 'error', code: 'E_IMPORT_FILE', message, line: 0, file, ...(hint ? { hint } : {}) }],
  };
}
