/** A tool's retry policy, normalized, and the delay before each retry (exponential, capped). */
import type { RetryPolicy, Tool } from '../tools/tool.js';

export interface Retries {
  readonly limit: number;
  readonly delayMs: number;
  readonly maxDelayMs: number;
  readonly factor: number;
}

const NONE: Retries = { limit: 0, delayMs: 100, maxDelayMs: 10_000, factor: 2 };

/** The tool's policy with defaults filled in; ToolRegistry has checked every value of it. */
export function retriesOf(tool: Tool): Retries {
  const policy: number | RetryPolicy | undefined = tool.retries;
  if (policy === undefined) return NONE;
  if (typeof policy === 'number') return { ...NONE, limit: policy };
  return {
    limit: policy.limit,
    delayMs: policy.delayMs ?? NONE.delayMs,
    maxDelayMs: policy.maxDelayMs ?? NONE.maxDelayMs,
    factor: policy.factor ?? NONE.factor,
  };
}

/** Delay before retry number `retry` (1 for the first retry). */
export function retryDelay(retries: Retries, retry: number): number {
  // After ~1000 retries factor ** n is Infinity, and 0 * Infinity would be NaN.
  if (retries.delayMs === 0) return 0;
  return Math.min(retries.maxDelayMs, retries.delayMs * retries.factor ** (retry - 1));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
