/**
 * A call's attempts: the argument check, the tool (local, latent or remote) bounded by its timeout
 * and the run's abort, the output check, and the retries after a failure.
 */
import { RunCancelledError, ToolTimeoutError } from '../../errors.js';
import type { JsonObject } from '../../language/document.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { acceptAnswer, type Accepted, type AnswerHost } from './accept-answer.js';
import { toCallError } from './call-error.js';
import type { CallRecord } from '../call-record.js';
import { contractError, endsAttempts, isContractError } from './error-origin.js';
import { retriesOf, retryDelay, sleep } from '../retry.js';
import type { RunEventDraft } from '../run-event.js';
import { describeSchemaErrors } from '../schema-errors.js';
import { type CallInputHost, outputPaths, remoteCall } from './call-inputs.js';
import type { CallStatus, ParentRun, RemoteInvoker, RunOptions } from '../types.js';
import { type ForEachHost, registeredFor } from './for-each.js';
import { parentRunFor } from './journal-parent.js';

/** What a call's attempts need of the run (the Runner is one). */
export interface AttemptHost extends AnswerHost, CallInputHost, ForEachHost {
  readonly records: readonly CallRecord[];
  readonly tools: ToolRegistry;
  readonly options: RunOptions;
  readonly mode: 'eager' | 'lazy';
  readonly runId: string;
  readonly remote: RemoteInvoker | undefined;
  /** Given to each tool as ToolContext.run: a workflow's sub-run takes its options from it. */
  readonly asParent: ParentRun;
  readonly listening: boolean;
  readonly stopping: boolean;
  aborted: boolean;
  /** See Runner.drainClock. */
  readonly drainClock: number;
  drainClockFresh: boolean;
  readonly controllers: Set<AbortController>;
  readonly shared: AbortController;
  readonly racingOrder: number[];
  readonly outputPathTexts: (readonly string[] | undefined)[];
  event(event: RunEventDraft): void;
  end(i: number, status: CallStatus): void;
  fail(i: number, error: unknown, toolsOwn?: boolean): void;
  succeed(i: number, accepted: Accepted): void;
  asyncEnded(): void;
  asyncFailed(i: number, error: unknown): void;
}

/** The signal of a run without one: never aborted. */
const NEVER_ABORTED = new AbortController().signal;

type Registered = NonNullable<ReturnType<ToolRegistry['get']>>;

/**
 * Checks the arguments and runs the attempts; synchronous while the tool is. True while the call
 * goes on asynchronously: it then reports its end once, to `run.asyncEnded` (or
 * `run.asyncFailed` should the run's own code throw), with no promise per call to carry it.
 */
export function executeCall(run: AttemptHost, i: number, args: JsonObject): boolean {
  const call = run.calls[i]!;
  const record = run.records[i]!;
  const registered = registeredFor(run, i);
  // The drain's reading when this is the first call it starts (see Runner.drainClock).
  if (run.drainClockFresh) {
    run.drainClockFresh = false;
    record.startedAt = run.drainClock;
  } else record.startedAt = Date.now();
  if (!registered) {
    run.fail(i, run.failure(i, `unknown tool "${call.tool}"`, 'UNKNOWN_TOOL'));
    return false;
  }
  const { validateInput } = registered;
  if (validateInput && !validateInput(args)) {
    const failure = run.failure(
      i,
      describeSchemaErrors('arguments', validateInput.errors),
      'INVALID_ARGUMENTS',
    );
    run.fail(i, failure);
    return false;
  }
  return tryAttempt(run, i, registered, args, 1);
}

/** Attempt number `attempt` and the retries after it; true while it goes on (see executeCall). */
export function tryAttempt(
  run: AttemptHost,
  i: number,
  registered: Registered,
  args: JsonObject,
  attempt: number,
): boolean {
  const call = run.calls[i]!;
  const tool = registered.tool;
  // A remote call's time limit is enforced per attempt where it runs: here it would also
  // count the time the call waits for a free worker.
  const timeoutMs = run.remote && !tool.latent ? 0 : (tool.timeoutMs ?? run.options.timeoutMs ?? 0);
  run.records[i]!.attempts = attempt;
  // The controller exists before anyone hears of the start, so an abort from an observer of
  // call:start reaches this attempt.
  // Without a timeout every attempt can share the run's controller (only a run abort fires
  // it); a per-attempt one is made only when a timeout may abort this attempt alone.
  const controller = timeoutMs > 0 ? new AbortController() : run.shared;
  // The shared one is the run's own: its abort reaches it without the set.
  if (controller !== run.shared) run.controllers.add(controller);
  // A run aborted already (not merely stopped by fail-fast, which lets running calls finish)
  // cancels this attempt too.
  if (run.options.signal?.aborted && !controller.signal.aborted) {
    controller.abort(contractError(new RunCancelledError()));
    if (controller === run.shared) run.aborted = true;
  }
  if (run.listening) run.event({ type: 'call:start', call: call.id, tool: call.tool, attempt, args });
  let value: unknown;
  try {
    value = runAttempt(run, i, tool, args, controller, timeoutMs);
  } catch (error) {
    return attemptFailed(run, i, registered, args, attempt, controller, error);
  }
  if (!isThenable(value)) return attemptAnswered(run, i, registered, args, attempt, controller, value);
  if (controller === run.shared) raceShared(run, i, registered, args, attempt, value);
  else {
    Promise.resolve(value).then(
      (answer) => goOn(run, i, () => attemptAnswered(run, i, registered, args, attempt, controller, answer)),
      (error: unknown) =>
        goOn(run, i, () => attemptFailed(run, i, registered, args, attempt, controller, error)),
    );
  }
  return true;
}

/**
 * The next step of a call that went asynchronous, from a promise's callback: the call's end is
 * reported once, when no step is left running.
 */
function goOn(run: AttemptHost, i: number, step: () => boolean): void {
  let running: boolean;
  try {
    running = step();
  } catch (e) {
    return run.asyncFailed(i, e);
  }
  if (!running) run.asyncEnded();
}

export function attemptAnswered(
  run: AttemptHost,
  i: number,
  registered: Registered,
  args: JsonObject,
  attempt: number,
  controller: AbortController,
  value: unknown,
): boolean {
  let accepted: Accepted;
  try {
    // The JSON form of a branch value chooses only for a tool that declares it, run here: a
    // worker decides with its own definition and sends its choice as a branch() value.
    const { tool } = registered;
    accepted = acceptAnswer(run, i, value, tool.branchJson === true && !(run.remote && !tool.latent));
  } catch (e) {
    return attemptFailed(run, i, registered, args, attempt, controller, e);
  }
  // What is checked is what is stored: the JSON copy (NaN has become null by now).
  const { validateOutput } = registered;
  if (validateOutput && !validateOutput(accepted.value)) {
    const failure = run.failure(i, describeSchemaErrors('output', validateOutput.errors), 'INVALID_OUTPUT');
    return attemptFailed(run, i, registered, args, attempt, controller, failure);
  }
  if (controller !== run.shared) run.controllers.delete(controller);
  run.succeed(i, accepted);
  return false;
}

export function attemptFailed(
  run: AttemptHost,
  i: number,
  registered: Registered,
  args: JsonObject,
  attempt: number,
  controller: AbortController,
  error: unknown,
): boolean {
  if (controller !== run.shared) run.controllers.delete(controller);
  if (run.stopping && run.options.signal?.aborted) {
    run.end(i, 'cancelled');
    return false;
  }
  const retries = retriesOf(registered.tool);
  // A remote invoker has made the retries already.
  // A person's no (from inside a workflow) is an answer, not a fault: asking again is not retrying.
  if (attempt > retries.limit || (run.remote && !registered.tool.latent) || endsAttempts(error)) {
    // Only the final failure is routed: the tool's own error (its throw, its latent function's,
    // its worker's) may go to a declared error alternative; planmode's own never does.
    run.fail(i, error, !isContractError(error));
    return false;
  }
  const call = run.calls[i]!;
  const delayMs = retryDelay(retries, attempt);
  run.event({
    type: 'call:retry',
    call: call.id,
    tool: call.tool,
    attempt,
    delayMs,
    error: toCallError(error),
  });
  sleep(delayMs, run.options.signal ?? NEVER_ABORTED).then(
    () => goOn(run, i, () => tryAttempt(run, i, registered, args, attempt + 1)),
    () =>
      goOn(run, i, () => {
        run.end(i, 'cancelled');
        return false;
      }),
  );
  return true;
}

/** One attempt: the tool (or the model, for a latent tool), bounded by timeout and abort. */
export function runAttempt(
  run: AttemptHost,
  i: number,
  tool: Registered['tool'],
  args: JsonObject,
  controller: AbortController,
  timeoutMs: number,
): unknown {
  const call = run.calls[i]!;
  // The shared controller is aborted with the run only (its flag is cheaper than the getter).
  if (controller === run.shared ? run.aborted : controller.signal.aborted) throw controller.signal.reason;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (timeoutMs > 0) {
    timer = setTimeout(() => {
      // The run's own limit, not the tool's: a contract error, never handled.
      controller.abort(contractError(new ToolTimeoutError(timeoutMs, { call: call.id, tool: call.tool })));
    }, timeoutMs);
  }
  let pending: unknown;
  try {
    if (tool.latent) {
      const latent = run.options.latent;
      // An eager plan asks no model: its latent calls carry their results (E_NO_OUTPUT when
      // compiled with the tools; a plan compiled without them is caught here).
      if (run.mode === 'eager') {
        throw run.failure(
          i,
          `"${tool.name}" is a latent tool and the plan is eager: the call needs its result as _output (E_NO_OUTPUT), or the plan must be lazy for the model to be asked`,
          'NO_MODEL',
        );
      }
      if (!latent) {
        throw run.failure(
          i,
          `"${tool.name}" is a latent tool: its result comes from the model, so run() needs a latent function to run this lazy plan`,
          'NO_MODEL',
        );
      }
      pending = latent({ call: call.id, tool: tool.name, definition: tool, args, signal: controller.signal });
    } else if (run.remote && !call.forEach) {
      pending = run.remote(remoteCall(run, i, tool, args, controller.signal));
    } else if (typeof tool.execute !== 'function') {
      throw run.failure(i, `tool "${tool.name}" has no execute function`, 'NOT_EXECUTABLE');
    } else {
      pending = tool.execute(args, {
        toolCallId: call.id,
        abortSignal: controller.signal,
        outputPaths: outputPaths(run, i),
        context: run.options.context,
        // A _forEach call's elements get theirs (see for-each.ts).
        run: call.forEach ? run.asParent : parentRunFor(run, tool, [call.id]),
      });
    }
  } catch (e) {
    clearTimeout(timer);
    throw e;
  }
  if (!isThenable(pending)) {
    // A synchronous result: nothing can have aborted it in between, nothing to race.
    clearTimeout(timer);
    return pending;
  }
  // The run's abort is raced by tryAttempt (raceShared), with one listener for the whole run.
  if (controller === run.shared) return pending;
  return new Promise<unknown>((resolve, reject) => {
    const settle = (fn: () => void) => {
      clearTimeout(timer);
      controller.signal.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => settle(() => reject(controller.signal.reason));
    if (controller.signal.aborted) {
      // Aborted while the tool was starting: its answer is discarded, a rejection included
      // (else it would be an unhandled rejection, which ends a CLI run).
      pending.then(undefined, ignore);
      return onAbort();
    }
    controller.signal.addEventListener('abort', onAbort, { once: true });
    // A result that arrives after a timeout or abort is discarded: settle runs once.
    pending.then(
      (value) => {
        if (!controller.signal.aborted) settle(() => resolve(value));
      },
      (error) => {
        if (!controller.signal.aborted) settle(() => reject(error));
      },
    );
  });
}

/**
 * The answer of an attempt on the run's shared signal (no timeout), raced against the run's
 * abort: the run keeps one abort listener and settles every such attempt itself (Runner.abort
 * looks at `racingOrder`), instead of one listener per call on the shared signal. The answer is
 * handled as soon as it arrives: no promise of its own, no closure but the two callbacks.
 */
function raceShared(
  run: AttemptHost,
  i: number,
  registered: Registered,
  args: JsonObject,
  attempt: number,
  pending: PromiseLike<unknown>,
): void {
  if (run.aborted) {
    const reason: unknown = run.shared.signal.reason;
    pending.then(undefined, ignore);
    queueMicrotask(() => settleLater(run, i, registered, args, attempt, true, reason));
    return;
  }
  // The run's abort takes i out of the set: a result that arrives after it is discarded.
  const record = run.records[i]!;
  record.racing = true;
  run.racingOrder.push(i);
  pending.then(
    (value) => {
      if (!record.racing) return;
      record.racing = false;
      settleLater(run, i, registered, args, attempt, false, value);
    },
    (error: unknown) => {
      if (!record.racing) return;
      record.racing = false;
      settleLater(run, i, registered, args, attempt, true, error);
    },
  );
}

/** An attempt on the shared signal settled (or the run was aborted): the call goes on or ends. */
export function settleLater(
  run: AttemptHost,
  i: number,
  registered: Registered,
  args: JsonObject,
  attempt: number,
  failed: boolean,
  outcome: unknown,
): void {
  let running: boolean;
  try {
    running = failed
      ? attemptFailed(run, i, registered, args, attempt, run.shared, outcome)
      : attemptAnswered(run, i, registered, args, attempt, run.shared, outcome);
  } catch (e) {
    return run.asyncFailed(i, e);
  }
  if (!running) run.asyncEnded();
}

/**
 * The run's abort reaches every attempt: each attempt's own controller and the shared one are
 * aborted, and the attempts racing the shared signal (see raceShared) are settled from here.
 */
export function abortAttempts(run: AttemptHost): void {
  run.controllers.add(run.shared);
  const cancelled = contractError(new RunCancelledError());
  for (const controller of run.controllers) controller.abort(cancelled);
  const reason: unknown = run.shared.signal.reason;
  const racing = run.racingOrder.splice(0);
  for (const i of racing) {
    const record = run.records[i]!;
    if (!record.racing) continue;
    record.racing = false;
    const registered = registeredFor(run, i)!;
    queueMicrotask(() => settleLater(run, i, registered, record.args!, record.attempts, true, reason));
  }
}

/** Swallows the late rejection of an answer nobody waits for any more. */
function ignore(): void {}

/** A promise-like value; one whose `then` cannot even be read is not (its copy will say why). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return (
      value !== null &&
      (typeof value === 'object' || typeof value === 'function') &&
      typeof (value as PromiseLike<unknown>).then === 'function'
    );
  } catch {
    return false;
  }
}
