/**
 * The worker's side of a distributed run: takes call jobs from the queue and runs their tools,
 * in this process, on any machine that reaches the Redis. Each job is one attempt; BullMQ
 * retries a failed one (with the tool's backoff) and moves a job whose worker died to another
 * worker (stalled-job recovery), so a tool with side effects should record them under
 * `ctx.toolCallId`, the job id, which is the same for every attempt of a call.
 */
import type { Job, QueueEventsListener } from 'bullmq';
import { ToolExecutionError, type ToolErrorCode } from '../errors.js';
import { describeValue } from '../language/describe-value.js';
import { checkJson, copyJson, type JsonProblem } from '../language/json/index.js';
import { type Limits, resolveLimits } from '../language/limits.js';
import { isLimiter, type Limiter, limitedTools } from '../run/limit/index.js';
import { BRANCH_KEY, isBranchJson, isBranchValue } from '../run/call/index.js';
import { type CallError, retryDelay, toCallError } from '../run/index.js';
import { contractError, isContractError } from '../run/call/index.js';
import { type Tool, ToolRegistry } from '../tools/index.js';
import { attemptTool } from './attempt.js';
import { callJobProblem } from './job-check.js';
import { functionOption, queueOption, redisOption, wholeNumberOption } from './options.js';
import { probeRedis } from './probe.js';
import { loadQueuePackages } from './queue-packages.js';
import { describeSchemaErrors } from '../run/schema-errors.js';
import { CANCEL_EVENT, type CallJob, type CallValue, encodeError } from './wire.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

/** Failures no other attempt can fix: BullMQ is told not to retry them. */
const FINAL_CODES = new Set(['UNKNOWN_TOOL', 'NOT_EXECUTABLE', 'INVALID_ARGUMENTS']);

/** The custom event the dispatcher publishes for a job of an aborted run. */
interface CancelListener extends QueueEventsListener {
  [CANCEL_EVENT]: (args: { jobId: string }) => void;
}

export interface WorkerOptions {
  /** The tools to run, with `execute`: a registry or definitions. Required. */
  readonly tools: ToolRegistry | Iterable<Tool>;
  /**
   * Where the queue lives: `redis://[user:password@]host[:port][/db]`, `rediss://...` (TLS) or
   * `unix:///path/to/redis.sock`.
   * @default 'redis://127.0.0.1:6379'
   */
  readonly redis?: string;
  /**
   * The BullMQ queue to take jobs from: the scheduler's.
   * @default 'planmode'
   */
  readonly queue?: string;
  /**
   * Most jobs this worker runs at once.
   * @default 16
   */
  readonly concurrency?: number;
  /**
   * How long a job's lock lasts without renewal (renewed every half of it while the job runs).
   * A worker that dies holds its jobs this long before another worker can take them.
   * @default 30000
   */
  readonly lockDurationMs?: number;
  /**
   * How often this worker looks for jobs whose worker died (lock expired) and puts them back.
   * @default 30000
   */
  readonly stalledIntervalMs?: number;
  /**
   * How many times a job may lose its worker and be put back before it fails (code REMOTE_FAILED).
   * @default 1
   */
  readonly maxStalledCount?: number;
  /**
   * How long the first connection may take before `startWorker` gives up.
   * @default 5000
   */
  readonly connectTimeoutMs?: number;
  /**
   * Passed to every tool as `ctx.context`.
   * @default undefined
   */
  readonly context?: unknown;
  /**
   * Hears each job start and end (for logs).
   * @default undefined
   */
  readonly onJob?: (event: WorkerJobEvent) => void;
  /**
   * Hears connection errors after the start (BullMQ reconnects by itself).
   * @default undefined (ignored)
   */
  readonly onError?: (error: Error) => void;
  /**
   * Bounds on what a job carries in (its arguments) and what a tool hands back (its result):
   * depth, size, keys. The scheduler holds results to its own limits again.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
  /**
   * The quotas the worker's calls keep (see `createLimiter`): share one with the process's
   * runs and other workers. Without one, a worker whose tools declare `concurrency` or
   * `rateLimit` makes its own. A worker knows no plan: its calls wait in arrival order.
   * @default a limiter of the worker's own, when a tool declares a quota
   */
  readonly limiter?: Limiter;
}

export type WorkerJobEvent =
  | { readonly type: 'start'; readonly job: string; readonly tool: string; readonly attempt: number }
  | {
      readonly type: 'end';
      readonly job: string;
      readonly tool: string;
      readonly attempt: number;
      readonly durationMs: number;
      /** Null when it succeeded. */
      readonly error: CallError | null;
      /** A failed attempt that BullMQ will make again. */
      readonly retrying: boolean;
    };

export interface PlanWorker {
  /** The queue's name. */
  readonly queue: string;
  /** Stops taking jobs, waits for the running ones to end, then closes the connections. */
  close(): Promise<void>;
}

/**
 * Connects to Redis (once, without retries: a wrong URL fails at once) and starts taking jobs.
 *
 * @throws {TypeError} for a bad option value.
 * @throws {RedisConnectionError} when Redis cannot be reached.
 * @throws {MissingDependencyError} when `bullmq` or `ioredis` is not installed.
 */
/** The numbers, tools, limits and limiter have their own checks. */
const WORKER_OPTIONS: OptionSpec<WorkerOptions> = {
  tools: 'any',
  redis: 'string',
  queue: 'string',
  concurrency: 'any',
  lockDurationMs: 'any',
  stalledIntervalMs: 'any',
  maxStalledCount: 'any',
  connectTimeoutMs: 'any',
  context: 'object',
  onJob: 'function',
  onError: 'function',
  limits: 'any',
  limiter: 'any',
};

export async function startWorker(options: WorkerOptions): Promise<PlanWorker> {
  checkOptions('startWorker', options, WORKER_OPTIONS);
  if (options?.tools === undefined) throw new TypeError('Expected tools: a registry or tool definitions');
  if (options.limiter !== undefined && !isLimiter(options.limiter))
    throw new TypeError('Expected limiter to be made by createLimiter()');
  const { tools } = limitedTools({
    tools: ToolRegistry.from(options.tools),
    limiter: options.limiter,
    run: null,
  });
  const limits = resolveLimits(options.limits);
  const { url, connection } = redisOption(options.redis);
  const queue = queueOption(options.queue);
  const concurrency = wholeNumberOption('concurrency', options.concurrency, 1, 16);
  const lockDuration = wholeNumberOption('lockDurationMs', options.lockDurationMs, 100, 30_000);
  const stalledInterval = wholeNumberOption('stalledIntervalMs', options.stalledIntervalMs, 100, 30_000);
  const maxStalledCount = wholeNumberOption('maxStalledCount', options.maxStalledCount, 0, 1);
  const timeoutMs = wholeNumberOption('connectTimeoutMs', options.connectTimeoutMs, 1, 5000);
  const onJob = functionOption('onJob', options.onJob);
  const onError = functionOption('onError', options.onError) ?? (() => {});
  const { bullmq, ioredis } = await loadQueuePackages('startWorker');
  const { QueueEvents, UnrecoverableError, Worker } = bullmq;
  await probeRedis({ connection, url, timeoutMs, Redis: ioredis.Redis });

  const context = options.context;
  const processor = async (job: Job<CallJob>, _token?: string, signal?: AbortSignal): Promise<CallValue> => {
    // Checked before any field is used: a forged job fails at once, and is never retried.
    const problem = callJobProblem(job.data);
    if (problem !== null) {
      const error = { message: `malformed job ${String(job.id)}: ${problem}`, code: 'INVALID_ARGUMENTS' };
      throw new UnrecoverableError(encodeError(error, true));
    }
    const data = job.data;
    const attempt = job.attemptsMade + 1;
    const started = Date.now();
    onJob?.({ type: 'start', job: job.id!, tool: data.tool, attempt });
    let error: CallError | null = null;
    let retrying = false;
    try {
      return await runCall(job, { tools, context, signal, limits });
    } catch (e) {
      error = toCallError(e);
      const contract = isContractError(e);
      // A cancelled run wants no more attempts, nor does a job that cannot succeed here.
      retrying = !FINAL_CODES.has(error.code!) && !signal?.aborted && attempt < (job.opts.attempts ?? 1);
      if (retrying) {
        const delayMs = retryDelay(data.retries, attempt);
        await job.updateProgress({ retry: { attempt, delayMs, error } });
      }
      const reason = encodeError(error, contract);
      throw retrying ? new Error(reason) : new UnrecoverableError(reason);
    } finally {
      onJob?.({
        type: 'end',
        job: job.id!,
        tool: data.tool,
        attempt,
        durationMs: Date.now() - started,
        error,
        retrying,
      });
    }
  };

  const worker = new Worker<CallJob, CallValue>(queue, processor, {
    connection,
    concurrency,
    lockDuration,
    stalledInterval,
    maxStalledCount,
    settings: {
      // The tool's own policy, as the executor computes it locally.
      backoffStrategy: (attemptsMade, _type, _error, job) =>
        retryDelay((job as Job<CallJob> | undefined)!.data.retries, attemptsMade),
    },
    autorun: false,
  });
  worker.on('error', onError);
  const events = new QueueEvents(queue, { connection });
  events.on('error', onError);
  events.on<CancelListener>(CANCEL_EVENT, ({ jobId }: { jobId: string }) => {
    worker.cancelJob(jobId, 'the run was cancelled');
  });
  await Promise.all([worker.waitUntilReady(), events.waitUntilReady()]);
  void worker.run().catch(onError);

  let closing: Promise<void> | undefined;
  return {
    queue,
    close: () =>
      (closing ??= (async () => {
        await worker.close();
        await events.close();
      })()),
  };
}

interface CallSetting {
  readonly tools: ToolRegistry;
  readonly context: unknown;
  readonly signal: AbortSignal | undefined;
  readonly limits: Limits;
}

/**
 * One attempt of the job's call; errors that no retry can fix are unrecoverable. What the queue
 * brings (the arguments) and what the tool returns are untrusted values: held to the limits and
 * to the tool's schemas here, before the tool runs and before anything is sent back.
 */
async function runCall(
  job: Job<CallJob>,
  { tools, context, signal, limits }: CallSetting,
): Promise<CallValue> {
  const data = job.data;
  const registered = tools.get(data.tool);
  // The worker's own refusals: contract errors, never the tool's.
  const failure = (message: string, code: ToolErrorCode) =>
    contractError(new ToolExecutionError(message, { call: data.call, tool: data.tool, code }));
  if (!registered) throw failure(`this worker has no tool "${data.tool}"`, 'UNKNOWN_TOOL');
  const tool = registered.tool;
  if (typeof tool.execute !== 'function') {
    throw failure(`tool "${tool.name}" has no execute function in this worker`, 'NOT_EXECUTABLE');
  }
  const args = checkJson(data.args, { limits });
  if ('problem' in args) throw failure(describeProblem('the arguments', args.problem), 'INVALID_ARGUMENTS');
  if (registered.validateInput && !registered.validateInput(data.args)) {
    throw failure(describeSchemaErrors('arguments', registered.validateInput.errors), 'INVALID_ARGUMENTS');
  }
  const value = await attemptTool({
    tool,
    args: data.args,
    call: data.call,
    toolCallId: job.id!,
    outputPaths: data.outputPaths,
    context,
    timeoutMs: data.timeoutMs,
    signal,
  });
  // The choice travels beside the value, taken only from a branch() value or a tool that
  // declares its JSON ones: what the value holds never chooses.
  const chosen = isBranchValue(value) || (tool.branchJson === true && isBranchJson(value));
  let written = value;
  let choice: unknown;
  if (chosen) {
    try {
      // Read once each: a getter may answer differently twice, or throw.
      choice = value[BRANCH_KEY];
      written = value.value;
    } catch (e) {
      throw failure(`the branch value cannot be read (${toCallError(e).message})`, 'INVALID_OUTPUT');
    }
    if (typeof choice !== 'number' && typeof choice !== 'string') {
      throw failure(`the branch value names no alternative: ${describeValue(choice)}`, 'BAD_BRANCH');
    }
  }
  // Only JSON crosses back: the copy is what is checked and sent (NaN has become null by now).
  const copy = copyJson(written, { limits });
  if ('problem' in copy) {
    throw failure(
      describeProblem('the result', copy.problem),
      copy.problem.code === 'LIMIT' ? 'LIMIT' : 'INVALID_OUTPUT',
    );
  }
  const { validateOutput } = registered;
  if (validateOutput && !validateOutput(copy.value)) {
    throw failure(describeSchemaErrors('output', validateOutput.errors), 'INVALID_OUTPUT');
  }
  return chosen ? { value: copy.value, branch: choice as number | string } : { value: copy.value };
}

/** `the result at /a is a BigInt ...; convert it ...` */
function describeProblem(what: string, problem: JsonProblem): string {
  return `${what}${problem.pointer === '' ? '' : ` at ${problem.pointer}`} ${problem.message}; ${problem.hint}`;
}
