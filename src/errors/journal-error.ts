/**
 * The run journal's error. It lives here, beneath every layer, with the other public errors;
 * run/ builds its messages.
 */
import { isKind, PlanError } from './base.js';

/** A part of a run a journal is bound to (run/'s journal digests list them in order). */
export type JournalPart = 'plan' | 'input' | 'state' | 'tools';

/** Where a journal went wrong, for {@link JournalError}. */
export interface JournalErrorOptions {
  /** The directory or file at fault. */
  readonly path: string;
  /**
   * The fs error, when there is one.
   * @default undefined
   */
  readonly cause?: unknown;
  /**
   * The 1-based line of the journal at fault, when one line is.
   * @default undefined
   */
  readonly line?: number;
  /**
   * The parts of the run the journal was not written for.
   * @default []
   */
  readonly differs?: readonly JournalPart[];
}

/**
 * A journal that cannot be opened, read, written or resumed from, or that another run is using
 * (its lock names the process). `path` is the file or directory at fault, `cause` the fs error,
 * `line` the line a resume refused, `differs` the parts of the run another run's journal was
 * written for; the message says what happened and how to fix it, on one line.
 */
export class JournalError extends PlanError {
  override name = 'JournalError';
  readonly path: string;
  readonly line: number | undefined;
  readonly differs: readonly JournalPart[];

  constructor(message: string, options: JournalErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.path = options.path;
    this.line = options.line;
    this.differs = options.differs ?? [];
  }
}

export function isJournalError(value: unknown): value is JournalError {
  return isKind(value, JournalError, ['JournalError']);
}
