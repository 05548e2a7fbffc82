/** Redis could not be reached: the one error a dispatcher or worker gives before it starts. */
import { PlanError } from '../errors.js';

export class RedisConnectionError extends PlanError {
  override name = 'RedisConnectionError';
  readonly code = 'REDIS_UNREACHABLE';
  constructor(
    /** The URL, password hidden. */
    readonly url: string,
    options: { readonly cause: unknown },
  ) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`cannot connect to Redis at ${url}: ${reason || 'no answer'}`, { cause: options.cause });
  }
}

export function isRedisConnectionError(value: unknown): value is RedisConnectionError {
  return value instanceof RedisConnectionError || (value as Error | null)?.name === 'RedisConnectionError';
}
