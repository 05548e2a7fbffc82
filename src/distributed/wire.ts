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

/** A job's return value: the tool's value in a box, so that `undefined` survives JSON. */
export interface CallValue {
  readonly value?: unknown;
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

/** A call's error as the failed reason BullMQ stores (a string). */
export function encodeError(error: CallError): string {
  return JSON.stringify(error.code === undefined ? { message: error.message } : error);
}

/** The error a failed reason stands for: ours as sent, anything else the queue's own. */
export function decodeError(reason: string): CallError {
  try {
    const value: unknown = JSON.parse(reason);
    if (isCallError(value)) return value.code === undefined ? { message: value.message } : value;
  } catch {
    // Not ours: a reason BullMQ gave itself.
  }
  return { message: `the job failed in the queue: ${reason}`, code: REMOTE_FAILED };
}

export function isCallError(value: unknown): value is CallError {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { message, code } = value as { message?: unknown; code?: unknown };
  return typeof message === 'string' && (code === undefined || typeof code === 'string');
}

export function isCallProgress(value: unknown): value is CallProgress {
  const retry = (value as CallProgress | null)?.retry;
  return (
    typeof retry === 'object' &&
    retry !== null &&
    Number.isInteger(retry.attempt) &&
    typeof retry.delayMs === 'number' &&
    isCallError(retry.error)
  );
}
