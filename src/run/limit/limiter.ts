/**
 * A limiter: one p-queue per limited group (a tool, or an MCP server's tools), shared by every
 * run, `solve()` loop and worker given it, so one quota holds across all of them in a process.
 * Each queue is p-queue's: `concurrency`, `intervalCap`/`interval` in strict (sliding window)
 * mode, and `priority` for who goes first among the calls waiting. Calls of unlimited tools
 * never come here: they keep the run's own slots (see schedule/call-slots.ts).
 */
import PQueue from 'p-queue';
import { describeValue } from '../../language/describe-value.js';
import { StartWindow } from './start-window.js';
import { concurrencyProblem, type Quota, rateLimitProblems } from '../../tools/quota.js';
import { checkOptions, type OptionSpec } from '../../language/option-keys.js';

const LIMITER = Symbol.for('planmode.limiter');

export interface LimiterOptions {
  /**
   * Quotas by group name (a tool's name, or an MCP server's), over what the tools declare: a
   * group named here is limited so even when its tools declare nothing. The CLI's `--rate` and
   * `--tool-concurrency` come here.
   * @default {}
   */
  readonly quotas?: Readonly<Record<string, Quota>>;
}

/** What a group's queue holds now: for observers, tests and the CLI. */
export interface LimiterGroupState {
  readonly quota: Quota;
  /** Calls of the group running now. */
  readonly running: number;
  /** Calls of the group waiting for a slot or for the rate window. */
  readonly waiting: number;
}

/** What one call asks of its group's queue. */
export interface LimitedTaskOptions {
  /** Higher goes first among the calls waiting (the run gives its longest remaining chain). */
  readonly priority: number;
  /** Aborting it takes the call out of the queue if it has not started. */
  readonly signal?: AbortSignal;
}

/** quotas has its own check (each group's quota). */
const LIMITER_OPTIONS: OptionSpec<LimiterOptions> = { quotas: 'any' };

export class Limiter {
  readonly [LIMITER] = true;
  readonly #overrides: ReadonlyMap<string, Quota>;
  readonly #queues = new Map<string, { quota: Quota; queue: PQueue; window: StartWindow | null }>();

  constructor(options: LimiterOptions = {}) {
    if (options === null || typeof options !== 'object')
      throw new TypeError(`Expected limiter options to be an object, got ${describeValue(options)}`);
    checkOptions('createLimiter', options, LIMITER_OPTIONS);
    const overrides = new Map<string, Quota>();
    const quotas = options.quotas ?? {};
    if (quotas === null || typeof quotas !== 'object' || Array.isArray(quotas))
      throw new TypeError(`Expected quotas to be an object of group names, got ${describeValue(quotas)}`);
    for (const [group, quota] of Object.entries(quotas)) {
      const problems = quotaCheck(quota);
      if (problems.length > 0)
        throw new TypeError(`Expected a valid quota for group '${group}': ${problems.join('; ')}`);
      overrides.set(group, quota);
    }
    this.#overrides = overrides;
  }

  /**
   * The quota that holds for a group: the limiter's own for it, else what its tools declare;
   * undefined when neither limits it.
   */
  quotaFor(group: string, declared: Quota | undefined): Quota | undefined {
    const own = this.#overrides.get(group);
    if (own !== undefined) return own;
    if (declared === undefined || (declared.concurrency === undefined && declared.rateLimit === undefined))
      return undefined;
    return declared;
  }

  /**
   * Runs `task` when the group's quota allows it, higher priorities first among those waiting.
   * The group's queue is made on first use with `quota`; a later run that declares another
   * quota for the same group is a TypeError (two quotas cannot both hold).
   * @throws {TypeError} when the group has another quota already.
   */
  schedule<T>(
    group: string,
    quota: Quota,
    task: () => T | PromiseLike<T>,
    options: LimitedTaskOptions,
  ): Promise<T> {
    this.claim(group, quota);
    const { queue, window } = this.#queues.get(group)!;
    return queue.add(async () => (window === null ? task() : window.run(task)), {
      priority: options.priority,
      ...(options.signal !== undefined && { signal: options.signal }),
    }) as Promise<T>;
  }

  /** What each group's queue holds now, by group name. */
  groups(): Record<string, LimiterGroupState> {
    const groups: Record<string, LimiterGroupState> = {};
    for (const [name, { quota, queue }] of this.#queues)
      groups[name] = { quota, running: queue.pending, waiting: queue.size };
    return groups;
  }

  /** Resolves once no group has a call running or waiting. */
  async onIdle(): Promise<void> {
    await Promise.all([...this.#queues.values()].map(({ queue }) => queue.onIdle()));
  }

  /**
   * @internal The group's queue, made with `quota` on first use: a run claims its groups as it
   * starts, so two quotas for one group fail the run before any call does.
   * @throws {TypeError} when the group has another quota already.
   */
  claim(group: string, quota: Quota): PQueue {
    const made = this.#queues.get(group);
    if (made !== undefined) {
      if (made.quota !== quota && !sameQuota(made.quota, quota))
        throw new TypeError(
          `Expected one quota for group '${group}': it holds ${showQuota(made.quota)} already, and a run declares ${showQuota(quota)}; declare the same quota on every run that shares this limiter, or set it once in createLimiter({ quotas })`,
        );
      return made.queue;
    }
    const rate = quota.rateLimit;
    const queue = new PQueue({
      concurrency: quota.concurrency ?? Number.POSITIVE_INFINITY,
      ...(rate !== undefined && { intervalCap: rate.limit, interval: rate.intervalMs, strict: true }),
    });
    this.#queues.set(group, { quota, queue, window: rate === undefined ? null : new StartWindow(rate) });
    return queue;
  }
}

/**
 * A limiter to share between runs (`run({ limiter })`), `solve()` loops and workers in one
 * process, so one quota per tool (or MCP server) holds across all of them.
 * @throws {TypeError} for a bad quota in `options.quotas`.
 */
export function createLimiter(options: LimiterOptions = {}): Limiter {
  return new Limiter(options);
}

/** A limiter made by this copy of planmode or another one (recognised by its brand). */
export function isLimiter(value: unknown): value is Limiter {
  return typeof value === 'object' && value !== null && (value as { [LIMITER]?: unknown })[LIMITER] === true;
}

function quotaCheck(quota: unknown): string[] {
  if (quota === null || typeof quota !== 'object' || Array.isArray(quota))
    return [`a quota is { concurrency?, rateLimit? }, not ${describeValue(quota)}`];
  const { concurrency, rateLimit } = quota as Record<string, unknown>;
  const problems: string[] = [];
  if (concurrency === undefined && rateLimit === undefined)
    problems.push('it sets neither concurrency nor rateLimit');
  const problem = concurrency === undefined ? undefined : concurrencyProblem(concurrency);
  if (problem !== undefined) problems.push(problem);
  if (rateLimit !== undefined) problems.push(...rateLimitProblems(rateLimit));
  return problems;
}

function sameQuota(a: Quota, b: Quota): boolean {
  return (
    a.concurrency === b.concurrency &&
    a.rateLimit?.limit === b.rateLimit?.limit &&
    a.rateLimit?.intervalMs === b.rateLimit?.intervalMs
  );
}

function showQuota(quota: Quota): string {
  const parts: string[] = [];
  if (quota.concurrency !== undefined) parts.push(`concurrency ${quota.concurrency}`);
  if (quota.rateLimit !== undefined)
    parts.push(`${quota.rateLimit.limit} per ${quota.rateLimit.intervalMs} ms`);
  return parts.join(' and ');
}
