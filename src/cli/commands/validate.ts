/** `plan validate <file|->`: compile a plan and report every diagnostic. */
import { type CompileResult, compile } from '../../compile/compile.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { ExecutionMode } from '../../language/document.js';
import { type CommonFlags, loadCompileInputs } from '../flags/compile-inputs.js';
import { ExitCode } from '../exit-codes.js';
import {
  formatCompileReport,
  shouldUseColor,
  formatSkippedNote,
  type SkippedCheck,
  skippedChecks,
} from '../output/index.js';
import type { CliIo } from '../io.js';

export interface ValidateFlags extends CommonFlags {
  /**
   * Print one JSON object to stdout instead of human output on stderr.
   * @default false
   */
  readonly json?: boolean;
}

/** What `validate --json` prints (schemas/ describes it). */
export interface ValidateJson {
  readonly ok: boolean;
  readonly mode: ExecutionMode;
  readonly calls: number;
  readonly edges: number;
  /** A topological order of call ids; empty when the plan is invalid. */
  readonly order: string[];
  readonly diagnostics: Diagnostic[];
  /** The checks skipped for want of --tools or --input (printed by the CLI, always). */
  readonly skipped?: SkippedCheck[];
}

/** @returns 0 valid (warnings allowed), 1 errors found. Input problems throw CliInputError. */
export async function validateCommand(file: string, flags: ValidateFlags, io: CliIo): Promise<number> {
  const inputs = await loadCompileInputs(file, flags, io);
  const result = compile(inputs.text, inputs.options);
  const skipped = skippedChecks(result, { tools: inputs.options.tools !== undefined });
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(toValidateJson(result, skipped))}\n`);
  } else {
    const options = { file: inputs.source, color: shouldUseColor(io.stderr, io.env) };
    io.stderr.write(formatCompileReport(result, options) + formatSkippedNote(result, skipped));
  }
  return result.ok ? ExitCode.OK : ExitCode.INVALID;
}

/**
 * @param skipped The checks skipped, when known: the CLI always gives them; without them the
 *   object has exactly `ok`, `mode`, `calls`, `edges`, `order` and `diagnostics`.
 */
export function toValidateJson(result: CompileResult, skipped?: SkippedCheck[]): ValidateJson {
  const plan = result.plan;
  return {
    ok: result.ok,
    mode: plan?.mode ?? result.document?.mode ?? 'eager',
    calls: result.document?.calls.length ?? 0,
    edges: plan?.edgeCount ?? 0,
    order: plan ? plan.order.map((i) => plan.calls[i]!.id) : [],
    diagnostics: result.diagnostics,
    ...(skipped && { skipped }),
  };
}
