/** The flags of distributed runs (--redis, --queue) checked, and an unreachable Redis as one CLI line. */
import { isRedisConnectionError } from '../../distributed/connection-error.js';
import { createDispatcher, type Dispatcher } from '../../distributed/dispatcher.js';
import { queueOption } from '../../distributed/options.js';
import { redisOptions } from '../../distributed/redis-url.js';
import { CliInputError } from '../cli-input-error.js';
import { asMissingDependencyUsage } from './missing-dependency.js';
import type { CliIo } from '../io.js';

export interface RedisFlags {
  /**
   * The Redis of the queue: `redis://host:port[/db]`, `rediss://...` or `unix:///path.sock`.
   * @default undefined (`plan run`: tools run in this process; `plan worker`: redis://127.0.0.1:6379)
   */
  readonly redis?: string;
  /**
   * The BullMQ queue.
   * @default 'planmode'
   */
  readonly queue?: string;
}

/**
 * Checks --redis and --queue before anything connects or runs.
 *
 * @throws {CliInputError} naming the flag (exit 2).
 */
export function checkRedisFlags(flags: RedisFlags): void {
  if (flags.redis !== undefined) asFlag('--redis', () => redisOptions(flags.redis!));
  if (flags.queue !== undefined) asFlag('--queue', () => queueOption(flags.queue));
}

/**
 * Runs `start`, turning an unreachable Redis, or BullMQ or ioredis not installed, into a
 * CliInputError (exit 2, one line).
 * @param needs what needs the queue packages, for the message.
 */
export async function reachingRedis<T>(start: () => Promise<T>, needs = 'plan worker'): Promise<T> {
  try {
    return await start();
  } catch (e) {
    if (isRedisConnectionError(e)) throw new CliInputError(e.message);
    throw asMissingDependencyUsage(e, needs);
  }
}

/** Opens the queue of `plan run --redis`; connection errors after the start are one line each. */
export function openDispatcher(flags: RedisFlags, io: CliIo): Promise<Dispatcher> {
  return reachingRedis(
    () =>
      createDispatcher({
        redis: flags.redis!,
        ...(flags.queue !== undefined && { queue: flags.queue }),
        onError: lineOnce(io, 'plan: redis'),
      }),
    '--redis',
  );
}

/** Writes each error as one line, skipping repeats of the line before (a reconnect loop). */
export function lineOnce(io: CliIo, prefix: string): (error: Error) => void {
  let last = '';
  return (error) => {
    const line = `${prefix}: ${error.message.replace(/\s+/g, ' ')}\n`;
    if (line === last) return;
    last = line;
    io.stderr.write(line);
  };
}

function asFlag(flag: string, check: () => unknown): void {
  try {
    check();
  } catch (e) {
    if (e instanceof TypeError) throw new CliInputError(`${flag}: ${e.message}`);
    throw e;
  }
}
