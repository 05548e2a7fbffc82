/**
 * One connection attempt, no retries, before anything starts: BullMQ's own connections retry
 * for ever (right for a worker when Redis restarts, wrong for a first start with a wrong URL).
 */
import type { Redis } from 'ioredis';
import { RedisConnectionError } from './connection-error.js';
import { type RedisConnection, redact } from './redis-url.js';

export interface ProbeOptions {
  /** ioredis options, from `redisOptions(url)`. */
  readonly connection: RedisConnection;
  /** For the message. */
  readonly url: string;
  /** How long to wait for the connection and a PONG. */
  readonly timeoutMs: number;
  /** ioredis's client class, from loadQueuePackages(). */
  readonly Redis: typeof Redis;
}

/** @throws {RedisConnectionError} when Redis cannot be reached or does not answer. */
export async function probeRedis(options: ProbeOptions): Promise<void> {
  const client = new options.Redis({
    ...options.connection,
    lazyConnect: true,
    connectTimeout: options.timeoutMs,
    commandTimeout: options.timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED, ENOENT, ...) says more than the rejected connect
  // ("Connection is closed."), and is no unhandled 'error' event.
  let socketError: unknown;
  client.on('error', (e) => (socketError ??= e));
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    throw new RedisConnectionError(redact(options.url), { cause: socketError ?? e });
  } finally {
    client.disconnect();
  }
}
