/**
 * RunOptions checked before anything runs: a wrong type or range is a TypeError naming the
 * option and the value (p-queue's convention), not a NaN delay or a timer that fires at once.
 */
import { optionKeys, rejectUnknownOptions } from '../language/option-keys.js';
import { describeValue } from '../language/describe-value.js';
import { type Limits, resolveLimits } from '../language/limits.js';
import { MAX_DELAY_MS } from '../tools/tool-values.js';
import type { RunOptions } from './types.js';
import { checkTracingOptions } from './trace/tracing-options.js';
import { isLimiter } from './limit/index.js';

/** A run id: safe in file names, Redis keys and BullMQ job ids (`<runId>.<callId>`: no ':' or '.'). */
const RUN_ID = /^[A-Za-z0-9_-]{1,200}$/;

const DEFAULT_CONCURRENCY = 16;

const RUN_OPTIONS = optionKeys<RunOptions>({
  tools: true,
  input: true,
  state: true,
  mode: true,
  concurrency: true,
  timeoutMs: true,
  signal: true,
  failFast: true,
  approve: true,
  maxEditRetries: true,
  latent: true,
  onEvent: true,
  context: true,
  journal: true,
  resume: true,
  remote: true,
  reuse: true,
  runId: true,
  strict: true,
  haltOnInvalidCall: true,
  limits: true,
  tracing: true,
  limiter: true,
  applyDefaults: true,
});

/** RunOptions.maxEditRetries' default. */
export const DEFAULT_MAX_EDIT_RETRIES = 5;

export interface CheckedRunOptions {
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly limits: Limits;
  readonly maxEditRetries: number;
}

/**
 * @throws {TypeError} naming the first option whose value has the wrong type or range.
 */
export function checkRunOptions(options: RunOptions): CheckedRunOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`Expected run options to be an object with tools, got ${describeValue(options)}`);
  }
  rejectUnknownOptions('run', options, RUN_OPTIONS);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  // Infinity is p-queue's own word for "no bound", so it means the same here.
  if (!((Number.isInteger(concurrency) && concurrency >= 1) || concurrency === Number.POSITIVE_INFINITY)) {
    throw new TypeError(
      `Expected concurrency to be a whole number >= 1, or Infinity for no bound, got ${describeValue(concurrency)}`,
    );
  }
  const timeoutMs = options.timeoutMs ?? 0;
  if (!(typeof timeoutMs === 'number' && timeoutMs >= 0 && timeoutMs <= MAX_DELAY_MS)) {
    throw new TypeError(
      `Expected timeoutMs to be a number from 0 to ${MAX_DELAY_MS} (0 for none), got ${describeValue(timeoutMs)}`,
    );
  }
  if (options.runId !== undefined && !(typeof options.runId === 'string' && RUN_ID.test(options.runId))) {
    throw new TypeError(
      `Expected runId to be letters, digits, '_' and '-' (at most 200), got ${describeValue(options.runId)}`,
    );
  }
  for (const key of ['approve', 'latent', 'onEvent', 'remote', 'reuse'] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== 'function') {
      throw new TypeError(`Expected ${key} to be a function, got ${describeValue(value)}`);
    }
  }
  for (const key of ['failFast', 'resume', 'strict', 'haltOnInvalidCall', 'applyDefaults'] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`Expected ${key} to be true or false, got ${describeValue(value)}`);
    }
  }
  if (options.mode !== undefined && options.mode !== 'eager' && options.mode !== 'lazy') {
    throw new TypeError(`Expected mode to be 'eager' or 'lazy', got ${describeValue(options.mode)}`);
  }
  if (options.journal !== undefined && (typeof options.journal !== 'string' || options.journal === '')) {
    throw new TypeError(`Expected journal to be a directory path, got ${describeValue(options.journal)}`);
  }
  if (options.limiter !== undefined && !isLimiter(options.limiter)) {
    throw new TypeError(
      `Expected limiter to be made by createLimiter(), got ${describeValue(options.limiter)}`,
    );
  }
  const signal = options.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`Expected signal to be an AbortSignal, got ${describeValue(signal)}`);
  }
  for (const key of ['input', 'state'] as const) {
    const value = options[key];
    if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new TypeError(`Expected ${key} to be an object of values, got ${describeValue(value)}`);
    }
  }
  const maxEditRetries = options.maxEditRetries ?? DEFAULT_MAX_EDIT_RETRIES;
  if (!(Number.isInteger(maxEditRetries) && maxEditRetries >= 0)) {
    throw new TypeError(
      `Expected maxEditRetries to be a whole number >= 0, got ${describeValue(maxEditRetries)}`,
    );
  }
  checkTracingOptions(options.tracing);
  return { concurrency, timeoutMs, limits: resolveLimits(options.limits), maxEditRetries };
}
