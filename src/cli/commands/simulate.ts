/** `plan simulate <file|->`: the dry run (nothing executes) on the terminal, or as one JSON object. */
import { compile } from '../../compile/compile.js';
import { simulateCompiled } from '../../simulate/simulate.js';
import type { ArgumentError, Scenario, Simulation } from '../../simulate/types.js';
import { CliInputError } from '../cli-input-error.js';
import { type CommonFlags, loadCompileInputs } from '../flags/compile-inputs.js';
import { ExitCode } from '../exit-codes.js';
import {
  formatCompileReport,
  formatDiagnostics,
  shouldUseColor,
  checkReportPath,
  writeReportFile,
  formatSimulation,
} from '../output/index.js';
import type { CliIo } from '../io.js';
import { wholeNumber } from '../flags/whole-number.js';

export interface SimulateFlags extends CommonFlags {
  /**
   * Seed of the sampled outputs.
   * @default '1'
   */
  readonly seed?: string;
  /**
   * Most scenarios listed.
   * @default '256'
   */
  readonly maxScenarios?: string;
  /**
   * Print one JSON object to stdout instead of human output on stderr.
   * @default false
   */
  readonly json?: boolean;
  /**
   * Write the HTML dry-run report here (graph, scenarios, critical path).
   * @default undefined (no report)
   */
  readonly report?: string;
}

/**
 * One scenario in the `--json` object: `choices`, `run`, `skipped`, `argumentErrors`, then
 * `varies` and `emptyForEach`, and `workflowChoices` when the scenario makes choices inside a
 * workflow call.
 */
export interface SimulateJsonScenario {
  readonly choices: Readonly<Record<string, number>>;
  readonly run: readonly string[];
  readonly skipped: readonly string[];
  readonly argumentErrors: readonly ArgumentError[];
  readonly varies: readonly string[];
  readonly emptyForEach: readonly string[];
  readonly workflowChoices?: Scenario['workflowChoices'];
}

/** What `simulate --json` prints (schemas/simulate-output.schema.json describes it). */
export interface SimulateJson {
  readonly scenarios: readonly SimulateJsonScenario[];
  readonly truncated: boolean;
  readonly criticalPath: readonly string[];
  readonly maxParallelism: number;
  readonly criticalPathWeight: number;
  readonly widestLevel: Simulation['widestLevel'];
  readonly branchGroups: Simulation['branchGroups'];
  readonly workflows: Simulation['workflows'];
  readonly forEach: Simulation['forEach'];
  /** Per call of the baseline, the defaults its tool fills into its arguments (see Simulation.defaults). */
  readonly defaults: NonNullable<Simulation['defaults']>;
  readonly diagnostics: Simulation['diagnostics'];
}

/**
 * @returns 0 nothing wrong found; 1 the plan is invalid, or an argument error was found (in
 *   some scenario a resolved argument fails its tool's inputSchema: that call would fail when
 *   run). Input problems throw CliInputError (2).
 */
export async function simulateCommand(file: string, flags: SimulateFlags, io: CliIo): Promise<number> {
  const seed = wholeNumber(flags.seed, '--seed', 0);
  const maxScenarios = wholeNumber(flags.maxScenarios, '--max-scenarios', 1);
  if (flags.tools === undefined && flags.mcpTools === undefined) {
    throw new CliInputError(
      "plan simulate needs --tools <file> or --mcp <server>: a dry run samples each call's output from its tool's outputSchema",
    );
  }
  const inputs = await loadCompileInputs(file, flags, io);
  const compiled = compile(inputs.text, inputs.options);
  const format = { file: inputs.source, color: shouldUseColor(io.stderr, io.env) };
  if (!compiled.ok || !compiled.plan) {
    if (flags.json) io.stdout.write(`${JSON.stringify({ ...EMPTY, diagnostics: compiled.diagnostics })}\n`);
    else io.stderr.write(formatCompileReport(compiled, format));
    return ExitCode.INVALID;
  }
  if (flags.report !== undefined) await checkReportPath(flags.report);
  const positioned = simulateCompiled(compiled.plan, compiled.document?.source ?? null, {
    ...(seed !== undefined && { seed }),
    ...(maxScenarios !== undefined && { maxScenarios }),
    ...(inputs.options.limits && { limits: inputs.options.limits }),
  });
  if (flags.json) io.stdout.write(`${JSON.stringify(toSimulateJson(positioned))}\n`);
  else {
    const warnings = positioned.diagnostics.filter((d) => d.code !== 'E_SIM_ARGS');
    if (warnings.length > 0) io.stderr.write(formatDiagnostics(warnings, format));
    io.stderr.write(formatSimulation(positioned, format));
  }
  if (flags.report !== undefined) {
    await writeReportFile(flags.report, { plan: compiled.plan, simulation: positioned }, io, {
      color: format.color,
      quiet: flags.json === true,
    });
  }
  return positioned.diagnostics.some((d) => d.severity === 'error') ? ExitCode.INVALID : ExitCode.OK;
}

const EMPTY = {
  scenarios: [],
  truncated: false,
  criticalPath: [],
  maxParallelism: 0,
  criticalPathWeight: 0,
  widestLevel: { level: 0, calls: [] },
  branchGroups: [],
  workflows: {},
  forEach: {},
  defaults: {},
};

export function toSimulateJson(simulation: Simulation): SimulateJson {
  return {
    scenarios: simulation.scenarios.map((s) => ({
      choices: s.choices,
      run: s.run,
      skipped: s.skipped,
      argumentErrors: s.argumentErrors,
      varies: s.varies,
      emptyForEach: s.emptyForEach ?? [],
      ...(s.workflowChoices && { workflowChoices: s.workflowChoices }),
    })),
    truncated: simulation.truncated,
    criticalPath: simulation.criticalPath,
    maxParallelism: simulation.maxParallelism,
    criticalPathWeight: simulation.criticalPathWeight,
    widestLevel: simulation.widestLevel,
    branchGroups: simulation.branchGroups,
    workflows: simulation.workflows,
    forEach: simulation.forEach,
    defaults: simulation.defaults ?? {},
    diagnostics: simulation.diagnostics,
  };
}
