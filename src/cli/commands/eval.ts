/** `plan eval --gold DIR --predicted DIR`: a model's plans scored against gold ones (docs/evaluation.md). */
import { stat } from 'node:fs/promises';
import { scoreDirs } from '../../import/index.js';
import { CliInputError } from '../cli-input-error.js';
import { ExitCode } from '../exit-codes.js';
import { wholeNumber } from '../flags/whole-number.js';
import type { CliIo } from '../io.js';
import { formatEvalTable } from '../output/index.js';

export interface EvalFlags {
  /** The gold samples' folder (`<id>/plan.json`, `<id>/tools.json`). Required. */
  readonly gold?: string;
  /** The model's samples' folder, laid out the same way. Required. */
  readonly predicted?: string;
  /**
   * Seed of the mock tools both plans run against.
   * @default '0'
   */
  readonly seed?: string;
  /**
   * Print the result as one JSON object on stdout (schemas/eval-output.schema.json) instead of the table.
   * @default false
   */
  readonly json?: boolean;
}

/**
 * @returns 0 when every sample was scored (whatever the scores). Bad flags and folders that
 *   cannot be read throw CliInputError (2).
 */
export async function evalCommand(flags: EvalFlags, io: CliIo): Promise<number> {
  const gold = await folderFlag(flags.gold, '--gold');
  const predicted = await folderFlag(flags.predicted, '--predicted');
  const seed = wholeNumber(flags.seed, '--seed', 0) ?? 0;
  let result;
  try {
    result = await scoreDirs({ gold, predicted, seed });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: unknown }).code !== undefined)
      throw new CliInputError(`plan eval: ${(error as Error).message}`);
    throw error;
  }
  io.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : formatEvalTable(result));
  return ExitCode.OK;
}

async function folderFlag(value: string | undefined, flag: string): Promise<string> {
  if (value === undefined || value === '') throw new CliInputError(`plan eval needs ${flag} <dir>`);
  let info;
  try {
    info = await stat(value);
  } catch (error) {
    throw new CliInputError(`${flag} '${value}' cannot be read: ${(error as Error).message}`);
  }
  if (!info.isDirectory()) throw new CliInputError(`${flag} '${value}' is not a folder of samples`);
  return value;
}
