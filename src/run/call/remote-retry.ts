/**
 * A retry report from another process (a worker, through the queue) is untrusted input that the
 * run journals as `call:retry`: it is taken only in the form the journal reads back from its own
 * records, so that nothing a worker sends makes a resume refuse the run's journal or fill it.
 *
 * - `attempt`: a whole number from 1 to the tool's `retries.limit` (a retry after the last
 *   attempt is no retry), never below the attempts the call has made: at most `retries.limit`
 *   reports per call are taken. An earlier one arriving late is ignored, as before.
 * - `delayMs`: a finite number of milliseconds, 0 or more.
 * - `error`: `{message: string, code?: string}` and nothing else; the message is cut to
 *   MAX_ERROR_MESSAGE characters and the code to 100, as a call's own errors are.
 * - no other field.
 */
import { showValue } from '../../tools/safe-describe.js';
import type { CallError, RemoteRetry } from '../types.js';
import { boundedErrorText, MAX_ERROR_MESSAGE } from './call-error.js';

/** Longest error code kept, as for a call's own error. */
const MAX_CODE = 100;

const FIELDS = ['attempt', 'delayMs', 'error'];

/** What a report is checked against: the call as it stands. */
export interface RetryContext {
  /** The tool's `retries.limit`: the most retries, so the most reports. */
  readonly limit: number;
  /** Attempts the call has made so far, as the run counts them. */
  readonly attempts: number;
}

/**
 * The report as the run takes it, `'late'` for one that arrives after a later one (or after the
 * call ended: the caller tells), or why it is refused.
 */
export function checkRemoteRetry(
  report: unknown,
  context: RetryContext,
): { readonly retry: RemoteRetry } | 'late' | { readonly problem: string } {
  if (report === null || typeof report !== 'object' || Array.isArray(report)) {
    return {
      problem: `a retry report must be an object {attempt, delayMs, error}, got ${showValue(report)}`,
    };
  }
  const fields = report as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!FIELDS.includes(key)) return { problem: `a retry report has an unknown field ${showValue(key)}` };
  }
  const { attempt, delayMs, error } = fields;
  if (!(Number.isSafeInteger(attempt) && (attempt as number) >= 1)) {
    return {
      problem: `a retry report's "attempt" must be a whole number (1 or more), got ${showValue(attempt)}`,
    };
  }
  if ((attempt as number) > context.limit) {
    return {
      problem: `a retry report names attempt ${attempt as number}, but the tool retries at most ${context.limit} time${context.limit === 1 ? '' : 's'} (retries.limit)`,
    };
  }
  if ((attempt as number) < context.attempts) return 'late';
  if (!(typeof delayMs === 'number' && Number.isFinite(delayMs) && delayMs >= 0)) {
    return {
      problem: `a retry report's "delayMs" must be a number of milliseconds (0 or more), got ${showValue(delayMs)}`,
    };
  }
  const callError = readError(error);
  if (typeof callError === 'string') return { problem: callError };
  return { retry: { attempt: attempt as number, delayMs, error: callError } };
}

function readError(error: unknown): CallError | string {
  const shape = `a retry report's "error" must be {"message": string, "code"?: string}`;
  if (error === null || typeof error !== 'object' || Array.isArray(error))
    return `${shape}, got ${showValue(error)}`;
  const { message, code } = error as Record<string, unknown>;
  for (const key of Object.keys(error)) {
    if (key !== 'message' && key !== 'code') return `${shape}, with no other field; it has ${showValue(key)}`;
  }
  if (typeof message !== 'string') return `${shape}; its "message" is ${showValue(message)}`;
  if (code !== undefined && typeof code !== 'string') return `${shape}; its "code" is ${showValue(code)}`;
  const text = boundedErrorText(message, MAX_ERROR_MESSAGE);
  return code === undefined ? { message: text } : { message: text, code: boundedErrorText(code, MAX_CODE) };
}
