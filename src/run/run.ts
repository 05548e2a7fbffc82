/**
 * run(): executes a compiled plan against a state object: writes outputs to their paths, runs
 * each call once its inputs are settled, ends every call in one terminal state (eager or lazy).
 *
 * Event-driven: a call is looked at once, when its last dependency ends; ready calls go to a
 * p-queue that bounds concurrency. No polling and no timer ticks (timers only for timeouts
 * and retry delays). Endings never recurse into the next call: they feed a work list that one
 * loop drains, so a 100k-call cascade of skips uses no stack.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import { compile } from '../compile/compile.js';
import { orderCalls } from '../compile/order.js';
import { rememberPlan } from '../compile/plan-of.js';
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import {
  ApprovalRejectedError,
  PlanValidationError,
  RunCancelledError,
  ToolExecutionError,
  type ToolErrorCode,
  ToolTimeoutError,
} from '../errors.js';
import { PlanBuilder } from '../compile/plan-builder.js';
import type { Diagnostic } from '../language/diagnostics.js';
import { checkJson, cloneJson, copyJson, type JsonProblem, jsonSize } from '../language/json-value.js';
import type { Limits } from '../language/limits.js';
import { capDiagnostics, DiagnosticList, error as diagnostic } from '../language/diagnostics.js';
import { joinPointer } from '../language/pointer.js';
import { positionDiagnostics } from '../language/parse-plan.js';
import { SourceText } from '../language/source.js';
import type { JsonObject, PlanDocument } from '../language/document.js';
import { coveredPath, formatPath } from '../language/paths.js';
import { ToolRegistry } from '../tools/registry.js';
import { type ApprovalResponse, readApproval } from './approval.js';
import { MissingValues, resolveArguments } from './arguments.js';
import { BRANCH_KEY, isBranchValue } from './branch.js';
import { toCallError } from './call-error.js';
import { describeSchemaErrors } from './schema-errors.js';
import { EventChannel } from './event-channel.js';
import { Journal } from './journal.js';
import { runIdentity } from './journal-digests.js';
import { planRecordCheck } from './journal-plan-check.js';
import { retriesOf, retryDelay, sleep } from './retry.js';
import { MAX_DELAY_MS } from '../tools/tool-values.js';
import { checkRunOptions } from './run-options.js';
import { describeValue } from '../language/describe-value.js';
import { RunState, StateWriteError } from './state-store.js';
import { FailureTaint } from './taint.js';
import type {
  CallError,
  CallReport,
  CallStatus,
  RemoteCall,
  RemoteInvoker,
  ReusedResult,
  RunEvent,
  RunOptions,
  RunResult,
  RunStatus,
} from './types.js';
import { isCompiledPlan } from '../compile/compiled-plan.js';

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
 * Runs `then` once the event loop has been through its poll phase, where signals arrive.
 * One setImmediate from an I/O callback runs in the same turn's check phase, before the next
 * poll: a Ctrl-C queued while a synchronous tool ran would still not be seen. A second hop,
 * queued during the check phase, runs in the next turn, after its poll.
 */
function afterPoll(then: () => void): void {
  setImmediate(() => setImmediate(then));
}

/** The signal of a run without one: never aborted. */
const NEVER_ABORTED = new AbortController().signal;

/** What a queue task gives back for a call that ended synchronously. */
const ENDED: Promise<void> = Promise.resolve();

type Registered = NonNullable<ReturnType<ToolRegistry['get']>>;

/** A run in progress: its events as they happen, and its result when it ends. */
export interface RunHandle {
  readonly events: AsyncIterable<RunEvent>;
  readonly result: Promise<RunResult>;
}

/**
 * Runs a plan: a compiled plan, or anything `compile` takes (it is compiled with the same
 * tools, input, state and mode first).
 *
 * @throws {PlanValidationError} when the plan does not compile.
 * @throws {TypeError} for a bad option value.
 */
export async function run(
  plan: CompiledPlan | PlanDocument | string | AsyncIterable<unknown> | unknown,
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
  plan: CompiledPlan | PlanDocument | string | AsyncIterable<unknown> | unknown,
  options: RunOptions,
): RunHandle {
  return launch(plan, options, new EventChannel<RunEvent>());
}

function launch(plan: unknown, options: RunOptions, channel: EventChannel<RunEvent> | null): RunHandle {
  const events: AsyncIterable<RunEvent> = channel ?? { async *[Symbol.asyncIterator]() {} };
  if (isAsyncIterable(plan) && options.mode === 'lazy') {
    // A lazy plan is approved whole: take the stream in, then run it as a document.
    const handle = (async () => {
      const calls: unknown[] = [];
      for await (const call of plan) calls.push(call);
      return launch({ type: 'plan', mode: 'lazy', plan: calls }, options, channel);
    })();
    return { events, result: handle.then((h) => h.result) };
  }
  const userOnEvent = options.onEvent;
  const stream = isAsyncIterable(plan) ? plan : null;
  const emit =
    channel || userOnEvent
      ? (event: RunEvent) => {
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
  const runner = new Runner(stream ? null : toCompiledPlan(plan, options), options, emit, stream);
  const result = runner.start().finally(() => channel?.close());
  return { events, result };
}

function toCompiledPlan(plan: unknown, options: RunOptions): CompiledPlan {
  if (isCompiledPlan(plan)) return plan;
  const compiled = compile(plan, {
    tools: options.tools,
    ...(options.input && { input: options.input }),
    ...(options.state && { state: options.state }),
    ...(options.mode && { mode: options.mode }),
  });
  if (!compiled.ok) throw new PlanValidationError(compiled.diagnostics);
  return compiled.plan!;
}

interface CallRecord {
  status: CallStatus | null;
  branch: number | null;
  handled: boolean;
  attempts: number;
  startedAt: number | null;
  endedAt: number | null;
  error: CallError | null;
  output?: unknown;
  args?: JsonObject;
  /** Set when RunOptions.reuse gave the result: the tool did not run. */
  reused?: true;
  /** The references without a value that skipped the call, as written. */
  missing?: readonly string[];
}

class Runner {
  #plan: CompiledPlan;
  readonly #calls: readonly CompiledCall[];
  readonly #tools: ToolRegistry;
  readonly #records: CallRecord[];
  /** Per call, how many of its dependencies have not ended yet. */
  readonly #remaining: number[];
  /** Successors in compressed form (a whole plan), or lists that grow (a streamed plan). */
  readonly #offsets: Int32Array;
  readonly #targets: Int32Array;
  readonly #successors: number[][] | null;
  /** Set while a plan arrives as a stream. */
  readonly #stream: StreamState | null;
  readonly #queue: PQueue;
  readonly #taint = new FailureTaint();
  readonly #work: number[] = [];
  #workHead = 0;
  #draining = false;
  /** Set while a drain waits for its turn on the event loop. */
  #yielding = false;
  /** Set once a burst of synchronous calls held the event loop past SLOW_BURST_MS. */
  #blocked = false;
  #ended = 0;
  readonly #state: RunState;
  /** What a call gets for a value it reads: frozen and shared (see RunState.share). */
  readonly #share = <T>(value: T): T => this.#state.share(value);
  readonly #limits: Limits;
  readonly #input: JsonObject;
  /** Set on abort or fail-fast: nothing new starts. */
  #stopping = false;
  readonly #controllers = new Set<AbortController>();
  /** The signal of every attempt without a timeout; aborted with the run. */
  readonly #shared = sharedController();
  /** Per call, its output paths as written; shared by every run of the same compiled plan. */
  readonly #outputPathTexts: (readonly string[] | undefined)[];
  #finish: (() => void) | null = null;
  readonly #startedAt = Date.now();
  /** Approvals being asked now; while any is, the time counts as waiting, not running. */
  #approvalsPending = 0;
  #approvalSince = 0;
  #approvalWaitMs = 0;
  #journal: Journal | undefined;
  #resumed = new Set<number>();
  readonly #runId: string;
  /** Set when non-latent calls run elsewhere (`RunOptions.remote`). */
  readonly #remote: RemoteInvoker | undefined;
  /** `RunOptions.reuse`, read once: a call checks one field when there is none. */
  readonly #reuseHook: RunOptions['reuse'];

  constructor(
    plan: CompiledPlan | null,
    private readonly options: RunOptions,
    private readonly emit: ((event: RunEvent) => void) | null,
    private readonly source: AsyncIterable<unknown> | null = null,
  ) {
    const { concurrency, limits } = checkRunOptions(options);
    this.#limits = limits;
    this.#runId = options.runId ?? randomUUID();
    this.#remote = options.remote;
    this.#reuseHook = options.reuse;
    this.#tools = ToolRegistry.from(options.tools);
    this.#input = checkedInitial('input', plan?.input, options.input, limits).value;
    if (plan) {
      this.#plan = plan;
      this.#calls = plan.calls;
      this.#stream = null;
      this.#successors = null;
      this.#records = plan.calls.map(newRecord);
      this.#remaining = plan.calls.map((call) => call.dependencies.length);
      const { offsets, targets, outputPathTexts } = perPlan(plan);
      this.#offsets = offsets;
      this.#targets = targets;
      this.#outputPathTexts = outputPathTexts;
    } else {
      const builder = new PlanBuilder({
        tools: this.#tools,
        input: options.input,
        state: checkedInitial('state', undefined, options.state, limits).value,
        stateSchema: undefined,
        mode: 'eager',
        limits,
        callsPointer: '',
        // Every diagnostic is kept while the stream runs: each decides whether its call may
        // run. The calls are bounded (limits.maxCalls), and the result's list is capped.
        diagnostics: new DiagnosticList(Number.MAX_SAFE_INTEGER),
      });
      this.#stream = { builder, held: [], received: [] };
      this.#calls = builder.calls as readonly CompiledCall[];
      this.#plan = streamedPlan(this.#calls);
      this.#successors = [];
      this.#records = [];
      this.#remaining = [];
      this.#offsets = new Int32Array(0);
      this.#targets = new Int32Array(0);
      this.#outputPathTexts = [];
    }
    this.#queue = new PQueue({ concurrency });
    const initial = checkedInitial('state', plan?.state, options.state, limits);
    this.#state = new RunState(initial.value, { limits, size: initial.size });
    if (options.journal !== undefined) {
      if (!plan) {
        throw new TypeError(
          'Expected a whole plan with journal: a streamed plan has no identity to resume by',
        );
      }
      const mode = this.#mode;
      const identity = runIdentity({
        mode,
        plan,
        input: this.#input,
        state: this.#state.value,
        tools: this.#tools,
      });
      this.#journal = Journal.open({
        dir: options.journal,
        runKey: identity.runKey,
        resume: options.resume === true,
        digests: identity.digests,
        limits,
        // Every record is judged against this plan before anything runs, not when its call is reached.
        checkRecord: planRecordCheck({ plan, tools: this.#tools, mode }),
      });
    }
  }

  async start(): Promise<RunResult> {
    const n = this.#calls.length;
    this.#event({ type: 'run:start', runId: this.#runId, mode: this.#mode, calls: n });
    const signal = this.options.signal;
    const onAbort = () => this.#abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (this.#mode === 'lazy' && !(await this.#approvePlan())) {
        // Aborted while a person was being asked: nothing was refused, the run was stopped.
        const status = signal?.aborted ? 'cancelled' : 'rejected';
        for (let i = 0; i < n; i++) this.#end(i, status);
        return this.#result(status);
      }
      if (signal?.aborted) this.#stopping = true;
      const done = new Promise<void>((resolve) => (this.#finish = resolve));
      if (this.#stream) await this.#consume(this.#stream);
      else for (let i = 0; i < n; i++) if (this.#remaining[i] === 0) this.#work.push(i);
      this.#drain();
      if (this.#ended < this.#calls.length) await this.#keptAlive(done);
      // A Ctrl-C that came while a synchronous tool held the event loop is queued behind it:
      // let it land, so the run ends as cancelled rather than as if nobody had asked.
      if (this.#blocked && signal && !signal.aborted)
        await new Promise<void>((resolve) => afterPoll(resolve));
      return this.#result(this.#status());
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.#journal?.close();
    }
  }

  get #mode(): 'eager' | 'lazy' {
    return this.options.mode ?? this.#plan.mode;
  }

  /** Someone hears events: an observer, an iterator or the journal. Otherwise none is built. */
  get #listening(): boolean {
    return this.emit !== null || this.#journal !== undefined;
  }

  #event(event: DistributiveOmit<RunEvent, 'at'>): void {
    if (!this.#listening) return;
    const full = { ...event, at: new Date().toISOString() } as RunEvent;
    if (this.#journal) {
      this.#journal.append(full);
      // A completed call is on disk before anything that depends on it starts.
      if (full.type === 'call:end') this.#journal.sync();
    }
    this.emit?.(full);
  }

  async #approvePlan(): Promise<boolean> {
    this.#event({ type: 'approval:requested', kind: 'plan' });
    const approve = this.options.approve;
    if (!approve) return false;
    this.#approvalAsked();
    try {
      const answer = await this.#unlessAborted(
        approve({ kind: 'plan', plan: this.#plan, reason: 'a lazy plan runs only once approved' }),
      );
      return readApproval(answer).approved;
    } finally {
      this.#approvalAnswered();
    }
  }

  /**
   * Approvals overlap (several calls may wait at once): the wait counted is the time during
   * which at least one was pending, so it never exceeds the run's own length.
   */
  #approvalAsked(): void {
    if (this.#approvalsPending++ === 0) this.#approvalSince = Date.now();
  }

  #approvalAnswered(): void {
    if (--this.#approvalsPending === 0) this.#approvalWaitMs += Date.now() - this.#approvalSince;
  }

  /** The answer, or false as soon as the run is aborted: nobody waits on a person forever. */
  #unlessAborted(answer: ApprovalResponse | Promise<ApprovalResponse>): Promise<ApprovalResponse> {
    const signal = this.options.signal;
    if (!signal) return Promise.resolve(answer);
    if (signal.aborted) return Promise.resolve(false);
    return new Promise<ApprovalResponse>((resolve, reject) => {
      const onAbort = () => resolve(false);
      signal.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(answer).then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  #abort(): void {
    this.#stopping = true;
    this.#controllers.add(this.#shared);
    for (const controller of this.#controllers) controller.abort(new RunCancelledError());
  }

  /**
   * Waits for the run's end with a timer held, so the process stays alive while calls are
   * pending even when nothing else is (a tool's promise that never settles, no timeout): the run
   * waits there, visibly, until it is cancelled, instead of the process exiting with no word.
   * The timer never fires in practice (it is the longest delay setTimeout allows).
   */
  async #keptAlive(done: Promise<void>): Promise<void> {
    const keepAlive = setInterval(() => {}, MAX_DELAY_MS);
    try {
      await done;
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** Looks at every call whose dependencies have all ended, one at a time, without recursion. */
  #drain(): void {
    if (this.#draining || this.#yielding) return;
    this.#draining = true;
    try {
      let looked = 0;
      const burstStart = performance.now();
      while (this.#workHead < this.#work.length) {
        if (++looked > DRAIN_BURST) return this.#yieldThenDrain();
        const i = this.#work[this.#workHead++]!;
        this.#ready(i);
        // A synchronous tool that took long: signals (Ctrl-C) wait behind it, so let them in.
        if (performance.now() - burstStart > SLOW_BURST_MS) {
          this.#blocked = true;
          if (this.#workHead < this.#work.length) return this.#yieldThenDrain();
        }
      }
      if (this.#workHead > 0) {
        this.#work.length = 0;
        this.#workHead = 0;
      }
    } finally {
      this.#draining = false;
    }
  }

  /** Lets the event loop run (signals, timers, Ctrl-C) before the next burst of ready calls. */
  #yieldThenDrain(): void {
    this.#yielding = true;
    afterPoll(() => {
      this.#yielding = false;
      this.#drain();
    });
  }

  #ready(i: number): void {
    const call = this.#calls[i]!;
    if (this.#stopping) return this.#end(i, 'cancelled');
    if (this.#listening) this.#event({ type: 'call:ready', call: call.id, tool: call.tool });
    const args = resolveArguments(call, { input: this.#input, state: this.#state.value }, this.#share);
    if (args instanceof MissingValues) {
      const failedWriter = args.missing.some(
        (ref) => ref.root === 'state' && this.#taint.culprit(coveredPath(ref).segments) >= 0,
      );
      this.#records[i]!.missing = args.missing.map((ref) => ref.text);
      return this.#end(i, failedWriter ? 'upstream_failed' : 'skipped');
    }
    const record = this.#records[i]!;
    record.args = args;
    // An eager call's _output is the plan's own: the journal's copy of it is never needed.
    const done = call.hasOutput && this.#mode === 'eager' ? undefined : this.#journal?.completed.get(call.id);
    if (done) return this.#replay(i, done);
    const tool = this.#tools.get(call.tool)?.tool;
    if (call.hasOutput && this.#mode === 'eager') {
      // A latent result the model wrote into the plan: written, nothing runs.
      record.startedAt = Date.now();
      let accepted: Accepted;
      try {
        accepted = this.#accept(i, call.output);
      } catch (e) {
        return this.#fail(i, e);
      }
      return this.#succeed(i, accepted);
    }
    if (tool && this.#reuseHook) {
      let earlier;
      try {
        earlier = this.#reuseHook({ call: call.id, tool, args });
      } catch (e) {
        return this.#fail(i, e);
      }
      if (earlier) return this.#reuse(i, earlier);
    }
    if (tool?.needsApproval) {
      void this.#approveCall(i, args);
      return;
    }
    this.#dispatch(i, args);
  }

  /** Writes an earlier result for call i instead of running its tool (RunOptions.reuse). */
  #reuse(i: number, earlier: ReusedResult): void {
    const record = this.#records[i]!;
    record.startedAt = Date.now();
    record.reused = true;
    let accepted: Accepted;
    try {
      // As a branch value, so the earlier alternative is taken (and a value that merely looks
      // like a branch value is not read as one).
      accepted = this.#accept(i, { [BRANCH_KEY]: earlier.branch ?? 0, value: earlier.output });
    } catch (e) {
      return this.#fail(i, e);
    }
    this.#succeed(i, accepted);
  }

  async #approveCall(i: number, args: JsonObject): Promise<void> {
    const call = this.#calls[i]!;
    this.#event({ type: 'approval:requested', kind: 'call', call: call.id });
    let approved = false;
    const approve = this.options.approve;
    const definition = this.#tools.get(call.tool)?.tool;
    if (approve !== undefined) this.#approvalAsked();
    try {
      if (approve !== undefined && definition !== undefined) {
        const request = {
          kind: 'call',
          plan: this.#plan,
          call: call.id,
          tool: call.tool,
          args,
          reason: `tool '${call.tool}' needs approval`,
          definition,
        } as const;
        const decision = readApproval(await this.#unlessAborted(approve(request)));
        approved = decision.approved;
        // A person's reasons for a no are kept where the report shows them: the call's error.
        if (!approved && decision.feedback !== undefined)
          this.#records[i]!.error = {
            message: new ApprovalRejectedError(`the call '${call.id}'`, decision.feedback).message,
          };
      }
    } catch (e) {
      this.#records[i]!.error = { message: `approval failed: ${(e as Error).message}` };
    } finally {
      if (approve !== undefined) this.#approvalAnswered();
    }
    if (this.#stopping) this.#end(i, 'cancelled');
    else if (!approved) this.#end(i, 'rejected');
    else this.#dispatch(i, args);
    this.#drain();
  }

  /**
   * Starts call i. p-queue bounds the calls in flight; a call that finds a free slot and an
   * empty queue runs at once, without a queue task: a tool that answers synchronously holds no
   * slot past its own return, and one that returns a promise is handed to the queue, which
   * starts it in the slot that was free, so the bound holds for everything asynchronous.
   */
  #dispatch(i: number, args: JsonObject): void {
    const queue = this.#queue;
    if (queue.size === 0 && queue.pending < queue.concurrency) {
      const pending = this.#guarded(i, args);
      if (pending) void queue.add(() => pending);
      return;
    }
    void queue.add(() => this.#guarded(i, args) ?? ENDED);
  }

  /** Runs call i; resolves (or returns undefined) when it has ended, then looks at what is ready. */
  #guarded(i: number, args: JsonObject): Promise<void> | undefined {
    let pending: Promise<void> | undefined;
    try {
      if (this.#stopping) this.#end(i, 'cancelled');
      else pending = this.#execute(i, args);
    } catch (e) {
      this.#unexpected(i, e);
    }
    if (!pending) {
      this.#drain();
      return undefined;
    }
    return pending.then(
      () => this.#drain(),
      (e: unknown) => {
        this.#unexpected(i, e);
        this.#drain();
      },
    );
  }

  /**
   * Whatever went wrong outside the tool (a state write, an observer of the journal), the call
   * still ends in a named state and the run does not hang on it.
   */
  #unexpected(i: number, error: unknown): void {
    if (this.#records[i]!.status === null) this.#fail(i, error);
  }

  /** Checks the arguments and runs the attempts; synchronous while the tool is. */
  #execute(i: number, args: JsonObject): Promise<void> | undefined {
    const call = this.#calls[i]!;
    const record = this.#records[i]!;
    const registered = this.#tools.get(call.tool);
    record.startedAt = Date.now();
    if (!registered) {
      this.#fail(i, this.#failure(i, `unknown tool "${call.tool}"`, 'UNKNOWN_TOOL'));
      return undefined;
    }
    const { validateInput } = registered;
    if (validateInput && !validateInput(args)) {
      const failure = this.#failure(
        i,
        describeSchemaErrors('arguments', validateInput.errors),
        'INVALID_ARGUMENTS',
      );
      this.#fail(i, failure);
      return undefined;
    }
    return this.#try(i, registered, args, 1);
  }

  /** Attempt number `attempt` and the retries after it. */
  #try(i: number, registered: Registered, args: JsonObject, attempt: number): Promise<void> | undefined {
    const call = this.#calls[i]!;
    const tool = registered.tool;
    // A remote call's time limit is enforced per attempt where it runs: here it would also
    // count the time the call waits for a free worker.
    const timeoutMs = this.#remote && !tool.latent ? 0 : (tool.timeoutMs ?? this.options.timeoutMs ?? 0);
    this.#records[i]!.attempts = attempt;
    // The controller exists before anyone hears of the start, so an abort from an observer of
    // call:start reaches this attempt.
    // Without a timeout every attempt can share the run's controller (only a run abort fires
    // it); a per-attempt one is made only when a timeout may abort this attempt alone.
    const controller = timeoutMs > 0 ? new AbortController() : this.#shared;
    this.#controllers.add(controller);
    // A run aborted already (not merely stopped by fail-fast, which lets running calls finish)
    // cancels this attempt too.
    if (this.options.signal?.aborted && !controller.signal.aborted) {
      controller.abort(new RunCancelledError());
    }
    if (this.#listening) this.#event({ type: 'call:start', call: call.id, tool: call.tool, attempt, args });
    let value: unknown;
    try {
      value = this.#attempt(i, tool, args, controller, timeoutMs);
    } catch (error) {
      return this.#attemptFailed(i, registered, args, attempt, controller, error);
    }
    if (!isThenable(value)) return this.#attemptAnswered(i, registered, args, attempt, controller, value);
    return Promise.resolve(value).then(
      (answer) => this.#attemptAnswered(i, registered, args, attempt, controller, answer),
      (error: unknown) => this.#attemptFailed(i, registered, args, attempt, controller, error),
    );
  }

  #attemptAnswered(
    i: number,
    registered: Registered,
    args: JsonObject,
    attempt: number,
    controller: AbortController,
    value: unknown,
  ): Promise<void> | undefined {
    let accepted: Accepted;
    try {
      accepted = this.#accept(i, value);
    } catch (e) {
      return this.#attemptFailed(i, registered, args, attempt, controller, e);
    }
    // What is checked is what is stored: the JSON copy (NaN has become null by now).
    const { validateOutput } = registered;
    if (validateOutput && !validateOutput(accepted.value)) {
      const failure = this.#failure(
        i,
        describeSchemaErrors('output', validateOutput.errors),
        'INVALID_OUTPUT',
      );
      return this.#attemptFailed(i, registered, args, attempt, controller, failure);
    }
    if (controller !== this.#shared) this.#controllers.delete(controller);
    this.#succeed(i, accepted);
    return undefined;
  }

  #attemptFailed(
    i: number,
    registered: Registered,
    args: JsonObject,
    attempt: number,
    controller: AbortController,
    error: unknown,
  ): Promise<void> | undefined {
    if (controller !== this.#shared) this.#controllers.delete(controller);
    if (this.#stopping && this.options.signal?.aborted) {
      this.#end(i, 'cancelled');
      return undefined;
    }
    const retries = retriesOf(registered.tool);
    // A remote invoker has made the retries already.
    if (attempt > retries.limit || (this.#remote && !registered.tool.latent)) {
      this.#fail(i, error);
      return undefined;
    }
    const call = this.#calls[i]!;
    const delayMs = retryDelay(retries, attempt);
    this.#event({
      type: 'call:retry',
      call: call.id,
      tool: call.tool,
      attempt,
      delayMs,
      error: toCallError(error),
    });
    return sleep(delayMs, this.options.signal ?? NEVER_ABORTED).then(
      () => this.#try(i, registered, args, attempt + 1),
      () => this.#end(i, 'cancelled'),
    );
  }

  /** One attempt: the tool (or the model, for a latent tool), bounded by timeout and abort. */
  #attempt(
    i: number,
    tool: Registered['tool'],
    args: JsonObject,
    controller: AbortController,
    timeoutMs: number,
  ): unknown {
    const call = this.#calls[i]!;
    if (controller.signal.aborted) throw controller.signal.reason;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        controller.abort(new ToolTimeoutError(timeoutMs, { call: call.id, tool: call.tool }));
      }, timeoutMs);
    }
    let pending: unknown;
    try {
      if (tool.latent) {
        const latent = this.options.latent;
        if (!latent) {
          throw this.#failure(
            i,
            `"${tool.name}" is a latent tool: its result comes from the model, so run() needs a latent function (or, in eager mode, the call's _output)`,
            'NO_MODEL',
          );
        }
        pending = latent({ call: call.id, tool, args, signal: controller.signal });
      } else if (this.#remote) {
        pending = this.#remote(this.#remoteCall(i, tool, args, controller.signal));
      } else if (typeof tool.execute !== 'function') {
        throw this.#failure(i, `tool "${tool.name}" has no execute function`, 'NOT_EXECUTABLE');
      } else {
        pending = tool.execute(args, {
          toolCallId: call.id,
          abortSignal: controller.signal,
          outputPaths: this.#outputPaths(i),
          context: this.options.context,
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
    return new Promise<unknown>((resolve, reject) => {
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        controller.signal.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => settle(() => reject(controller.signal.reason));
      if (controller.signal.aborted) return onAbort();
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

  /** What a remote invoker needs to run call i, and the hook that reports its retries. */
  #remoteCall(i: number, tool: Registered['tool'], args: JsonObject, signal: AbortSignal): RemoteCall {
    const call = this.#calls[i]!;
    const record = this.#records[i]!;
    return {
      runId: this.#runId,
      call: call.id,
      tool,
      args,
      outputPaths: this.#outputPaths(i),
      signal,
      timeoutMs: tool.timeoutMs ?? this.options.timeoutMs ?? 0,
      retries: retriesOf(tool),
      onRetry: ({ attempt, delayMs, error }) => {
        // A report that arrives late (the call ended, or a duplicate) changes nothing.
        if (record.status !== null || !(Number.isInteger(attempt) && attempt >= record.attempts)) return;
        record.attempts = attempt + 1;
        this.#event({ type: 'call:retry', call: call.id, tool: call.tool, attempt, delayMs, error });
        this.#event({ type: 'call:start', call: call.id, tool: call.tool, attempt: attempt + 1, args });
      },
    };
  }

  /** A call's output paths as written, made once per call (tools get them in their context). */
  #outputPaths(i: number): readonly string[] {
    let paths = this.#outputPathTexts[i];
    if (paths === undefined) {
      const output = this.#calls[i]!.outputPath;
      paths = output ? output.refs.map((r) => r.text) : NO_PATHS;
      this.#outputPathTexts[i] = paths;
    }
    return paths;
  }

  /**
   * A tool's (or the model's) answer as the run will keep it: the alternative it names, and a
   * JSON copy of the value, within the limits for where it goes.
   * @throws {ToolExecutionError} BAD_BRANCH, INVALID_OUTPUT (not JSON, or nothing for an
   *   _outputPath) or LIMIT, with the path of the bad part.
   */
  #accept(i: number, answer: unknown): Accepted {
    const output = this.#calls[i]!.outputPath;
    let choice = 0;
    let written = answer;
    if (isBranchValue(answer)) {
      let named: unknown;
      try {
        // Read once each: a getter may answer differently twice, or throw.
        named = answer[BRANCH_KEY];
        written = answer.value;
      } catch (e) {
        throw this.#failure(
          i,
          `the branch value cannot be read (${toCallError(e).message})`,
          'INVALID_OUTPUT',
        );
      }
      const chosen =
        typeof named !== 'number' && typeof named !== 'string'
          ? -1
          : output
            ? alternativeIndex(output, named)
            : named === 0
              ? 0
              : -1;
      if (chosen < 0) {
        throw this.#failure(
          i,
          `the branch value names no alternative of "${output?.text ?? '(no _outputPath)'}": ${describeValue(named)}`,
          'BAD_BRANCH',
        );
      }
      choice = chosen;
    }
    const copy = copyJson(written, { limits: this.#limits, depth: output ? longestPath(output) : 0 });
    if ('problem' in copy) {
      throw this.#failure(
        i,
        describeProblem('result', copy.problem),
        copy.problem.code === 'LIMIT' ? 'LIMIT' : 'INVALID_OUTPUT',
      );
    }
    if (output && copy.value === undefined) {
      throw this.#failure(
        i,
        'the tool returned nothing (undefined) for a call with an _outputPath',
        'INVALID_OUTPUT',
      );
    }
    return { value: copy.value, size: copy.size, choice };
  }

  #succeed(i: number, accepted: Accepted): void {
    const output = this.#calls[i]!.outputPath;
    const record = this.#records[i]!;
    const { value, choice } = accepted;
    try {
      if (output)
        this.#write(i, output.op === '&&' ? output.paths.map((_, k) => k) : [choice], value, accepted.size);
    } catch (e) {
      return this.#fail(i, e);
    }
    record.output = value;
    record.branch = output?.op === '||' ? choice : null;
    this.#end(i, 'succeeded');
  }

  /** Puts back what an earlier, interrupted run of this plan journaled for call i. */
  #replay(
    i: number,
    done: {
      status: CallStatus;
      branch: number | null;
      handled: boolean;
      output?: unknown;
      error: CallError | null;
      attempts: number;
    },
  ): void {
    const call = this.#calls[i]!;
    const record = this.#records[i]!;
    const output = call.outputPath;
    this.#resumed.add(i);
    record.attempts = done.attempts;
    record.startedAt = Date.now();
    try {
      if (output && done.output !== undefined) {
        const alternatives = output.op === '&&' ? output.paths.map((_, k) => k) : [done.branch ?? 0];
        const copy = copyJson(done.output, { limits: this.#limits, depth: longestPath(output) });
        if ('problem' in copy)
          throw this.#failure(i, describeProblem('journaled output', copy.problem), 'LIMIT');
        this.#write(i, alternatives, copy.value, copy.size);
      }
    } catch (e) {
      return this.#fail(i, e);
    }
    record.output = done.output;
    record.branch = done.branch;
    record.handled = done.handled;
    record.error = done.error;
    this.#end(i, done.status);
  }

  /**
   * Writes a JSON value the run owns (of JSON size `size`) at each alternative named.
   * @throws {ToolExecutionError} LIMIT or STATE_CONFLICT when the state cannot take it.
   */
  #write(i: number, alternatives: readonly number[], value: unknown, size: number): void {
    const call = this.#calls[i]!;
    const output = call.outputPath!;
    for (let n = 0; n < alternatives.length; n++) {
      const k = alternatives[n]!;
      const path = output.paths[k]!;
      // Each place gets its own copy: the state's containers are written in place later.
      const placed = n === 0 ? value : cloneJson(value);
      try {
        this.#state.write(path.segments, placed, size);
      } catch (e) {
        if (e instanceof StateWriteError)
          throw this.#failure(i, `cannot write ${output.refs[k]!.text}: ${e.message}`, e.code);
        throw e;
      }
      this.#taint.clear(path.segments);
      if (this.#listening)
        this.#event({ type: 'state:write', call: call.id, path: output.refs[k]!.text, value: placed });
    }
  }

  /** A failure of call i that is not the tool's own throw: a bad answer, a missing model, ... */
  #failure(i: number, message: string, code: ToolErrorCode): ToolExecutionError {
    const call = this.#calls[i]!;
    return new ToolExecutionError(message, { call: call.id, tool: call.tool, code });
  }

  #fail(i: number, error: unknown): void {
    const call = this.#calls[i]!;
    const record = this.#records[i]!;
    record.error = toCallError(error);
    const output = call.outputPath;
    const tool = this.#tools.get(call.tool)?.tool;
    if (output?.op === '||' && output.paths.length > 1 && tool?.errorBranch !== false) {
      // With two or more alternatives a throw goes to the last one: the call failed, and the
      // plan handled it.
      const last = output.paths.length - 1;
      const errorValue = { ...record.error };
      try {
        this.#write(i, [last], errorValue, jsonSize(errorValue));
        record.branch = last;
        record.handled = true;
        record.output = errorValue;
        return this.#end(i, 'failed');
      } catch (e) {
        // The state cannot take even the error (it is full): the failure goes unhandled.
        record.error = {
          message: `${record.error.message}; and ${toCallError(e).message}`,
          code: record.error.code ?? 'LIMIT',
        };
      }
    }
    if (output) for (const path of output.paths) this.#taint.mark(path.segments, i);
    if (this.options.failFast) this.#stopping = true;
    this.#end(i, 'failed');
  }

  #end(i: number, status: CallStatus): void {
    const call = this.#calls[i]!;
    const record = this.#records[i]!;
    if (record.status !== null) return;
    record.status = status;
    record.endedAt = record.startedAt === null ? null : Date.now();
    if (status === 'upstream_failed' && call.outputPath) {
      for (const path of call.outputPath.paths) this.#taint.mark(path.segments, i);
    }
    if (this.#listening)
      this.#event({
        type: 'call:end',
        call: call.id,
        tool: call.tool,
        status,
        branch: record.branch,
        handled: record.handled,
        attempts: record.attempts,
        durationMs: record.startedAt === null ? null : record.endedAt! - record.startedAt,
        error: record.error,
        ...(record.output !== undefined && { output: record.output }),
        ...(this.#resumed.has(i) && { resumed: true }),
        ...(record.reused && { reused: true }),
      });
    this.#ended++;
    if (this.#successors) {
      for (const next of this.#successors[i] ?? []) if (--this.#remaining[next]! === 0) this.#work.push(next);
    } else {
      for (let k = this.#offsets[i]!; k < this.#offsets[i + 1]!; k++) {
        const next = this.#targets[k]!;
        if (--this.#remaining[next]! === 0) this.#work.push(next);
      }
    }
    // A streamed plan is not over until its stream is.
    if (this.#ended === this.#calls.length && !this.#stream?.open) this.#finish?.();
  }

  /**
   * Takes calls as they arrive: each is checked and bound against the calls before it, and
   * starts as soon as what it reads has been written. A call that reads what no call has
   * claimed yet waits for the end of the stream (the writer may still come); a call that
   * arrives invalid never runs, and what depends on it ends upstream_failed.
   */
  async #consume(stream: StreamState): Promise<void> {
    stream.open = true;
    try {
      for await (const raw of this.source!) {
        if (this.#stopping) break;
        const pending = stream.builder.pending;
        if (this.#calls.length >= this.#limits.maxCalls) {
          pending.push(
            diagnostic(
              'E_LIMIT',
              '',
              `the stream has more than ${this.#limits.maxCalls} calls; the rest were not read`,
              {
                hint: 'split the plan, or raise limits.maxCalls',
              },
            ),
          );
          stream.cut = true;
          break;
        }
        // A call from a stream is a value from code: JSON data within the limits, or refused.
        const checked = checkJson(raw, { limits: this.#limits });
        const call = 'problem' in checked ? null : raw;
        stream.received.push(call);
        const before = pending.items.length;
        if ('problem' in checked) {
          const { problem } = checked;
          pending.push(
            diagnostic(
              problem.code === 'LIMIT' ? 'E_LIMIT' : 'E_SHAPE',
              joinPointer('', this.#calls.length) + problem.pointer,
              `call ${this.#calls.length}${problem.pointer ? ` at ${problem.pointer}` : ''} ${problem.message}`,
              {
                hint: problem.hint,
              },
            ),
          );
        }
        const spec = stream.builder.add(call);
        this.#records.push(newRecord());
        this.#remaining.push(0);
        this.#successors!.push([]);
        const invalid = pending.items.slice(before).find((d) => d.severity === 'error');
        if (invalid) this.#invalid(spec.index, invalid.code, invalid.message);
        else if (spec.reads.some((r) => r.kind === 'later' && r.writers.length === 0))
          stream.held.push(spec.index);
        else this.#wire(spec.index);
        this.#drain();
      }
    } finally {
      stream.open = false;
    }
    const ordering = stream.builder.finish();
    const placed = new Uint8Array(this.#calls.length);
    for (const v of ordering.order) placed[v] = 1;
    const late = new Map<string, { code: string; message: string }>();
    for (const d of stream.builder.pending.items) if (d.severity === 'error' && d.call) late.set(d.call, d);
    for (const i of stream.held) {
      const problem = late.get(this.#calls[i]!.id);
      if (problem) this.#invalid(i, problem.code, problem.message);
      else if (!placed[i]) this.#invalid(i, 'E_CYCLE', 'the call is on a dependency cycle');
      else this.#wire(i);
    }
    this.#plan = streamedPlan(
      this.#calls,
      capDiagnostics(
        positionDiagnostics(stream.builder.pending.items, SourceText.fromValue(stream.received)),
        this.#limits.maxDiagnostics,
      ),
    );
    if (this.#ended === this.#calls.length) this.#finish?.();
  }

  /** Counts a streamed call's dependencies that have not ended, and queues it when there are none. */
  #wire(i: number): void {
    let open = 0;
    for (const d of this.#calls[i]!.dependencies) {
      if (this.#records[d.from]!.status !== null) continue;
      open++;
      this.#successors![d.from]!.push(i);
    }
    this.#remaining[i] = open;
    if (open === 0) this.#work.push(i);
  }

  /** A streamed call that does not compile: it never runs, and its readers are upstream_failed. */
  #invalid(i: number, code: string, message: string): void {
    const call = this.#calls[i]!;
    this.#records[i]!.error = { message: `the call is invalid: ${message}`, code };
    if (call.outputPath) for (const path of call.outputPath.paths) this.#taint.mark(path.segments, i);
    this.#end(i, 'failed');
  }

  /**
   * The run's status: `succeeded` unless a call ended otherwise. When several apply: an aborted
   * run is `cancelled`; otherwise an unhandled failure makes it `failed` (calls that fail-fast
   * cancelled are its consequence); then `rejected`, then `cancelled`.
   */
  #status(): RunStatus {
    if (this.options.signal?.aborted) return 'cancelled';
    let failed = this.#stream?.cut === true;
    let rejected = false;
    let cancelled = false;
    for (const record of this.#records) {
      if (record.status === 'cancelled') cancelled = true;
      else if (record.status === 'rejected') rejected = true;
      else if (record.status === 'upstream_failed' || (record.status === 'failed' && !record.handled)) {
        failed = true;
      }
    }
    return failed ? 'failed' : rejected ? 'rejected' : cancelled ? 'cancelled' : 'succeeded';
  }

  #result(status: RunStatus): RunResult {
    // Calls start and end in bursts within one millisecond: each distinct time is converted once.
    const isoByTime = new Map<number, string>();
    const iso = (t: number | null) => {
      if (t === null) return null;
      let text = isoByTime.get(t);
      if (text === undefined) {
        text = new Date(t).toISOString();
        isoByTime.set(t, text);
      }
      return text;
    };
    const calls: CallReport[] = this.#calls.map((call, i) => {
      const r = this.#records[i]!;
      const report: { -readonly [K in keyof CallReport]: CallReport[K] } = {
        id: call.id,
        tool: call.tool,
        status: r.status ?? 'cancelled',
        branch: r.branch,
        handled: r.handled,
        attempts: r.attempts,
        startedAt: iso(r.startedAt),
        endedAt: iso(r.endedAt),
        error: r.error,
      };
      // Assigned, not spread: a spread per call is a slow object copy on 100k-call runs.
      if (r.output !== undefined) report.output = r.output;
      if (r.args !== undefined) report.args = r.args;
      if (r.reused) report.reused = true;
      if (r.missing) report.missing = r.missing;
      return report;
    });
    const endedAt = new Date().toISOString();
    this.#event({ type: 'run:end', status });
    const result: RunResult = {
      status,
      state: this.#state.value,
      calls,
      diagnostics: this.#plan.diagnostics,
      startedAt: new Date(this.#startedAt).toISOString(),
      endedAt,
      approvalWaitMs:
        this.#approvalWaitMs + (this.#approvalsPending > 0 ? Date.now() - this.#approvalSince : 0),
    };
    // A streamed plan has no order or levels to draw: its result is not tied to a plan.
    return this.#stream ? result : rememberPlan(result, this.#plan);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Which alternative a branch value names: its index, or its path as written or canonical. */
function alternativeIndex(output: NonNullable<CompiledCall['outputPath']>, choice: number | string): number {
  if (typeof choice === 'number')
    return Number.isInteger(choice) && choice >= 0 && choice < output.paths.length ? choice : -1;
  return output.paths.findIndex(
    (path, k) => output.refs[k]!.text === choice || formatPath('state', path.segments) === choice,
  );
}

interface StreamState {
  readonly builder: PlanBuilder;
  /** Calls that read what no call had claimed when they arrived: they wait for the end. */
  readonly held: number[];
  /** The calls as received (null for one refused as not JSON), for positions in diagnostics. */
  readonly received: unknown[];
  open?: boolean;
  /** Set when the stream had more calls than limits.maxCalls: the run fails. */
  cut?: boolean;
}

function newRecord(): CallRecord {
  return {
    status: null,
    branch: null,
    handled: false,
    attempts: 0,
    startedAt: null,
    endedAt: null,
    error: null,
  };
}

/** The plan of a stream so far: its calls (a live list) and, at the end, its diagnostics. */
function streamedPlan(calls: readonly CompiledCall[], diagnostics: Diagnostic[] = []): CompiledPlan {
  return {
    mode: 'eager',
    calls,
    order: [],
    levels: [],
    criticalPath: [],
    edgeCount: 0,
    diagnostics,
    indexOf: (id) => calls.findIndex((c) => c.id === id),
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}

/** A controller many attempts listen to at once (up to the concurrency): no leak warning. */
function sharedController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

const NO_PATHS: readonly string[] = [];

/** A promise-like value; one whose `then` cannot even be read is not (its copy will say why). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
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

/** What every run of a compiled plan needs and none changes: made once per plan. */
interface PerPlan {
  /** Successors in CSR form: those of call i are targets[offsets[i] .. offsets[i + 1]). */
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  /** Filled in lazily, one call at a time, as calls run. */
  readonly outputPathTexts: (readonly string[] | undefined)[];
}

const perPlanCache = new WeakMap<CompiledPlan, PerPlan>();

function perPlan(plan: CompiledPlan): PerPlan {
  let cached = perPlanCache.get(plan);
  if (!cached) {
    const { offsets, targets } = orderCalls(plan.calls);
    cached = { offsets, targets, outputPathTexts: [] };
    perPlanCache.set(plan, cached);
  }
  return cached;
}

/** A tool's answer as the run keeps it: a JSON copy, its size, and the alternative it goes to. */
interface Accepted {
  readonly value: unknown;
  readonly size: number;
  readonly choice: number;
}

/** The most segments among a call's output paths: the levels a written value starts under. */
function longestPath(output: NonNullable<CompiledCall['outputPath']>): number {
  let longest = 0;
  for (const path of output.paths) if (path.segments.length > longest) longest = path.segments.length;
  return longest;
}

/** `the result at /a/b is a BigInt ...; convert it ...`: a refused value, for a call's error. */
function describeProblem(what: string, problem: JsonProblem): string {
  const where = problem.pointer === '' ? what : `${what} at ${problem.pointer}`;
  return `${where} ${problem.message}; ${problem.hint}`;
}

/**
 * The run's input or initial state: the plan's and the option's values (the option's win),
 * merged only when both have some, and checked against the limits. Nothing here walks a value
 * the compiler checked already, and a state of a million keys is not copied.
 * @throws {PlanValidationError} (E_LIMIT) when a value is over a limit.
 * @throws {TypeError} when the option holds something JSON cannot (a function, a cycle...).
 */
function checkedInitial(
  what: 'input' | 'state',
  fromPlan: JsonObject | undefined,
  fromOption: JsonObject | undefined,
  limits: Limits,
): { value: JsonObject; size: number } {
  if (fromOption === undefined || fromOption === fromPlan) return checkedValue(what, fromPlan ?? {}, limits);
  const option = checkedValue(what, fromOption, limits);
  if (fromPlan === undefined) return option;
  const plan = checkedValue(what, fromPlan, limits);
  // `{}` is 2 characters of JSON: no merge needed with an empty side.
  if (plan.size <= 2) return option;
  if (option.size <= 2) return plan;
  return checkedValue(what, { ...fromPlan, ...fromOption }, limits);
}

function checkedValue(what: string, value: JsonObject, limits: Limits): { value: JsonObject; size: number } {
  const checked = checkJson(value, { limits });
  if ('size' in checked) return { value, size: checked.size };
  const { problem } = checked;
  if (problem.code === 'NOT_JSON') {
    throw new TypeError(`Expected ${what} to be JSON data, but ${describeProblem(what, problem)}`);
  }
  const where = problem.pointer === '' ? '' : ` at ${problem.pointer}`;
  const found = diagnostic('E_LIMIT', '', `the ${what}${where} ${problem.message}`, { hint: problem.hint });
  throw new PlanValidationError([{ ...found, line: 1, column: 1 }]);
}
