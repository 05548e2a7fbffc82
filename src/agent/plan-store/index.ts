/**
 * Plan storage: where plan mode keeps its plan file, todo list and snapshot. One small
 * interface (read, write, list, delete), keys checked in one place, and three stores: a local
 * folder (the default), memory, and Redis (ioredis loaded only when that store is used).
 */
export { LocalFolderStore, type LocalFolderStoreOptions } from './local-folder-store.js';
export { MemoryPlanStore, type MemoryPlanStoreOptions } from './memory-store.js';
export { type FolderStrategy } from './opened-folder.js';
export {
  checkStoreKey,
  DEFAULT_MAX_LIST_KEYS,
  DEFAULT_MAX_VALUE_BYTES,
  MAX_STORE_KEY_LENGTH,
  type PlanStore,
  type PlanStoreReadOptions,
} from './plan-store.js';
export {
  DEFAULT_REDIS_STORE_PREFIX,
  RedisPlanStore,
  type RedisPlanStoreClient,
  type RedisPlanStoreOptions,
} from './redis-store.js';
