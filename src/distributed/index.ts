/**
 * planmode/distributed: run a plan's tool calls in other processes or on other machines through
 * a BullMQ queue in Redis. `run()` stays the scheduler (`remote: dispatcher.invoke`); workers
 * (`startWorker`, or `plan worker`) run the tools.
 */
export { createDispatcher, type Dispatcher, type DispatcherOptions } from './dispatcher.js';
export { type PlanWorker, startWorker, type WorkerJobEvent, type WorkerOptions } from './worker.js';
export { isRedisConnectionError, RedisConnectionError } from './connection-error.js';
export { isRemoteCallError, RemoteCallError } from './remote-call-error.js';
export { jobIdOf } from './job-id.js';
export { DEFAULT_QUEUE } from './options.js';
export { DEFAULT_REDIS_URL, type RedisConnection, redisOptions } from './redis-url.js';
export { CANCEL_EVENT, REMOTE_FAILED } from './wire.js';
