/**
 * `importPlans`: one entry for every dialect. It checks the options, bounds the text, and
 * hands the text to the format's reader; the readers never throw on bad data, they return
 * errors with line numbers and import the rows they can.
 */
import { importLlmcompiler } from './llmcompiler/index.js';
import { fileError, isSafeId, type ReaderOptions } from './reader/index.js';
import { importNestful } from './nestful/index.js';
import { importNestools } from './nestools/index.js';
import { IMPORT_FORMATS, type ImportFormat, type ImportOptions, type ImportResult } from './types.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

/** The defaults of `ImportOptions`. */
export const IMPORT_DEFAULTS = {
  mode: 'lazy',
  maxBytes: 64 * 1024 * 1024,
  maxSamples: 100_000,
} as const;

/**
 * Reads the plans of a dataset of the field into planmode context documents and tool manifests.
 *
 * @param format `nestful`, `nestools` or `llmcompiler`.
 * @param text The data file's text.
 * @param options The spec (NESTFUL, LLMCompiler), the plans' mode and the size limits.
 * @returns Every sample that imported, with its warnings, and an error per row that did not.
 */
/** mode, spec and the bounds have their own checks. */
const IMPORT_OPTIONS: OptionSpec<ImportOptions> = {
  spec: 'any',
  mode: 'any',
  idPrefix: 'string',
  maxBytes: 'any',
  maxSamples: 'any',
};

export function importPlans(format: ImportFormat, text: string, options: ImportOptions = {}): ImportResult {
  checkOptions('importPlans', options, IMPORT_OPTIONS);
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new TypeError(`Expected format to be one of ${IMPORT_FORMATS.join(', ')}, got ${String(format)}`);
  }
  if (typeof text !== 'string') throw new TypeError(`Expected text to be a string, got ${typeof text}`);
  const mode = options.mode ?? IMPORT_DEFAULTS.mode;
  if (mode !== 'eager' && mode !== 'lazy')
    throw new TypeError(`Expected mode to be 'eager' or 'lazy', got ${String(mode)}`);
  const maxBytes = positiveWhole('maxBytes', options.maxBytes ?? IMPORT_DEFAULTS.maxBytes);
  const maxSamples = positiveWhole('maxSamples', options.maxSamples ?? IMPORT_DEFAULTS.maxSamples);
  if (options.spec !== undefined && typeof options.spec !== 'string') {
    throw new TypeError(`Expected spec to be the spec file's text, got ${typeof options.spec}`);
  }
  const tooLarge = [
    ['data', text],
    ['spec', options.spec ?? ''],
  ].find(([, t]) => Buffer.byteLength(t as string, 'utf8') > maxBytes);
  if (tooLarge) {
    return fileError(
      format,
      `the ${tooLarge[0]} file is over ${maxBytes} bytes (maxBytes)`,
      tooLarge[0] as 'data' | 'spec',
    );
  }
  const idPrefix = options.idPrefix ?? format;
  if (typeof idPrefix !== 'string' || !isSafeId(idPrefix)) {
    throw new TypeError(
      `Expected idPrefix to be a plain folder name ([A-Za-z0-9._-]), got ${String(idPrefix)}`,
    );
  }
  const reader: ReaderOptions = { spec: options.spec, mode, maxSamples, idPrefix };
  switch (format) {
    case 'nestful':
      return importNestful(text, reader);
    case 'nestools':
      return importNestools(text, reader);
    case 'llmcompiler':
      return importLlmcompiler(text, reader);
  }
}

function positiveWhole(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new TypeError(`Expected ${name} to be a positive whole number, got ${String(value)}`);
  return value;
}
