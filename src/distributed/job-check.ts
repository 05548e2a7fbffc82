/**
 * A job's data as a worker takes it from the queue: anyone who can write to the Redis can add a
 * job, so its fields are checked before any of them is used. A job whose `retries` was not a
 * policy made the backoff throw inside BullMQ: the job sat until it stalled (about 90 s) and was
 * reported as a Redis error. Now it fails at once, unrecoverable, saying which field is wrong.
 */
import type { CallJob } from './wire.js';

const isWhole = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;
const isTime = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a job's data, or null when it is a call as a dispatcher writes one. */
export function callJobProblem(data: unknown): string | null {
  if (!isPlainObject(data)) return 'its data is not an object';
  const job = data as Record<keyof CallJob, unknown>;
  for (const key of ['runId', 'call', 'tool'] as const) {
    if (typeof job[key] !== 'string') return `"${key}" is not a string`;
  }
  if (!isPlainObject(job.args)) return '"args" is not an object';
  if (!Array.isArray(job.outputPaths) || !job.outputPaths.every((path) => typeof path === 'string'))
    return '"outputPaths" is not an array of strings';
  if (!isTime(job.timeoutMs)) return '"timeoutMs" is not a number of milliseconds >= 0';
  if (!isPlainObject(job.retries)) return '"retries" is not a retry policy object';
  const retries = job.retries as Record<string, unknown>;
  if (!isWhole(retries.limit)) return '"retries.limit" is not a whole number >= 0';
  for (const key of ['delayMs', 'maxDelayMs', 'factor']) {
    if (!isTime(retries[key])) return `"retries.${key}" is not a finite number >= 0`;
  }
  return null;
}
