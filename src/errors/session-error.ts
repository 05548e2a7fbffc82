/**
 * The plan loop's session error: a snapshot that cannot be read, written or resumed from. It
 * lives here, beneath every layer, with the other public errors; agent/plan-loop builds its
 * messages.
 */
import { isKind, PlanError } from './base.js';

/**
 * - `tool-missing`: the snapshot names a tool the loop is not offered now;
 * - `tool-changed`: a tool of that name is offered, but its definition (description, schemas)
 *   is not the one the snapshot was saved with;
 * - `bad-snapshot`: the snapshot (or its file) is not one solve() wrote: not JSON, truncated,
 *   too large or deep, or a field of the wrong shape (`pointer` says which);
 * - `io`: the file could not be read or written (`cause` is the fs error).
 */
export type SessionErrorKind = 'tool-missing' | 'tool-changed' | 'bad-snapshot' | 'io';

/** Where a session went wrong, for {@link SessionError}. */
export interface SessionErrorOptions {
  /** What is wrong with the session (see SessionErrorKind). */
  readonly kind: SessionErrorKind;
  /**
   * The tool at fault (tool-missing, tool-changed).
   * @default undefined
   */
  readonly tool?: string;
  /**
   * The snapshot file, when the session is a file.
   * @default undefined
   */
  readonly path?: string;
  /**
   * The JSON Pointer of the field at fault in the snapshot (bad-snapshot).
   * @default undefined
   */
  readonly pointer?: string;
  /**
   * The error underneath (an fs error).
   * @default undefined
   */
  readonly cause?: unknown;
}

/** A session snapshot that cannot be read, written or resumed from; the message says how to fix it. */
export class SessionError extends PlanError {
  override name = 'SessionError';
  readonly kind: SessionErrorKind;
  readonly tool: string | undefined;
  readonly path: string | undefined;
  readonly pointer: string | undefined;

  constructor(message: string, options: SessionErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.tool = options.tool;
    this.path = options.path;
    this.pointer = options.pointer;
  }
}

export function isSessionError(value: unknown): value is SessionError {
  return isKind(value, SessionError, ['SessionError']);
}
