/**
 * planmode/distributed: run a plan's tool calls in other processes or on other machines through
 * a BullMQ queue in Redis. `run()` stays the scheduler (`remote: dispatcher.invoke`); workers
 * (`startWorker`, or `plan worker`) run the tools. BullMQ and ioredis are optional peer
 * dependencies, loaded when a dispatcher or worker starts. RedisConnectionError and
 * RemoteCallError come from `planmode`, with the other errors.
 */
export { createDispatcher, type Dispatcher, type DispatcherOptions } from './dispatcher.js';
export { type PlanWorker, startWorker, type WorkerJobEvent, type WorkerOptions } from './worker.js';
export { jobIdOf } from './job-id.js';
export { DEFAULT_QUEUE } from './options.js';
export { DEFAULT_REDIS_URL } from './redis-url.js';
