/**
 * Every error planmode throws, from one module: one base class, a `name` on each, and a brand
 * that the guards (`isPlanError`, `isToolExecutionError`, ...) recognise from any copy of
 * planmode. The classes live in errors/, one file per kind of failure; every layer imports them
 * from here.
 */
export { isPlanError, PlanError } from './errors/base.js';
export * from './errors/plan-errors.js';
export * from './errors/call-errors.js';
export * from './errors/permission-errors.js';
export * from './errors/agent-errors.js';
export * from './errors/service-errors.js';
export { isJournalError, JournalError, type JournalErrorOptions } from './errors/journal-error.js';
export {
  isSessionError,
  SessionError,
  type SessionErrorKind,
  type SessionErrorOptions,
} from './errors/session-error.js';
export {
  isPlanStoreError,
  PlanStoreError,
  type PlanStoreErrorKind,
  type PlanStoreErrorOptions,
} from './errors/plan-store-error.js';
