/**
 * `--report <file>`: the HTML report of `plan run` (and `plan simulate`). The path is checked
 * before anything runs, so a typo costs no run: a path that cannot be written is a usage error
 * (exit 2). The report is written when the run ends, whatever its status, and one line names
 * the absolute path written; should writing fail then, one line says so and the command keeps
 * the exit code of what it ran.
 */
import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ReportInput } from '../../report/html/index.js';
import { CliInputError } from '../cli-input-error.js';
import { formatCliError, oneLine } from './format.js';
import type { CliIo } from '../io.js';

/** Throws CliInputError (exit 2) when `file` cannot be written as a report. */
export async function checkReportPath(file: string): Promise<void> {
  const path = resolve(file);
  const fail = (why: string): never => {
    throw new CliInputError(`--report '${file}' cannot be written: ${why}`);
  };
  if (file.trim() === '' || file === '-') fail('give a file path for the HTML report');
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) fail('it is a directory');
  const dir = dirname(path);
  const parent = await stat(dir).catch(() => null);
  if (!parent) fail(`the directory ${dirname(file)} does not exist`);
  if (!parent!.isDirectory()) fail(`${dirname(file)} is not a directory`);
  await access(existing ? path : dir, constants.W_OK).catch(() =>
    fail(existing ? 'no permission to write it' : `no permission to write in ${dirname(file)}`),
  );
}

export interface WriteReportOptions {
  /** Paint the error line. */
  readonly color: boolean;
  /**
   * Say nothing once written (`--json` keeps stderr for prompts and errors).
   * @default false
   */
  readonly quiet?: boolean;
}

/**
 * Renders and writes the report, then says where on stderr: `plan: report written to <abs path>`.
 * Returns false (after one line on stderr) when it could not be written; never throws.
 */
export async function writeReportFile(
  file: string,
  input: ReportInput,
  io: CliIo,
  options: WriteReportOptions,
): Promise<boolean> {
  const color = options.color;
  try {
    // Loaded here: the report and its layout engine cost nothing to a run without --report.
    const { renderReport } = await import('../../report/html/index.js');
    await writeFile(file, renderReport(input));
    if (!options.quiet) io.stderr.write(`plan: report written to ${resolve(file)}\n`);
    return true;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    io.stderr.write(formatCliError(`the report was not written to '${file}': ${oneLine(why)}`, { color }));
    return false;
  }
}
