/** Redis could not be reached: the error lives with planmode's other errors. */
export { isRedisConnectionError, RedisConnectionError } from '../errors.js';
