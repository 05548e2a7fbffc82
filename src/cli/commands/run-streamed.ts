/**
 * `plan run -` on a pipe: the calls start as they arrive, not once standard input has ended. The
 * plan text is read by the incremental reader; a document whose calls may run early (a bare
 * call array, a solution, an eager plan message with its mode before its calls) starts its run
 * at its first call. Any other text (a lazy plan, text that is not JSON, a plan whose calls are
 * only known whole) is read to its end and run exactly as a plan file is: the same diagnostics,
 * the same exit code. A text that goes bad after calls started gets the whole text's compile
 * report and exit code too, with one line saying which calls had started.
 */
import { FirstInterrupt } from '../first-interrupt.js';
import { compile } from '../../compile/compile.js';
import type { CompiledPlan } from '../../compile/types.js';
import { streamPlanText, withFirstCall } from '../../language/stream/index.js';
import { decodeUtf8 } from '../../language/text/index.js';
import type { Limits } from '../../language/limits.js';
import { startRun } from '../../run/run.js';
import type { LatentFunction, RunEvent, RunResult } from '../../run/types.js';
import { approvedByYesLine, unaskedCallsText } from '../approvals/index.js';
import { CliInputError } from '../cli-input-error.js';
import type { CompileInputs } from '../flags/compile-inputs.js';
import {
  PlainView,
  QUIET_VIEW,
  type RunView,
  formatCompileReport,
  formatDiagnostics,
  formatJournalNotes,
  formatRunSummary,
  shouldUseColor,
} from '../output/index.js';
import { ExitCode } from '../exit-codes.js';
import { type CliIo, tooLongError } from '../io.js';
import { eventLine, isSubRunEvent } from './event-line.js';
import { RunExitGuard } from './run-exit-guard.js';

/** The flags of `plan run` a streamed run reads (see RunFlags). */
export interface StreamedRunFlags {
  readonly json?: boolean;
  readonly events?: boolean;
  readonly yes?: boolean;
  readonly failFast?: boolean;
}

/** The run options `plan run` gives every run, made by the command. */
export interface StreamedRunSettings {
  readonly inputs: CompileInputs;
  readonly limits: Limits;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  /** What `--json` prints for a result. */
  readonly toJson: (result: RunResult) => unknown;
  /** The tools module's `latent` export, if any. */
  readonly latent?: LatentFunction;
}

/**
 * Runs the plan on standard input as it arrives. Returns the exit code, or the whole text when no
 * call could start before the text ended (the caller runs it as a plan file).
 */
export async function runStreamedStdin(
  flags: StreamedRunFlags,
  io: CliIo,
  settings: StreamedRunSettings,
): Promise<number | { text: string }> {
  const { inputs, limits } = settings;
  const stdin = new StdinText(io, limits);
  const streamed = streamPlanText(stdin.chunks(), { source: inputs.source, limits });
  const iterator = streamed.calls[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || stdin.ended) {
    // No call could start before the text ended: read whole, it is run as a file is.
    await iterator.return?.();
    return { text: await stdin.whole() };
  }
  const color = shouldUseColor(io.stderr, io.env);
  const format = { file: inputs.source, color };
  const view: RunView = flags.json ? QUIET_VIEW : new PlainView(io.stderr, { events: flags.events === true });
  let unapproved = 0;
  const exitGuard = new RunExitGuard({
    plan: { indexOf: () => undefined } as unknown as CompiledPlan,
    source: inputs.source,
  });
  const onEvent = (event: RunEvent) => {
    if (flags.events) io.stdout.write(`${eventLine(event)}\n`);
    if (isSubRunEvent(event)) return;
    exitGuard.onEvent(event);
    view.onEvent(event);
  };
  const interrupt = new FirstInterrupt();
  let result: RunResult;
  exitGuard.arm();
  try {
    result = await startRun(withFirstCall(streamed.calls, iterator, first.value), {
      tools: inputs.options.tools ?? [],
      limits,
      ...(inputs.options.input && { input: inputs.options.input }),
      ...(inputs.options.state && { state: inputs.options.state }),
      ...(settings.concurrency !== undefined && { concurrency: settings.concurrency }),
      ...(settings.timeoutMs !== undefined && { timeoutMs: settings.timeoutMs }),
      signal: interrupt.signal,
      failFast: flags.failFast === true,
      approve: (request) => {
        if (!flags.yes) {
          if (request.kind === 'call') unapproved++;
          return false;
        }
        io.stderr.write(approvedByYesLine(request, inputs.source));
        return true;
      },
      onEvent,
      ...(settings.latent && { latent: settings.latent }),
      // --strict: a call with a warning found as it arrives does not run, as the whole plan would not.
      ...(inputs.options.strict === true && { strict: true }),
    }).result;
  } finally {
    exitGuard.disarm();
    interrupt.dispose();
    view.stop();
  }
  const text = await stdin.whole();
  const compiled = compile(text, inputs.options);
  if (!compiled.ok || !compiled.plan || compiled.plan.mode === 'lazy') {
    // The same report and exit code as for the whole text, and which calls had already started.
    io.stderr.write(formatCompileReport(compiled, format));
    const started = result.calls.filter((c) => c.attempts > 0).map((c) => c.id);
    if (started.length > 0) {
      io.stderr.write(
        `plan: ${started.length} call${started.length === 1 ? '' : 's'} of ${inputs.source} had started before the plan was read whole: ${started.join(', ')}\n`,
      );
    }
    return ExitCode.INVALID;
  }
  const plan = compiled.plan;
  io.stderr.write(formatJournalNotes(result, { color }));
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(settings.toJson(result))}\n`);
  } else {
    if (plan.diagnostics.length > 0) io.stderr.write(formatDiagnostics(plan.diagnostics, format));
    io.stderr.write(
      formatRunSummary(result, {
        ...format,
        interrupted: interrupt.interrupted,
        failFast: flags.failFast === true,
        plan,
        failures: true,
      }),
    );
    io.stderr.write(unaskedCallsText(unapproved));
  }
  if (interrupt.interrupted) return ExitCode.INTERRUPTED;
  if (result.status === 'succeeded') return ExitCode.OK;
  if (result.status === 'rejected') return ExitCode.REJECTED;
  return ExitCode.RUN_FAILED;
}

/**
 * Standard input as text chunks, decoded as UTF-8 as it comes; the bytes are kept, so that the
 * whole text (and any problem with its bytes) is what readText makes of it. One iterator over
 * stdin, stepped by hand: what the run did not read, whole() reads on.
 */
class StdinText {
  readonly #iterator: AsyncIterator<string | Uint8Array>;
  readonly #maxBytes: number;
  readonly #maxChars: number;
  readonly #bytes: Buffer[] = [];
  #size = 0;
  /** Standard input has ended. */
  ended = false;
  /** Why reading or decoding stopped, if it did. */
  #failed: unknown = null;

  constructor(io: CliIo, limits: Limits) {
    this.#iterator = io.stdin[Symbol.asyncIterator]();
    this.#maxChars = limits.maxTextLength;
    // UTF-8 takes at most 3 bytes per UTF-16 code unit: past this many bytes no text fits.
    this.#maxBytes = limits.maxTextLength * 3;
  }

  /** The next bytes, kept; null at the end. */
  async #next(): Promise<Buffer | null> {
    if (this.ended) return null;
    const step = await this.#iterator.next();
    if (step.done) {
      this.ended = true;
      return null;
    }
    const buffer = typeof step.value === 'string' ? Buffer.from(step.value) : Buffer.from(step.value);
    this.#size += buffer.length;
    if (this.#size > this.#maxBytes) throw tooLongError('plan file', '-', this.#maxChars);
    this.#bytes.push(buffer);
    return buffer;
  }

  async *chunks(): AsyncGenerator<string> {
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    try {
      for (let buffer = await this.#next(); buffer !== null; buffer = await this.#next()) {
        yield decoder.decode(buffer, { stream: true });
      }
      yield decoder.decode();
    } catch (cause) {
      // Bad bytes, too many, or an unreadable stdin: whole() says so, as readText would.
      this.#failed = cause;
    }
  }

  /** The whole text, read to its end. @throws {CliInputError} as readText does. */
  async whole(): Promise<string> {
    if (this.#failed instanceof CliInputError) throw this.#failed;
    try {
      while ((await this.#next()) !== null);
    } catch (cause) {
      this.#failed ??= cause;
      if (cause instanceof CliInputError) throw cause;
    }
    if (this.#failed !== null && !(this.#failed instanceof TypeError)) {
      throw new CliInputError(
        `cannot read the plan file from standard input: ${(this.#failed as Error).message}`,
      );
    }
    const decoded = decodeUtf8(Buffer.concat(this.#bytes));
    if ('problem' in decoded) throw new CliInputError(`plan file '<stdin>' ${decoded.problem.message}`);
    return decoded.text;
  }
}
