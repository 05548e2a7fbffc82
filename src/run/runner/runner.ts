/**
 * The scheduling core of a run: a call is looked at once, when its last dependency ends; ready
 * calls are dispatched under the concurrency bound; an ending releases its successors. No
 * polling and no timer ticks (timers only for timeouts and retry delays). Endings never recurse
 * into the next call: they feed a work list that one loop drains, so a 100k-call cascade of
 * skips uses no stack.
 */
import { randomUUID } from 'node:crypto';
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import type { OrderGates } from '../../compile/order/index.js';
import { ToolExecutionError, type ToolErrorCode } from '../../errors.js';
import type { Limits } from '../../language/limits.js';
import type { JsonObject } from '../../language/document.js';
import { coveredPath } from '../../language/paths.js';
import { SelectionLimitError } from '../../language/run-selection.js';
import { ToolRegistry } from '../../tools/registry.js';
import { runTools } from './run-tools.js';
import { abortAttempts, type Accepted, argumentSources, executeCall } from '../call/index.js';
import { type ArgumentSources, MissingValues, resolveArguments } from '../call/index.js';
import { approveCall } from './call-approval.js';
import { CallSlots, dispatchGroupOf, endIfGated, type Successors } from '../schedule/index.js';
import type { CallRecord } from '../call-record.js';
import { askReuse, replay, writePlannedOutput } from './earlier-results.js';
import { checkedInitial } from './initial-values.js';
import type { RunJournal } from '../journal/index.js';
import { runToEnd } from './run-lifecycle.js';
import { isoNow, type RunEventDraft } from '../run-event.js';
import { runJournal, sharedController, streamedCalls, wholePlanCalls } from './run-setup.js';
import { afterPoll } from './event-loop.js';
import { checkRunOptions } from '../run-options.js';
import { contractError, failCall } from '../call/index.js';
import { alternativesOf, RunState, writeOutput } from '../state/index.js';
import type { StreamState } from './streamed-plan.js';
import { callEndEvent } from './call-end-event.js';
import { journalEvent, StartsAhead } from './start-ahead.js';
import { FailureTaint } from '../state/index.js';
import type { CallStatus, ParentRun, RemoteInvoker, RunEvent, RunOptions, RunResult } from '../types.js';

/**
 * Ready calls looked at in one go before the run yields to the event loop once: synchronous
 * tools run inline, so without a pause a long run of them would keep signals, timers and
 * Ctrl-C out until its end.
 */
const DRAIN_BURST = 1024;

/**
 * How long one burst of synchronous work may hold the event loop before the run yields to it
 * (between calls: a tool's own code is never interrupted).
 */
const SLOW_BURST_MS = 50;

/**
 * Looked-at calls between two readings of the clock when none ran a tool synchronously (a reuse
 * hook or a schema check can still take time): one reading per call would cost more than most
 * calls' own work.
 */
const CLOCK_EVERY = 64;

/** Consumed entries the work list keeps before it starts over at its front (setting an array's length is a runtime call). */
const WORK_RESET = 4096;

export class Runner {
  plan: CompiledPlan;
  calls: readonly CompiledCall[];
  readonly tools: ToolRegistry;
  records: CallRecord[];
  /** Per call, how many of its dependencies have not ended yet. */
  remaining: number[];
  /** Per call, the calls that wait for it (shared by every run of a whole plan). */
  successors: Successors;
  /** Per call, the calls it follows in program order (see order-gates.ts); mostly none. */
  gates: OrderGates;
  /** Set while a plan arrives as a stream. */
  readonly stream: StreamState | null;
  readonly slots: CallSlots;
  /**
   * Calls whose attempt waited on the run's shared signal, in start order (CallRecord.racing says
   * which still do): the run's abort settles those itself (no listener or set per call).
   */
  readonly racingOrder: number[] = [];
  /**
   * A reading of Date.now() taken as the current drain began, for the next call that starts in
   * it (then spent). NaN, not 0: the field holds a double from the start, so storing a reading
   * never changes the runner's object shape.
   */
  drainClock = Number.NaN;
  drainClockFresh = false;
  /** Set once the run's abort has come (nothing reads the signal's getter per call). */
  aborted = false;
  /** Set when the call just looked at ran a tool, or a hook, synchronously: drain reads the clock. */
  ranSync = false;
  readonly taint = new FailureTaint();
  readonly work: number[] = [];
  workHead = 0;
  draining = false;
  /** Set while a drain waits for its turn on the event loop. */
  yielding = false;
  /** Set once a burst of synchronous calls held the event loop past SLOW_BURST_MS. */
  blocked = false;
  ended = 0;
  readonly state: RunState;
  /** What a call gets for a value it reads: frozen and shared (see RunState.share). */
  readonly share = <T>(value: T): T => this.state.share(value);
  readonly limits: Limits;
  /** Most calls in flight at once; also most elements of one `_forEach` call at once. */
  readonly concurrency: number;
  readonly input: JsonObject;
  /** What references read: the input, and the state as of the call that reads it. */
  readonly roots: { input: JsonObject; state: JsonObject };
  /** What argument resolution reads, one object for the run. */
  argumentSources: ArgumentSources;
  /** Set on abort or fail-fast: nothing new starts. */
  stopping = false;
  readonly controllers = new Set<AbortController>();
  /** The signal of every attempt without a timeout; aborted with the run. */
  readonly shared: AbortController;
  /** Per call, its output paths as written; shared by every run of the same compiled plan. */
  outputPathTexts: (readonly string[] | undefined)[];
  finish: (() => void) | null = null;
  readonly startedAt = Date.now();
  /** Approvals being asked now; while any is, the time counts as waiting, not running. */
  approvalsPending = 0;
  approvalSince = 0;
  approvalWaitMs = 0;
  journal: RunJournal | undefined;
  /** Starts written ahead with the ends that free them (start-ahead.ts); null without a journal. */
  ahead: StartsAhead | null;
  resumed = new Set<number>();
  readonly runId: string;
  /** Set when non-latent calls run elsewhere (`RunOptions.remote`). */
  readonly remote: RemoteInvoker | undefined;
  /** `RunOptions.reuse`, read once: a call checks one field when there is none. */
  readonly reuseHook: RunOptions['reuse'];
  /** What a workflow call's sub-run takes from this run (ToolContext.run): made once per run. */
  readonly asParent: ParentRun;

  constructor(
    plan: CompiledPlan | null,
    readonly options: RunOptions,
    readonly emit: ((event: RunEvent) => void) | null,
    readonly source: AsyncIterable<unknown> | null = null,
  ) {
    const { concurrency, limits } = checkRunOptions(options);
    this.limits = limits;
    this.concurrency = concurrency;
    this.runId = options.runId ?? randomUUID();
    this.shared = sharedController(options);
    this.remote = options.remote;
    this.reuseHook = options.reuse;
    // A sub-run's slots follow the top run's: a pause anywhere holds every run under it.
    this.slots = new CallSlots({ concurrency, runner: this, group: dispatchGroupOf(options) });
    ({ tools: this.tools, asParent: this.asParent } = runTools({ options, emit, run: this }));
    this.input = checkedInitial('input', plan?.input, options.input, limits).value;
    ({
      plan: this.plan,
      calls: this.calls,
      stream: this.stream,
      records: this.records,
      remaining: this.remaining,
      successors: this.successors,
      gates: this.gates,
      outputPathTexts: this.outputPathTexts,
    } = plan ? wholePlanCalls(plan, this.tools) : streamedCalls(options, this.tools, limits));
    const initial = checkedInitial('state', plan?.state, options.state, limits);
    this.state = new RunState(initial.value, { limits, size: initial.size });
    this.roots = { input: this.input, state: this.state.value };
    this.argumentSources = argumentSources(this.roots, this.state, this.calls);
    this.journal = runJournal({
      plan,
      options,
      mode: this.mode,
      input: this.input,
      state: this.state.value,
      tools: this.tools,
      limits,
    });
    this.ahead = StartsAhead.for(this, this.journal);
  }

  /** Runs the plan to its end (see run-lifecycle.ts). */
  start(): Promise<RunResult> {
    return runToEnd(this);
  }

  /** The lazier of the plan's mode and the `mode` option: an option never makes a lazy plan eager. */
  get mode(): 'eager' | 'lazy' {
    // lazierMode's rule, written out: the getter is read per call, and this file stays as it is.
    return this.options.mode === 'lazy' ? 'lazy' : this.plan.mode;
  }

  /** Someone hears events: an observer, an iterator or the journal. Otherwise none is built. */
  get listening(): boolean {
    return this.emit !== null || this.journal !== undefined;
  }

  event(event: RunEventDraft): void {
    if (!this.listening) return;
    // Every caller passes a fresh object literal: it gets its time in place, not a copy.
    (event as { at?: string }).at = isoNow();
    const full = event as RunEvent;
    if (this.journal) journalEvent(this, this.journal, this.ahead, full);
    this.emit?.(full);
  }

  /** Nothing new starts; every attempt's signal is aborted (see abortAttempts). */
  abort(): void {
    this.stopping = true;
    this.aborted = true;
    abortAttempts(this);
    // The calls a pause holds back end cancelled now, not at a resume that may never come.
    this.slots.resume();
  }

  /** Looks at every call whose dependencies have all ended, one at a time, without recursion. */
  drain(): void {
    // Most endings of a wide plan make nothing ready: no clock, no try.
    if (this.draining || this.yielding || this.workHead === this.work.length) return;
    this.draining = true;
    try {
      let looked = 0;
      // Date.now, not performance.now: the same reading serves as the first call's start.
      const burstStart = Date.now();
      this.drainClock = burstStart;
      // Observers are the caller's code, called as calls get ready: then the reading may be old.
      this.drainClockFresh = !this.listening;
      while (this.workHead < this.work.length) {
        if (++looked > DRAIN_BURST) return this.yieldThenDrain();
        const i = this.work[this.workHead++]!;
        this.ranSync = false;
        this.ready(i);
        // A synchronous tool that took long: signals (Ctrl-C) wait behind it, so let them in.
        if ((this.ranSync || looked % CLOCK_EVERY === 0) && Date.now() - burstStart > SLOW_BURST_MS) {
          this.blocked = true;
          if (this.workHead < this.work.length) return this.yieldThenDrain();
        }
      }
      if (this.workHead >= WORK_RESET) {
        this.work.length = 0;
        this.workHead = 0;
      }
    } finally {
      this.draining = false;
      this.drainClockFresh = false;
    }
  }

  /** Lets the event loop run (signals, timers, Ctrl-C) before the next burst of ready calls. */
  yieldThenDrain(): void {
    this.yielding = true;
    afterPoll(() => {
      this.yielding = false;
      this.drain();
    });
  }

  ready(i: number): void {
    const call = this.calls[i]!;
    if (this.stopping) return this.end(i, 'cancelled');
    if (this.listening) this.event({ type: 'call:ready', call: call.id, tool: call.tool });
    if (this.gates.size !== 0 && endIfGated(this, i)) return;
    const registered = this.tools.get(call.tool);
    const record = this.records[i]!;
    let args: ReturnType<typeof resolveArguments>;
    // Resolved already when its start was written ahead.
    if (this.ahead !== null && this.ahead.take(i)) args = record.args!;
    else {
      // One roots object for the run, its state brought up to date (a write may replace the root).
      this.roots.state = this.state.value;
      try {
        args = resolveArguments(call, this.argumentSources);
      } catch (e) {
        // A selection past its budget of values visited (run-selection.ts) fails the call.
        if (e instanceof SelectionLimitError) return this.fail(i, this.failure(i, e.message, 'LIMIT'));
        throw e;
      }
      if (args instanceof MissingValues) {
        const failedWriter = args.missing.some(
          (ref) => ref.root === 'state' && this.taint.culprit(coveredPath(ref).segments) >= 0,
        );
        record.missing = args.missing.map((ref) => ref.text);
        return this.end(i, failedWriter ? 'upstream_failed' : 'skipped');
      }
      if (registered?.defaults && !call.forEach && this.options.applyDefaults !== false)
        args = registered.defaults.fill(args);
      record.args = args;
    }
    // An eager call's _output is the plan's own: the journal's copy of it is never needed.
    const done = call.hasOutput && this.mode === 'eager' ? undefined : this.journal?.resultFor(call.id, args);
    if (done) return replay(this, i, done);
    const tool = registered?.tool;
    // A latent result the model wrote into the plan: written, nothing runs.
    if (call.hasOutput && this.mode === 'eager') return writePlannedOutput(this, i);
    if (tool && this.reuseHook && askReuse(this, i, tool, args)) return;
    if (tool?.needsApproval) {
      // Asking calls the caller's code at once: the drain's reading is not the next call's start.
      this.drainClockFresh = false;
      void approveCall(this, i, args);
      return;
    }
    this.dispatch(i, args);
  }

  /** Starts call i within the concurrency bound (see CallSlots). */
  dispatch(i: number, args: JsonObject): void {
    this.slots.dispatch(i, args);
  }

  /**
   * Runs call i: true while it runs asynchronously (it then reports its end to `asyncEnded` or
   * `asyncFailed`, once), false when it ended synchronously (what is ready is looked at).
   */
  guarded(i: number, args: JsonObject): boolean {
    let running = false;
    try {
      if (this.stopping) this.end(i, 'cancelled');
      else running = executeCall(this, i, args);
    } catch (e) {
      this.unexpected(i, e);
    }
    if (!running) {
      this.ranSync = true;
      this.drain();
    }
    return running;
  }

  /**
   * A call that ran asynchronously ended: what its ending made ready is looked at (so it queues
   * behind those waiting already), then its slot is freed for whoever waits first.
   */
  asyncEnded(): void {
    this.drain();
    this.slots.release();
  }

  /** Instead of asyncEnded, should the run's own code throw while such a call ends. */
  asyncFailed(i: number, error: unknown): void {
    this.unexpected(i, error);
    this.asyncEnded();
  }

  /** Whatever went wrong outside the tool (a state write, the journal), the call still ends. */
  unexpected(i: number, error: unknown): void {
    if (this.records[i]!.status === null) this.fail(i, error);
  }

  succeed(i: number, accepted: Accepted): void {
    const { outputPath: output, id, tool } = this.calls[i]!;
    const record = this.records[i]!;
    const { value, choice } = accepted;
    try {
      const unjournaled = this.journal?.resultTooLong(id, tool, value, accepted.size);
      if (unjournaled !== undefined) throw this.failure(i, unjournaled, 'LIMIT');
      if (output)
        writeOutput(this, i, alternativesOf(output.op, output.paths.length, choice), value, accepted.size);
    } catch (e) {
      return this.fail(i, e);
    }
    record.output = value;
    record.branch = output?.op === '||' ? choice : null;
    this.end(i, 'succeeded');
  }

  /**
   * A failure of call i that planmode makes (a bad answer, a missing model, ...), never the
   * tool's own: marked as a contract error, so it is never handled.
   */
  failure(i: number, message: string, code: ToolErrorCode): ToolExecutionError {
    const call = this.calls[i]!;
    return contractError(new ToolExecutionError(message, { call: call.id, tool: call.tool, code }));
  }

  /**
   * Ends call i `failed`. Only the tool's own error (`toolsOwn`) may go to its declared error
   * alternative; everything else fails the call unhandled (see call-failure.ts).
   */
  fail(i: number, error: unknown, toolsOwn = false): void {
    failCall(this, i, error, toolsOwn);
  }

  end(i: number, status: CallStatus): void {
    const call = this.calls[i]!;
    const record = this.records[i]!;
    if (record.status !== null) return;
    record.status = status;
    record.endedAt = record.startedAt === null ? null : Date.now();
    if (status === 'upstream_failed' && call.outputPath) {
      for (const path of call.outputPath.paths) this.taint.mark(path.segments, i);
    }
    this.ahead?.ended(i, record);
    // Released before its end is told: the journal writes the next calls' starts with it.
    this.successors.release(i, this.remaining, this.work);
    if (this.listening) this.event(callEndEvent(this, i, status));
    this.ended++;
    // A streamed plan is not over until its stream is.
    if (this.ended === this.calls.length && !this.stream?.open) this.finish?.();
  }
}
