/**
 * A tool's quota: how many of its calls may run at once (`concurrency`) and how many may start
 * in any window of time (`rateLimit`). Checked where a definition is read (code tools, tools
 * files, MCP servers, CLI flags), each problem naming the field, the value and the bound.
 */
import { isArrayValue, showValue, thrownMessage } from './safe-describe.js';

/** At most `limit` calls start in any window of `intervalMs` milliseconds (a sliding window). */
export interface RateLimit {
  /** Calls that may start per window: a whole number from 1 to {@link MAX_RATE_LIMIT}. */
  readonly limit: number;
  /** The window, in milliseconds: a whole number from 1 to {@link MAX_RATE_INTERVAL_MS}. */
  readonly intervalMs: number;
}

/** What a tool (or an MCP server, for all its tools) may declare of its calls' pace. */
export interface Quota {
  /** Most calls running at once: a whole number from 1 to {@link MAX_QUOTA_CONCURRENCY}. */
  readonly concurrency?: number;
  readonly rateLimit?: RateLimit;
}

/** Bounds that keep a typo (an extra zero, a negative) from meaning "no quota" or "never". */
export const MAX_QUOTA_CONCURRENCY = 10_000;
export const MAX_RATE_LIMIT = 1_000_000;
/** One day: a longer window is a daily quota, which a process-local limiter cannot keep anyway. */
export const MAX_RATE_INTERVAL_MS = 86_400_000;

const RATE_SHAPE = '{"limit": n, "intervalMs": ms}';

function wholeIn(value: unknown, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
}

/** The problem with a `concurrency` value, if any (`field` names it in the message). */
export function concurrencyProblem(value: unknown, field = 'concurrency'): string | undefined {
  if (wholeIn(value, MAX_QUOTA_CONCURRENCY)) return undefined;
  return `"${field}" must be a whole number from 1 to ${MAX_QUOTA_CONCURRENCY}, not ${showValue(value)}`;
}

/** The problems with a `rateLimit` value: an object {@link RATE_SHAPE} with nothing else. */
export function rateLimitProblems(value: unknown, field = 'rateLimit'): string[] {
  if (value === null || typeof value !== 'object' || isArrayValue(value))
    return [`"${field}" must be an object ${RATE_SHAPE}, not ${showValue(value)}`];
  const rate = value as Record<string, unknown>;
  const problems: string[] = [];
  try {
    for (const key of Object.keys(rate))
      if (key !== 'limit' && key !== 'intervalMs')
        problems.push(`"${field}" has an unknown key ${showValue(key)}; a rate limit is ${RATE_SHAPE}`);
    const { limit, intervalMs } = rate;
    if (!wholeIn(limit, MAX_RATE_LIMIT))
      problems.push(
        `"${field}.limit" must be a whole number from 1 to ${MAX_RATE_LIMIT}, not ${showValue(limit)}`,
      );
    if (!wholeIn(intervalMs, MAX_RATE_INTERVAL_MS))
      problems.push(
        `"${field}.intervalMs" must be a whole number of milliseconds from 1 to ${MAX_RATE_INTERVAL_MS}, not ${showValue(intervalMs)}`,
      );
  } catch (e) {
    problems.push(`reading "${field}" threw: ${thrownMessage(e)}`);
  }
  return problems;
}

/** The problems with a quota's two fields as read from a definition (undefined: not declared). */
export function quotaProblems(concurrency: unknown, rateLimit: unknown): string[] {
  const problems: string[] = [];
  if (concurrency !== undefined) {
    const problem = concurrencyProblem(concurrency);
    if (problem !== undefined) problems.push(problem);
  }
  if (rateLimit !== undefined) problems.push(...rateLimitProblems(rateLimit));
  return problems;
}
