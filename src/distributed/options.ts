/** Checks of the option values the dispatcher and the worker share: a TypeError names the bad one. */
import { DEFAULT_REDIS_URL, type RedisConnection, redisOptions } from './redis-url.js';

export const DEFAULT_QUEUE = 'planmode';

/** A whole number >= least, or the default when the option is not given. */
export function wholeNumberOption(name: string, value: unknown, least: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least) {
    throw new TypeError(`Expected ${name} to be a whole number >= ${least}, got ${String(value)}`);
  }
  return value;
}

/** A queue name BullMQ takes: no ':' (its key separator), not empty. */
export function queueOption(value: unknown): string {
  if (value === undefined) return DEFAULT_QUEUE;
  if (typeof value !== 'string' || !/^[A-Za-z0-9._-]{1,100}$/.test(value)) {
    throw new TypeError(
      `Expected queue to be a name of letters, digits, '.', '_' and '-', got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

export function redisOption(value: unknown): { url: string; connection: RedisConnection } {
  const url = value === undefined ? DEFAULT_REDIS_URL : value;
  if (typeof url !== 'string') throw new TypeError(`Expected redis to be a URL string, got ${typeof url}`);
  return { url, connection: redisOptions(url) };
}

export function functionOption<T>(name: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`Expected ${name} to be a function, got ${typeof value}`);
  }
  return value;
}
