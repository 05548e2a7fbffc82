/**
 * `plan run <file|-> --tools <module>`: compile a plan and run it with the tools of an ES
 * module. Progress goes to stderr: a live view on a terminal; off one a summary at the end
 * (with `--events`, one plain line per event before it). `--json` prints one result object to
 * stdout, and `--events` one JSON line per event on stdout before it.
 */
import { FirstInterrupt } from '../first-interrupt.js';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile } from '../../compile/compile.js';
import type { CompiledPlan } from '../../compile/types.js';
import { planOf } from '../../compile/plan-of.js';
import { type RunHandle, startRunListened } from '../../run/run.js';
import type {
  ApprovalRequest,
  ApprovalResponse,
  LatentFunction,
  RunEvent,
  RunResult,
} from '../../run/types.js';
import {
  formatCallQuestion,
  formatPlanListing,
  formatPlanSimulation,
  lineReader,
  Prompter,
  approvedByYesLine,
  PAUSED_LINE,
  unaskedCallsText,
  askAboutPlanWithEditor,
} from '../approvals/index.js';
import { CliInputError } from '../cli-input-error.js';
import { type CommonFlags, loadCompileInputs } from '../flags/compile-inputs.js';
import {
  PlainView,
  QUIET_VIEW,
  type RunView,
  formatJournalNotes,
  formatCompileReport,
  formatDiagnostics,
  shouldUseColor,
  LiveView,
  checkReportPath,
  writeReportFile,
  formatRunSummary,
  paint,
} from '../output/index.js';
import { ExitCode } from '../exit-codes.js';
import { type CliIo, STDIN } from '../io.js';
import type { RedisFlags } from '../flags/redis-flags.js';
import { type OtlpFlags, otlpExport } from '../flags/otlp-flag.js';
import { concurrencyFlag, millisecondsFlag } from '../flags/whole-number.js';
import { type QuotaFlags, quotaFlags } from '../flags/quota-flags.js';
import { eventLine, isSubRunEvent } from './event-line.js';
import { RunExitGuard } from './run-exit-guard.js';
import { runStreamedStdin } from './run-streamed.js';
import { resolveLimits } from '../../language/limits.js';
import { RUN_MODES } from './flag-choices.js';

export interface RunFlags extends CommonFlags, RedisFlags, OtlpFlags, QuotaFlags {
  /**
   * `lazy` makes the plan lazy. `eager` cannot make a plan that says `"mode": "lazy"` eager: it
   * stays lazy, and one line on stderr says so.
   * @default the plan's own (eager unless it says lazy)
   */
  readonly mode?: string;
  /**
   * Most tool calls running at once: a whole number >= 1, or `unlimited` (or `Infinity`).
   * @default '16' (the executor's default)
   */
  readonly concurrency?: string;
  /**
   * Time limit per attempt in ms for tools without their own `timeoutMs`; 0 for none.
   * @default '0'
   */
  readonly timeout?: string;
  /**
   * Start no new call after the first unhandled failure.
   * @default false
   */
  readonly failFast?: boolean;
  /**
   * Approve the plan (lazy mode) and every call whose tool needs approval, without asking; each
   * approval is one line on stderr (`approved by --yes: call 2 issueRefund {...}`).
   * @default false
   */
  readonly yes?: boolean;
  /**
   * Print one JSON object to stdout when the run ends, and no progress on stderr.
   * @default false
   */
  readonly json?: boolean;
  /**
   * Print every event as one JSON line on stdout and, without --json, as one plain line on
   * stderr before the summary.
   * @default false
   */
  readonly events?: boolean;
  /**
   * Directory of the run journal.
   * @default undefined (no journal)
   */
  readonly journal?: string;
  /**
   * With --journal: reuse what an interrupted run of the same plan completed, or what one of an
   * earlier version of it completed for calls that did not change.
   * @default false
   */
  readonly resume?: boolean;
  /**
   * Write the HTML run report here when the run ends, whatever its status.
   * @default undefined (no report)
   */
  readonly report?: string;
}

export { type RunJson, type RunJsonCall, toRunJson } from './run-json.js';
import { toRunJson } from './run-json.js';

const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

/**
 * @returns 0 succeeded, 1 plan invalid, 3 run failed (or stopped by --fail-fast), 4 rejected at
 *   approval, 130 interrupted. Input problems throw CliInputError (2).
 */
export async function runCommand(file: string, flags: RunFlags, io: CliIo): Promise<number> {
  const mode = chooseMode(flags.mode);
  const concurrency = concurrencyFlag(flags.concurrency, '--concurrency', { unlimited: true });
  const limiter = quotaFlags(flags);
  const timeoutMs = millisecondsFlag(flags.timeout, '--timeout', 0);
  const otlp = await otlpExport(flags);
  // Distributed, the workers run the tools: here a manifest (schemas) is enough.
  const distributed = flags.redis !== undefined;
  if (distributed) (await import('../flags/redis-flags.js')).checkRedisFlags(flags);
  // With --mcp alone, every tool comes from the servers.
  const toolsFile =
    flags.tools === undefined && flags.mcpTools !== undefined
      ? undefined
      : requireToolsModule(flags.tools, distributed);
  // A plan piped in runs as it arrives, but where the whole plan is needed first: a journal
  // (its digests bind the whole plan), a report file, workers, and a lazy run.
  const streams =
    file === STDIN &&
    mode !== 'lazy' &&
    flags.journal === undefined &&
    flags.report === undefined &&
    otlp === null &&
    !distributed;
  let inputs = await loadCompileInputs(file, flags, io, { readPlan: !streams });
  if (streams) {
    const latentFunction =
      toolsFile === undefined || extname(toolsFile).toLowerCase() === '.json'
        ? undefined
        : await latentFrom(toolsFile);
    const streamed = await runStreamedStdin(flags, io, {
      inputs,
      limits: resolveLimits(inputs.options.limits),
      toJson: toRunJson,
      ...(concurrency !== undefined && { concurrency }),
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(latentFunction && { latent: latentFunction }),
    });
    if (typeof streamed === 'number') return streamed;
    inputs = { ...inputs, text: streamed.text };
  }
  const compiled = compile(inputs.text, { ...inputs.options, ...(mode && { mode }) });
  const color = shouldUseColor(io.stderr, io.env);
  const format = { file: inputs.source, color };
  if (!compiled.ok || !compiled.plan) {
    io.stderr.write(formatCompileReport(compiled, format));
    return ExitCode.INVALID;
  }
  const plan = compiled.plan;
  if (mode === 'eager' && plan.mode === 'lazy') {
    // The lazier mode wins: an option never runs a plan its author marked lazy behind a person's back.
    io.stderr.write(
      `plan: --mode eager does not apply: ${inputs.source} says "mode": "lazy", and an option can only make a plan lazier; it runs as a lazy plan, once approved\n`,
    );
  }
  if (!distributed) requireExecutable(plan, toolsFile ?? '--mcp');
  if (flags.report !== undefined) await checkReportPath(flags.report);
  if (flags.resume && flags.journal === undefined) throw new CliInputError('--resume needs --journal <dir>');
  const latent =
    toolsFile === undefined || extname(toolsFile).toLowerCase() === '.json'
      ? undefined
      : await latentFrom(toolsFile);
  const dispatcher = distributed
    ? await (await import('../flags/redis-flags.js')).openDispatcher(flags, io)
    : undefined;

  // A person can be asked only with a terminal on both ends, and stdin not taken by a file.
  const interactive =
    io.stdin.isTTY === true && io.stderr.isTTY === true && ![file, flags.input, flags.state].includes(STDIN);
  const askForPlan = plan.mode === 'lazy' && !flags.yes && interactive;
  const refused = plan.mode === 'lazy' && !flags.yes && !interactive;
  if (refused) {
    io.stderr.write(
      `plan: not running ${inputs.source}: a lazy plan runs only once approved, and there is no terminal to ask on; pass --yes to approve it\n`,
    );
  } else if (!flags.json && !askForPlan && plan.diagnostics.length > 0) {
    io.stderr.write(formatDiagnostics(plan.diagnostics, format));
  }

  const view: RunView =
    flags.json || refused
      ? QUIET_VIEW
      : canRedraw(io, flags)
        ? new LiveView({ stream: io.stderr, color, calls: plan.calls })
        : new PlainView(io.stderr, { events: flags.events === true });
  const prompter = interactive ? new Prompter(lineReader(io.stdin), io.stderr) : null;
  let unapproved = 0;
  let handle: RunHandle | undefined;
  const approve = (request: ApprovalRequest): ApprovalResponse | Promise<ApprovalResponse> => {
    if (flags.yes) {
      view.pause();
      io.stderr.write(approvedByYesLine(request, inputs.source));
      view.resume();
      return true;
    }
    if (!prompter) {
      if (request.kind === 'call') unapproved++;
      return false;
    }
    // No call starts while a person reads and answers: dispatch pauses, and says so.
    const hooks = {
      before: () => {
        view.pause();
        handle?.pause();
        if (request.kind === 'call') io.stderr.write(`${paint(PAUSED_LINE, color, 'dim')}\n`);
      },
      after: () => {
        handle?.resume();
        view.resume();
      },
    };
    if (request.kind === 'plan') {
      const listing = `${formatPlanListing(plan, format)}${formatPlanSimulation(plan, { ...format, source: compiled.document?.source ?? null })}`;
      const askLine = (question: string) => prompter.askLine(question, hooks);
      return askAboutPlanWithEditor(request, { askLine, listing, text: inputs.text, io, color });
    }
    return prompter.ask(formatCallQuestion(request, color), hooks);
  };

  const interrupt = new FirstInterrupt();
  // A tool that ends the process mid-run leaves a line and a failing exit code, not a silent 0.
  const exitGuard = new RunExitGuard({ plan, source: inputs.source });
  const onEvent = (event: RunEvent) => {
    if (flags.events) io.stdout.write(`${eventLine(event)}\n`);
    if (isSubRunEvent(event)) return;
    exitGuard.onEvent(event);
    view.onEvent(event);
  };
  let result: RunResult;
  exitGuard.arm();
  try {
    handle = startRunListened(plan, {
      tools: plan.tools!,
      ...(inputs.options.limits && { limits: inputs.options.limits }),
      ...(inputs.options.input && { input: inputs.options.input }),
      ...(inputs.options.state && { state: inputs.options.state }),
      ...(concurrency !== undefined && { concurrency }),
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(limiter && { limiter }),
      signal: interrupt.signal,
      failFast: flags.failFast === true,
      approve,
      onEvent,
      ...(latent && { latent }),
      ...(flags.journal !== undefined && { journal: flags.journal, resume: flags.resume === true }),
      ...(dispatcher && { remote: dispatcher.invoke }),
      ...(otlp && { tracing: otlp.tracing }),
    });
    result = await handle.result;
  } finally {
    exitGuard.disarm();
    await Promise.all([dispatcher?.close(), otlp?.close()]);
    interrupt.dispose();
    // Ctrl-C at a prompt leaves the cursor at the end of the question.
    if (prompter?.open) io.stderr.write('\n');
    prompter?.close();
    view.stop();
  }

  // On stderr, with --json too: a call that ran again is an effect a script should hear of.
  io.stderr.write(formatJournalNotes(result, { color }));
  // A plan edited at its approval ran in place of the file's: from here on, it is the plan.
  if (result.edited)
    io.stderr.write(`plan: ran the plan as edited at approval, not ${inputs.source} as written\n`);
  const ran = planOf(result) ?? plan;
  if (flags.json) io.stdout.write(`${JSON.stringify(toRunJson(result))}\n`);
  else if (!refused) {
    io.stderr.write(
      formatRunSummary(result, {
        ...format,
        interrupted: interrupt.interrupted,
        failFast: flags.failFast === true,
        plan: ran,
        failures: !(view instanceof LiveView),
      }),
    );
    io.stderr.write(unaskedCallsText(unapproved));
  }
  if (flags.report !== undefined)
    await writeReportFile(flags.report, { plan: ran, result }, io, { color, quiet: flags.json === true });
  if (interrupt.interrupted) return ExitCode.INTERRUPTED;
  if (result.status === 'succeeded') return ExitCode.OK;
  if (result.status === 'rejected') return ExitCode.REJECTED;
  return ExitCode.RUN_FAILED;
}

/**
 * A tools module may also export `latent(request)`: the model stand-in that produces latent
 * tools' results (the bundled examples do). The module is cached by Node, so this is no second load.
 */
async function latentFrom(toolsFile: string): Promise<LatentFunction | undefined> {
  const module = (await import(pathToFileURL(resolve(toolsFile)).href)) as { latent?: unknown };
  return typeof module.latent === 'function' ? (module.latent as LatentFunction) : undefined;
}

/**
 * The live view needs a terminal that moves its cursor (not TERM=dumb), and one that nothing
 * else writes to: `--events` lines on the same terminal would break its redraws.
 */
function canRedraw(io: CliIo, flags: RunFlags): boolean {
  return io.stderr.isTTY === true && io.env.TERM !== 'dumb' && !(flags.events && io.stdout.isTTY === true);
}

function chooseMode(mode: string | undefined): 'eager' | 'lazy' | undefined {
  if (mode === undefined) return undefined;
  if (!(RUN_MODES as readonly string[]).includes(mode))
    throw new CliInputError(`--mode must be one of ${RUN_MODES.join(', ')}, not '${mode}'`);
  return mode as 'eager' | 'lazy';
}

function requireToolsModule(tools: string | undefined, manifestAllowed: boolean): string {
  if (tools === undefined) {
    throw new CliInputError(
      'plan run needs --tools <module> (a .js/.mjs ES module that exports tools with execute functions) or --mcp <server>',
    );
  }
  const extension = extname(tools).toLowerCase();
  if (extension === '.json' && manifestAllowed) return tools;
  if (extension === '.json') {
    throw new CliInputError(
      `--tools '${tools}' is a JSON manifest, which can validate a plan but not run it; plan run needs a .js/.mjs ES module that exports tools with execute functions`,
    );
  }
  if (tools !== STDIN && !MODULE_EXTENSIONS.has(extension)) {
    throw new CliInputError(
      `--tools '${tools}' is not a module; plan run needs a .js/.mjs ES module that exports tools with execute functions`,
    );
  }
  return tools;
}

/**
 * Every tool the plan runs needs code; latent tools come from the plan's `_output` (eager: the
 * compile makes sure every latent call has one) or from the module's `latent` export (lazy).
 */
function requireExecutable(plan: CompiledPlan, toolsFile: string): void {
  const missing = new Map<string, string[]>();
  for (const call of plan.calls) {
    const tool = plan.tools?.get(call.tool)?.tool;
    if (!tool || tool.latent || typeof tool.execute === 'function') continue;
    if (call.hasOutput && plan.mode === 'eager') continue;
    missing.set(tool.name, [...(missing.get(tool.name) ?? []), call.id]);
  }
  if (missing.size === 0) return;
  const list = [...missing].map(
    ([tool, calls]) => `'${tool}' (call${calls.length > 1 ? 's' : ''} ${calls.join(', ')})`,
  );
  throw new CliInputError(
    `tools module '${toolsFile}': ${list.join(', ')} ${missing.size > 1 ? 'have' : 'has'} no execute function; give every tool the plan runs an execute(args, ctx) function`,
  );
}
