export { BRANCH_KEY, type BranchValue, branch, isBranchValue } from './call/index.js';
export { type RunHandle, run, startRun } from './run.js';
export { CALL_STATUSES } from './types.js';
export type * from './types.js';
export type { TracingOptions } from './trace/tracing-options.js';
export { Journal, type JournalOptions, journalKey } from './journal/index.js';
export { isJournalError, JournalError } from './journal/index.js';
export { type Retries, retriesOf, retryDelay } from './retry.js';
export { toCallError } from './call/index.js';
// Installs the registry's workflow binder: a tool with a `plan` runs through this executor.
export { MAX_WORKFLOW_DEPTH } from './workflow/index.js';
export {
  createLimiter,
  isLimiter,
  Limiter,
  type LimiterGroupState,
  type LimiterOptions,
} from './limit/index.js';
