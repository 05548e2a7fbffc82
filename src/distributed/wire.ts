/**
 * What travels through the queue: a call as job data, its value as the job's return value, its
 * error as the job's failed reason, and a retry as job progress. All of it is JSON.
 */
import type { JsonObject } from '../language/document.js';
import type { CallError, RemoteRetry, Retries } from '../run/index.js';

/** A job's data: one call of one run. */
export interface CallJob {
  readonly runId: string;
  readonly call: string;
  readonly tool: string;
  readonly args: JsonObject;
  readonly outputPaths: readonly string[];
  /** Per attempt; 0 means none. */
  readonly timeoutMs: number;
  readonly retries: Retries;
}

/**
 * A job's return value: the tool's value in a box, so that `undefined` survives JSON, and the
 * alternative the tool chose beside it. The worker sets `branch` only from a value `branch()`
 * made or from a tool that declares `branchJson: true`, never from what the value holds: a
 * value that looks like `{"†branch": k, "value": ...}` is data here as everywhere.
 */
export interface CallValue {
  readonly value?: unknown;
  /** The `||` alternative the tool chose (its index or path), when it chose one. */
  readonly branch?: number | string;
}

/** A job's progress while it waits for a retry. */
export interface CallProgress {
  readonly retry: RemoteRetry;
}

/** The custom queue event that asks workers to abort a running job of a cancelled run. */
export const CANCEL_EVENT = 'planmode:cancel';

/** The job name every call's job carries is its tool; its backoff type is this one. */
export const BACKOFF_TYPE = 'planmode';

/** Code of a job that failed for a reason of the queue's own (a worker lost too often, ...). */
export const REMOTE_FAILED = 'REMOTE_FAILED';

/**
 * A call's error as the failed reason BullMQ stores (a string). `contract` marks an error the
 * worker made around the tool (refused arguments or output, its timeout, a cancellation), not
 * the tool's own: the scheduler never hands those to an error alternative.
 */
export function encodeError(error: CallError, contract = false): string {
  const plain =
    error.code === undefined ? { message: error.message } : { message: error.message, code: error.code };
  return JSON.stringify(contract ? { ...plain, contract: true } : plain);
}

/** What a failed reason says: the error, and whether planmode (not the tool) made it. */
export interface DecodedFailure {
  readonly error: CallError;
  readonly contract: boolean;
}

/**
 * The error a failed reason stands for: ours as sent, anything else the queue's own (a contract
 * error, REMOTE_FAILED).
 */
export function decodeError(reason: string): DecodedFailure {
  try {
    const value: unknown = JSON.parse(reason);
    if (isCallError(value)) {
      const error =
        value.code === undefined ? { message: value.message } : { message: value.message, code: value.code };
      return { error, contract: (value as { contract?: unknown }).contract === true };
    }
  } catch {
    // Not ours: a reason BullMQ gave itself.
  }
  return {
    error: { message: `the job failed in the queue: ${reason}`, code: REMOTE_FAILED },
    contract: true,
  };
}

export function isCallError(value: unknown): value is CallError {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { message, code } = value as { message?: unknown; code?: unknown };
  return typeof message === 'string' && (code === undefined || typeof code === 'string');
}

/**
 * A progress report that claims to be a retry: an object with a `retry` member. What the retry
 * holds is the run's to check (see RemoteCall.onRetry): a report of the wrong shape is refused
 * there, with a reason, not dropped here unheard.
 */
export function isCallProgress(value: unknown): value is CallProgress {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, 'retry');
}
