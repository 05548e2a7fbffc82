/**
 * The plan store's error: a store that refuses a read, a write, a list or a delete for a reason
 * of its own (a key that names a link, a folder moved away, a value larger than it keeps). It
 * lives here, beneath every layer, with the other public errors; agent/plan-store builds its
 * messages. A bad key or value given by the caller is a TypeError, not this.
 */
import { isKind, PlanError } from './base.js';

/**
 * - `link`: the key names a symbolic link (the folder store never follows one);
 * - `not-a-file`: the key names something that is not a regular file (a folder, a FIFO);
 * - `moved`: the store's folder was moved, removed or replaced after the store opened it;
 * - `outside`: the entry would have been made or read outside the store's folder;
 * - `closed`: the store was closed;
 * - `too-large`: the stored value is larger than the read allows (it was not read whole);
 * - `too-many`: `list()` matched more keys than the store lists;
 * - `wrong-type`: the stored value is not text (a Redis key of another type).
 */
export type PlanStoreErrorKind =
  'link' | 'not-a-file' | 'moved' | 'outside' | 'closed' | 'too-large' | 'too-many' | 'wrong-type';

/** Where a store went wrong, for {@link PlanStoreError}. */
export interface PlanStoreErrorOptions {
  /** What went wrong (see PlanStoreErrorKind). */
  readonly kind: PlanStoreErrorKind;
  /**
   * The key at fault, when one is.
   * @default undefined
   */
  readonly key?: string;
  /**
   * The error underneath (an fs or Redis error).
   * @default undefined
   */
  readonly cause?: unknown;
}

/** A plan store that refuses an operation; the message says what and how to fix it. */
export class PlanStoreError extends PlanError {
  override name = 'PlanStoreError';
  readonly kind: PlanStoreErrorKind;
  readonly key: string | undefined;

  constructor(message: string, options: PlanStoreErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.key = options.key;
  }
}

export function isPlanStoreError(value: unknown): value is PlanStoreError {
  return isKind(value, PlanStoreError, ['PlanStoreError']);
}
