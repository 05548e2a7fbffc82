/**
 * `plan import <format> <file> --out DIR`: the plans of a dataset of the field (NESTFUL,
 * NesTools, LLMCompiler) written as planmode plans, one folder per sample:
 * `DIR/<id>/plan.json` (a context document) and `DIR/<id>/tools.json` (a manifest).
 */
import { basename } from 'node:path';
import {
  IMPORT_DEFAULTS,
  IMPORT_FORMATS,
  importPlans,
  type ImportFormat,
  type ImportProblem,
} from '../../import/index.js';
import { isSafeId } from '../../import/reader/index.js';
import { DEFAULT_LIMITS } from '../../language/limits.js';
import { CliInputError } from '../cli-input-error.js';
import { ExitCode } from '../exit-codes.js';
import { displayName, readText, type CliIo } from '../io.js';
import { writeSamples } from '../output/index.js';

export interface ImportFlags {
  /**
   * The companion file: NESTFUL's `*-spec.json`, LLMCompiler's tools manifest.
   * @default undefined (required for nestful and llmcompiler)
   */
  readonly spec?: string;
  /** The folder the samples are written into (created when missing). Required. */
  readonly out?: string;
  /**
   * Prefix of ids the data does not give: `<prefix>-<n>`.
   * @default NESTFUL: the data file's name without `-data.json`; otherwise the format's name
   */
  readonly idPrefix?: string;
  /**
   * Mode of the written plans.
   * @default 'lazy'
   */
  readonly mode?: string;
  /**
   * Print one JSON object to stdout instead of the lines on stderr.
   * @default false
   */
  readonly json?: boolean;
}

/** What `plan import --json` prints. */
export interface ImportJson {
  readonly format: ImportFormat;
  readonly out: string;
  readonly samples: readonly {
    id: string;
    line: number;
    calls: number;
    warnings: readonly ImportProblem[];
  }[];
  readonly errors: readonly ImportProblem[];
}

/**
 * @returns 0 every row imported (warnings allowed), 1 some rows could not be imported (the
 *   others were written), 2 nothing could be read (a whole file) or bad flags.
 */
export async function importCommand(
  format: string,
  file: string,
  flags: ImportFlags,
  io: CliIo,
): Promise<number> {
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CliInputError(`the format must be one of ${IMPORT_FORMATS.join(', ')}, not '${format}'`);
  }
  if (flags.out === undefined)
    throw new CliInputError('--out <dir> is required: the folder the samples are written into');
  const mode = flags.mode ?? IMPORT_DEFAULTS.mode;
  if (mode !== 'lazy' && mode !== 'eager')
    throw new CliInputError(`--mode must be lazy or eager, not '${mode}'`);
  const idPrefix = flags.idPrefix ?? defaultPrefix(format as ImportFormat, file);
  if (!isSafeId(idPrefix)) {
    throw new CliInputError(
      `--id-prefix must be a plain folder name (letters, digits, '.', '_', '-'), not '${idPrefix}'`,
    );
  }
  const limits = { ...DEFAULT_LIMITS, maxTextLength: IMPORT_DEFAULTS.maxBytes };
  const text = await readText(file, { io, what: 'data file', limits });
  const spec =
    flags.spec === undefined ? undefined : await readText(flags.spec, { io, what: 'spec file', limits });
  const result = importPlans(format as ImportFormat, text, { spec, mode, idPrefix });
  const written = await writeSamples(flags.out, result.samples);
  const errors = [...result.errors, ...written.errors];
  const wholeFile = errors.some((e) => e.code === 'E_IMPORT_FILE');
  const names = {
    data: displayName(file),
    spec: flags.spec === undefined ? '<spec>' : displayName(flags.spec),
  };
  if (flags.json) {
    const json: ImportJson = {
      format: result.format,
      out: flags.out,
      samples: written.samples.map((s) => ({ id: s.id, line: s.line, calls: s.calls, warnings: s.warnings })),
      errors,
    };
    io.stdout.write(`${JSON.stringify(json)}\n`);
  } else {
    const lines: string[] = [];
    for (const s of written.samples) for (const w of s.warnings) lines.push(problemLine(w, names));
    for (const e of errors) lines.push(problemLine(e, names));
    const warned = written.samples.filter((s) => s.warnings.length > 0).length;
    lines.push(
      `imported ${written.samples.length} sample(s) into ${flags.out} (${warned} with warnings); ${errors.length} row(s) could not be imported`,
    );
    io.stderr.write(`${lines.join('\n')}\n`);
  }
  if (wholeFile) return ExitCode.USAGE;
  return errors.length > 0 ? ExitCode.INVALID : ExitCode.OK;
}

/** `file:line: severity CODE [sample]: message (hint)`, one line per problem. */
function problemLine(p: ImportProblem, names: { data: string; spec: string }): string {
  const where = `${p.file === 'spec' ? names.spec : names.data}${p.line > 0 ? `:${p.line}` : ''}`;
  const sample = p.sample === undefined ? '' : ` [${p.sample}]`;
  const hint = p.hint === undefined ? '' : ` (${p.hint})`;
  return `${where}: ${p.severity} ${p.code}${sample}: ${p.message}${hint}`;
}

/** NESTFUL's files are `<set>-data.json`: the set names its samples. */
function defaultPrefix(format: ImportFormat, file: string): string {
  if (format !== 'nestful' || file === '-') return format;
  const stem = basename(file)
    .replace(/\.jsonl?$/i, '')
    .replace(/-data$/, '');
  return isSafeId(stem) ? stem : format;
}
