/**
 * run() and startRun(): execute a compiled plan against a state object: outputs are written to
 * their paths, each call runs once its inputs are settled, every call ends in one terminal state
 * (eager or lazy). The work is the Runner's (runner.ts); this file takes the plan in.
 */
import { compile } from '../compile/compile.js';
import type { CompiledPlan } from '../compile/types.js';
import { isCompiledPlan } from '../compile/compiled-plan.js';
import { PlanValidationError } from '../errors.js';
import { asStrict } from '../language/diagnostics.js';
import type { PlanInput } from '../language/document.js';
import { EventChannel } from './event-channel.js';
import { Runner } from './runner/index.js';
import { streamedPlan } from './runner/index.js';
import type { RunEvent, RunOptions, RunResult } from './types.js';
import { openTrace, tracingFor } from './trace/open-trace.js';
import type { RunTrace } from './trace/run-trace.js';

/** A run in progress: its events as they happen, and its result when it ends. */
export interface RunHandle {
  readonly events: AsyncIterable<RunEvent>;
  readonly result: Promise<RunResult>;
  /**
   * No call starts from now on: the calls running now run to their end (their signals are not
   * aborted, so no effect is left half done), and every call that has not started ends
   * `cancelled`. For a plan that streams in, the caller also ends its iterable: the run reads no
   * call after this one. The plan loop halts a streamed run when the reply it came in turns out
   * not to be a valid solution.
   */
  halt(): void;
  /**
   * No call is dispatched from now on until {@link resume}: calls running go on (their retries
   * and `_forEach` elements too), calls that get ready wait, in the sub-runs of the workflow
   * calls running too (at any depth). For a prompt that should not race
   * the run (the CLI pauses while it asks for an approval). Halting or aborting a paused run
   * ends the waiting calls `cancelled`.
   */
  pause(): void;
  /** Dispatch goes on: the calls that got ready while paused start first, in the order they did. */
  resume(): void;
  /** True between pause() and resume(). */
  readonly paused: boolean;
}

/**
 * Runs a plan: a compiled plan, or anything `compile` takes (it is compiled with the same
 * tools, input, state and mode first).
 *
 * @throws {PlanValidationError} when the plan does not compile.
 * @throws {TypeError} for a bad option value.
 */
export async function run(
  plan: CompiledPlan | PlanInput | AsyncIterable<unknown>,
  options: RunOptions,
): Promise<RunResult> {
  // Without an event iterator nobody reads a buffer of events, so none is kept: a run that
  // nobody observes builds no event objects at all.
  return launch(plan, options, null).result;
}

/**
 * Like {@link run}, with the events as an async iterator too. `plan` may also be an async
 * iterable of calls (the model still writing): each call starts as soon as it can.
 */
export function startRun(
  plan: CompiledPlan | PlanInput | AsyncIterable<unknown>,
  options: RunOptions,
): RunHandle {
  return launch(plan, options, new EventChannel<RunEvent>());
}

/**
 * @internal Like {@link startRun}, for a caller that listens with `onEvent` and wants the handle
 * (to pause or halt): its `events` iterator is empty, so no event is kept for a reader that
 * never comes. The CLI pauses dispatch with it while a person answers a prompt.
 */
export function startRunListened(plan: CompiledPlan | PlanInput, options: RunOptions): RunHandle {
  return launch(plan, options, null);
}

function launch(
  plan: CompiledPlan | PlanInput | AsyncIterable<unknown>,
  options: RunOptions,
  channel: EventChannel<RunEvent> | null,
): RunHandle {
  const events: AsyncIterable<RunEvent> = channel ?? { async *[Symbol.asyncIterator]() {} };
  if (isAsyncIterable(plan) && options.mode === 'lazy') {
    // A lazy plan is approved whole: take the stream in, then run it as a document.
    let halted = false;
    let paused = false;
    let inner: RunHandle | undefined;
    const handle = (async () => {
      const calls: unknown[] = [];
      for await (const call of plan) calls.push(call);
      inner = launch({ type: 'plan', mode: 'lazy', plan: calls }, options, channel);
      if (paused) inner.pause();
      if (halted) inner.halt();
      return inner;
    })();
    const halt = () => {
      halted = true;
      inner?.halt();
    };
    return new Handle(
      events,
      handle.then((h) => h.result),
      halt,
      {
        pause: () => {
          paused = true;
          inner?.pause();
        },
        resume: () => {
          paused = false;
          inner?.resume();
        },
        paused: () => paused,
      },
    );
  }
  const userOnEvent = options.onEvent;
  const stream = isAsyncIterable(plan) ? plan : null;
  // Null unless the run traces: then its trace listens as an observer does, so a run that does
  // not trace pays nothing per call (no events are built when nobody listens).
  const tracing = tracingFor(options);
  let trace: RunTrace | null = null;
  const emit =
    channel || userOnEvent || tracing
      ? (event: RunEvent) => {
          trace?.onEvent(event);
          channel?.push(event);
          if (userOnEvent) {
            try {
              userOnEvent(event);
            } catch {
              // An observer's failure is its own: the run goes on.
            }
          }
        }
      : null;
  keepRunnerShape();
  const runner = new Runner(stream ? null : toCompiledPlan(plan, options), options, emit, stream);
  const started = tracing
    ? openTrace(tracing, runner.asParent, () => runner.calls).then((opened) => {
        trace = opened;
        return runner.start();
      })
    : runner.start();
  const result = started.finally(() => channel?.close());
  // Not abort(): the attempts running keep their signals, and the run's status is not cancelled
  // by a signal; what had not started ends cancelled as the Runner ends it once stopping.
  const halt = () => {
    runner.stopping = true;
    // What a pause holds back ends cancelled now (see Runner.guarded).
    runner.slots.resume();
  };
  const slots = runner.slots;
  return new Handle(events, result, halt, {
    pause: () => slots.pause(),
    resume: () => slots.resume(),
    paused: () => slots.paused,
  });
}

/** How a handle pauses and resumes dispatch, and tells whether it is paused. */
interface Dispatch {
  readonly pause: () => void;
  readonly resume: () => void;
  readonly paused: () => boolean;
}

/**
 * A run's handle. A class, not an object literal: a literal with a `get paused()` of its own
 * made every run's handle an object V8 could not free young (measured: 9 full collections
 * instead of 2 over 80,000 short runs, a 5-call run 29 -> 45-60 µs). The methods are own
 * arrow functions, so `const { halt } = startRun(...)` still works.
 */
class Handle implements RunHandle {
  readonly pause: () => void;
  readonly resume: () => void;
  readonly #dispatch: Dispatch;

  constructor(
    readonly events: AsyncIterable<RunEvent>,
    readonly result: Promise<RunResult>,
    readonly halt: () => void,
    dispatch: Dispatch,
  ) {
    this.#dispatch = dispatch;
    this.pause = dispatch.pause;
    this.resume = dispatch.resume;
  }

  get paused(): boolean {
    return this.#dispatch.paused();
  }
}

/** A Runner of no calls, never started, kept for the life of the process: see keepRunnerShape. */
let shapeKeeper: Runner | undefined;

/**
 * Keeps one Runner alive from the first run on. The engine's optimised code for the run loop
 * depends on the runner's object shape; when a full collection finds no runner alive (between
 * two runs), that shape dies and all that code is thrown away, so the next run goes unoptimised
 * (measured: a 1k-call run right after a full collection took ~10x its steady time). The kept
 * runner holds no plan, tools or state of the caller's.
 */
function keepRunnerShape(): void {
  shapeKeeper ??= new Runner(streamedPlan([]), { tools: [] }, null);
}

function toCompiledPlan(plan: CompiledPlan | PlanInput, options: RunOptions): CompiledPlan {
  if (isCompiledPlan(plan)) {
    // Compiled elsewhere, perhaps not strictly: its warnings are errors now.
    if (options.strict === true && plan.diagnostics.some((d) => d.severity === 'warning'))
      throw new PlanValidationError(plan.diagnostics.map(asStrict));
    return plan;
  }
  const compiled = compile(plan, {
    tools: options.tools,
    ...(options.input && { input: options.input }),
    ...(options.state && { state: options.state }),
    ...(options.mode && { mode: options.mode }),
    ...(options.strict === true && { strict: true }),
  });
  if (!compiled.ok) throw new PlanValidationError(compiled.diagnostics);
  return compiled.plan!;
}

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}
