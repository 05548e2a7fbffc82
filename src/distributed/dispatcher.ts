/**
 * The scheduler's side of a distributed run: `run()` stays the scheduler, and each ready call
 * becomes a BullMQ job (`RunOptions.remote = dispatcher.invoke`). BullMQ makes the attempts
 * (the tool's retry policy as `attempts` and backoff), workers run them, and the value or last
 * error comes back through the queue's events, so the run's state, events and journal are
 * those of a local run.
 */
import type { Queue, QueueEvents, QueueEventsProducer } from 'bullmq';
import type { RemoteCall, RemoteInvoker, RemoteRetry } from '../run/index.js';
import { contractError, markedBranch } from '../run/call/index.js';
import { jobIdOf } from './job-id.js';
import type { RedisConnection } from './redis-url.js';
import { functionOption, queueOption, redisOption, wholeNumberOption } from './options.js';
import { probeRedis } from './probe.js';
import { loadQueuePackages, type QueuePackages } from './queue-packages.js';
import { RemoteCallError } from './remote-call-error.js';
import {
  BACKOFF_TYPE,
  CANCEL_EVENT,
  type CallJob,
  type CallValue,
  decodeError,
  isCallProgress,
} from './wire.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

export interface DispatcherOptions {
  /**
   * Where the queue lives: `redis://[user:password@]host[:port][/db]`, `rediss://...` (TLS) or
   * `unix:///path/to/redis.sock`.
   * @default 'redis://127.0.0.1:6379'
   */
  readonly redis?: string;
  /**
   * The BullMQ queue; workers must take jobs from the same one.
   * @default 'planmode'
   */
  readonly queue?: string;
  /**
   * How long the first connection may take before `createDispatcher` gives up.
   * @default 5000
   */
  readonly connectTimeoutMs?: number;
  /**
   * Seconds a completed job is kept in Redis (then BullMQ removes it).
   * @default 3600
   */
  readonly keepCompletedSeconds?: number;
  /**
   * Seconds a failed job is kept in Redis, to look into.
   * @default 86400
   */
  readonly keepFailedSeconds?: number;
  /**
   * Most events the queue's event stream keeps. The dispatcher reads every job's end from it;
   * it must not be trimmed past events not read yet.
   * @default 100000
   */
  readonly maxEvents?: number;
  /**
   * Hears connection errors after the start (BullMQ reconnects by itself).
   * @default undefined (ignored)
   */
  readonly onError?: (error: Error) => void;
}

export interface Dispatcher {
  /** Pass as `RunOptions.remote`. Any number of runs may share one dispatcher. */
  readonly invoke: RemoteInvoker;
  /** The queue's name. */
  readonly queue: string;
  /** Cancels what aborted runs left in the queue, then closes the connections. */
  close(): Promise<void>;
}

/**
 * Connects to Redis (once, without retries: a wrong URL fails at once) and opens the queue.
 *
 * @throws {TypeError} for a bad option value.
 * @throws {RedisConnectionError} when Redis cannot be reached.
 * @throws {MissingDependencyError} when `bullmq` or `ioredis` is not installed.
 */
/** The numbers have their own checks (whole numbers within bounds). */
const DISPATCHER_OPTIONS: OptionSpec<DispatcherOptions> = {
  redis: 'string',
  queue: 'string',
  connectTimeoutMs: 'any',
  keepCompletedSeconds: 'any',
  keepFailedSeconds: 'any',
  maxEvents: 'any',
  onError: 'function',
};

export async function createDispatcher(options: DispatcherOptions = {}): Promise<Dispatcher> {
  checkOptions('createDispatcher', options, DISPATCHER_OPTIONS);
  const { url, connection } = redisOption(options.redis);
  const queue = queueOption(options.queue);
  const timeoutMs = wholeNumberOption('connectTimeoutMs', options.connectTimeoutMs, 1, 5000);
  const keep = {
    completed: wholeNumberOption('keepCompletedSeconds', options.keepCompletedSeconds, 0, 3600),
    failed: wholeNumberOption('keepFailedSeconds', options.keepFailedSeconds, 0, 86_400),
  };
  const maxEvents = wholeNumberOption('maxEvents', options.maxEvents, 100, 100_000);
  const onError = functionOption('onError', options.onError) ?? (() => {});
  const packages = await loadQueuePackages('createDispatcher');
  await probeRedis({ connection, url, timeoutMs, Redis: packages.ioredis.Redis });
  const dispatcher = new QueueDispatcher({ connection, queue, keep, maxEvents, onError, packages });
  await dispatcher.ready();
  return dispatcher;
}

interface Settings {
  readonly connection: RedisConnection;
  readonly queue: string;
  readonly keep: { readonly completed: number; readonly failed: number };
  readonly maxEvents: number;
  readonly onError: (error: Error) => void;
  readonly packages: QueuePackages;
}

class QueueDispatcher implements Dispatcher {
  readonly queue: string;
  readonly #queue: Queue;
  readonly #events: QueueEvents;
  readonly #producer: QueueEventsProducer;
  readonly #settings: Settings;
  /** Per job in flight, who hears of its retries. */
  readonly #retries = new Map<string, (retry: RemoteRetry) => void>();
  /** Cancellations under way: close waits for them. */
  readonly #cancelling = new Set<Promise<void>>();

  constructor(settings: Settings) {
    this.#settings = settings;
    this.queue = settings.queue;
    const connection = settings.connection;
    const { Queue, QueueEvents, QueueEventsProducer } = settings.packages.bullmq;
    this.#queue = new Queue(settings.queue, {
      connection,
      streams: { events: { maxLen: settings.maxEvents } },
    });
    // Every job waiting for its end listens for the queue's 'closing': many at once is normal.
    this.#queue.setMaxListeners(0);
    this.#events = new QueueEvents(settings.queue, { connection });
    this.#producer = new QueueEventsProducer(settings.queue, { connection });
    this.#queue.on('error', settings.onError);
    this.#events.on('error', settings.onError);
    this.#producer.on('error', settings.onError);
    this.#events.on('progress', ({ jobId, data }) => {
      const onRetry = this.#retries.get(jobId);
      // Checked by onRetry as the journal checks its own records: anyone with the Redis can send it.
      const refused = onRetry && isCallProgress(data) ? onRetry(data.retry) : undefined;
      if (refused !== undefined) {
        settings.onError(new Error(`a retry report for job ${jobId} was refused, not journaled: ${refused}`));
      }
    });
  }

  async ready(): Promise<void> {
    // Listening before the first job is added: no job's end can pass unheard.
    await Promise.all([this.#queue.waitUntilReady(), this.#events.waitUntilReady()]);
  }

  readonly invoke: RemoteInvoker = async (call: RemoteCall): Promise<unknown> => {
    const { signal } = call;
    if (signal.aborted) throw signal.reason;
    const id = jobIdOf(call.runId, call.call);
    const data: CallJob = {
      runId: call.runId,
      call: call.call,
      tool: call.tool,
      args: call.args,
      outputPaths: call.outputPaths,
      timeoutMs: call.timeoutMs,
      retries: call.retries,
    };
    const { keep } = this.#settings;
    this.#retries.set(id, call.onRetry);
    const added = this.#queue.add(call.tool, data, {
      jobId: id,
      attempts: call.retries.limit + 1,
      ...(call.retries.limit > 0 && { backoff: { type: BACKOFF_TYPE } }),
      removeOnComplete: { age: keep.completed },
      removeOnFail: { age: keep.failed },
    });
    const onAbort = () => this.#track(added.then(() => this.#cancel(id)));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const job = await added;
      const answer = (await job.waitUntilFinished(this.#events)) as CallValue | null;
      // The worker's choice, as the branch value the run reads (it refuses one that names no
      // alternative); a plain value is data, whatever it looks like.
      return answer?.branch !== undefined ? markedBranch(answer.branch, answer.value) : answer?.value;
    } catch (e) {
      // An aborted run is cancelled by the executor whatever ends here.
      if (signal.aborted) throw signal.reason;
      const reason = e instanceof Error ? e.message : String(e);
      const { error, contract } = decodeError(reason);
      const failed = new RemoteCallError(error, { call: call.call, job: id });
      // The worker's (or the queue's) own failure is a contract error: never handled.
      throw contract ? contractError(failed) : failed;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.#retries.delete(id);
    }
  };

  /** A job of an aborted run: removed if it waits, else its worker is asked to abort it. */
  async #cancel(id: string): Promise<void> {
    const removed = await this.#queue.remove(id);
    if (removed === 1) return;
    await this.#producer.publishEvent({ eventName: CANCEL_EVENT, jobId: id }, this.#settings.maxEvents);
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((e: unknown) => this.#settings.onError(e as Error));
    this.#cancelling.add(tracked);
    void tracked.finally(() => this.#cancelling.delete(tracked));
  }

  async close(): Promise<void> {
    await Promise.all(this.#cancelling);
    await Promise.all([this.#events.close(), this.#producer.close()]);
    await this.#queue.close();
  }
}
