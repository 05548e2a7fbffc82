/**
 * `plan graph <file|->`: the compiled dependency graph as Mermaid, DOT or JSON on stdout; with
 * `--result <run.json>` (what `plan run --json` printed), each call coloured by how it ended.
 */
import { compile } from '../../compile/compile.js';
import type { CompiledPlan } from '../../compile/types.js';
import { type GraphTextOptions, toDot, toGraphJson, toMermaid } from '../../report/graph-export.js';
import { readRunResult } from './graph-result.js';
import { resolveLimits } from '../../language/limits.js';
import { CliInputError } from '../cli-input-error.js';
import { type CommonFlags, loadCompileInputs } from '../flags/compile-inputs.js';
import { ExitCode } from '../exit-codes.js';
import {
  formatCompileReport,
  formatDiagnostics,
  shouldUseColor,
  formatSkippedNote,
  skippedChecks,
} from '../output/index.js';
import type { CliIo } from '../io.js';
import { GRAPH_FORMATS, type GraphFormat } from './flag-choices.js';

export interface GraphFlags extends CommonFlags {
  /**
   * The picture's format.
   * @default 'mermaid'
   */
  readonly format?: string;
  /**
   * Shorthand for `--format json`.
   * @default false
   */
  readonly json?: boolean;
  /**
   * What `plan run --json` printed for this plan: each call is coloured by its status, the calls
   * inside workflows too.
   * @default undefined (the plan alone)
   */
  readonly result?: string;
}

const RENDER: Record<GraphFormat, (plan: CompiledPlan, options: GraphTextOptions) => string> = {
  mermaid: toMermaid,
  dot: toDot,
  json: (plan, options) => `${JSON.stringify(toGraphJson(plan, options), null, 2)}\n`,
};

/** @returns 0 printed, 1 plan invalid (diagnostics on stderr). Input problems throw CliInputError. */
export async function graphCommand(file: string, flags: GraphFlags, io: CliIo): Promise<number> {
  const format = chooseFormat(flags);
  const inputs = await loadCompileInputs(file, flags, io);
  const result = compile(inputs.text, inputs.options);
  const options = { file: inputs.source, color: shouldUseColor(io.stderr, io.env) };
  if (!result.ok || !result.plan) {
    io.stderr.write(formatCompileReport(result, options));
    return ExitCode.INVALID;
  }
  if (result.diagnostics.length > 0) io.stderr.write(formatDiagnostics(result.diagnostics, options));
  // The picture does not depend on input values: only unchecked tools are worth a note.
  const skipped = skippedChecks(result, { tools: inputs.options.tools !== undefined });
  io.stderr.write(formatSkippedNote(result, skipped.includes('tools') ? ['tools', 'arguments'] : []));
  const run =
    flags.result === undefined
      ? undefined
      : await readRunResult(flags.result, result.plan, { io, limits: resolveLimits(inputs.options.limits) });
  io.stdout.write(RENDER[format](result.plan, run === undefined ? {} : { result: run }));
  return ExitCode.OK;
}

function chooseFormat(flags: GraphFlags): GraphFormat {
  const format = flags.format ?? (flags.json ? 'json' : 'mermaid');
  if (!(GRAPH_FORMATS as readonly string[]).includes(format)) {
    throw new CliInputError(`--format must be one of ${GRAPH_FORMATS.join(', ')}, not '${format}'`);
  }
  if (flags.json && format !== 'json')
    throw new CliInputError(`--json asks for JSON but --format asks for ${format}; use one of them`);
  return format as GraphFormat;
}
