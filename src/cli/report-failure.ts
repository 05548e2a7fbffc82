/**
 * What `plan` prints and returns for an error that reached the top: a usage error (exit 2, one
 * line), or a bug in planmode (exit 70, the stack only with PLAN_DEBUG=1).
 */
import { CommanderError } from 'commander';
import {
  isJournalError,
  isMissingDependencyError,
  isToolDefinitionError,
  isToolsFileError,
} from '../errors.js';
import { CliInputError } from './cli-input-error.js';
import { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { formatCliError, oneLine, shouldUseColor } from './terminal-text.js';

export function reportFailure(e: unknown, io: CliIo): number {
  if (e instanceof CommanderError) {
    // Commander has printed its message (or the help) already. `plan` alone shows the help
    // with exit code 1: that is a usage error too.
    return e.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  }
  const color = shouldUseColor(io.stderr, io.env);
  if (
    e instanceof CliInputError ||
    isToolsFileError(e) ||
    isToolDefinitionError(e) ||
    isJournalError(e) ||
    isMissingDependencyError(e)
  ) {
    io.stderr.write(formatCliError((e as Error).message, { color }));
    return ExitCode.USAGE;
  }
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  io.stderr.write(
    `plan: internal error: ${oneLine(message)} (this is a bug in planmode; set PLAN_DEBUG=1 for the stack)\n`,
  );
  if (io.env.PLAN_DEBUG && e instanceof Error && e.stack) io.stderr.write(`${e.stack}\n`);
  return ExitCode.INTERNAL;
}
