/** `plan explain <file|-> <call-id>`: why a call waits, what its failure would block, what is independent. */
import { compile } from '../../compile/compile.js';
import { isUnknownCallError } from '../../errors.js';
import { type CallExplanation, explainCall } from '../../explain/index.js';
import { CliInputError } from '../cli-input-error.js';
import { type CommonFlags, loadCompileInputs } from '../flags/compile-inputs.js';
import { wholeNumber } from '../flags/whole-number.js';
import { ExitCode } from '../exit-codes.js';
import {
  formatCompileReport,
  formatDiagnostics,
  formatSkippedNote,
  shouldUseColor,
  skippedChecks,
  formatExplanation,
} from '../output/index.js';
import type { CliIo } from '../io.js';

export interface ExplainFlags extends CommonFlags {
  /**
   * Print the answer as one JSON object on stdout (schemas/explain-output.schema.json).
   * @default false
   */
  readonly json?: boolean;
  /**
   * Most ids in any one list of the answer (a whole number >= 1).
   * @default '50'
   */
  readonly max?: string;
}

/**
 * @returns 0 explained, 1 plan invalid (diagnostics on stderr). An unknown call id, like any
 *   input problem, throws CliInputError (exit 2).
 */
export async function explainCommand(
  file: string,
  callId: string,
  flags: ExplainFlags,
  io: CliIo,
): Promise<number> {
  const limit = wholeNumber(flags.max, '--max', 1) ?? 50;
  const inputs = await loadCompileInputs(file, flags, io);
  const result = compile(inputs.text, inputs.options);
  const options = { file: inputs.source, color: shouldUseColor(io.stderr, io.env) };
  if (!result.ok || !result.plan) {
    io.stderr.write(formatCompileReport(result, options));
    return ExitCode.INVALID;
  }
  if (result.diagnostics.length > 0) io.stderr.write(formatDiagnostics(result.diagnostics, options));
  let explanation: CallExplanation;
  try {
    explanation = explainCall(result.plan, callId, { limit });
  } catch (e) {
    if (isUnknownCallError(e)) throw new CliInputError(`${inputs.source}: ${e.message}`);
    throw e;
  }
  // Which call is an effect depends on the tools: without them only _after orders calls.
  const skipped = skippedChecks(result, { tools: inputs.options.tools !== undefined });
  io.stderr.write(formatSkippedNote(result, skipped.includes('tools') ? ['tools', 'arguments'] : []));
  io.stdout.write(flags.json ? `${JSON.stringify(explanation)}\n` : formatExplanation(explanation));
  return ExitCode.OK;
}
