/** The run journal's one error: its file or directory cannot be created, read or written. */
import { PlanError } from '../errors.js';

export interface JournalErrorOptions {
  /** The directory or file at fault. */
  readonly path: string;
  /** The fs error, when there is one. */
  readonly cause?: unknown;
}

/**
 * A journal that cannot be opened, read or written. `path` is the file or directory at fault,
 * `cause` the fs error; the message says what happened and how to fix it.
 */
export class JournalError extends PlanError {
  override name = 'JournalError';
  readonly path: string;

  constructor(message: string, options: JournalErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.path = options.path;
  }
}

/** Checks the name too, so it works across copies of the package and across realms. */
export function isJournalError(value: unknown): value is JournalError {
  return value instanceof JournalError || (value instanceof Error && value.name === 'JournalError');
}

/** What an fs error means for a journal, and what to do about it: "<what>; <fix>". */
export function describeFsError(cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied; fix its permissions or choose a directory you can write to';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory; choose another journal directory';
    case 'EISDIR':
      return 'it is a directory, not a file; remove it or choose another journal directory';
    case 'EROFS':
      return 'the file system is read-only; choose a journal directory on a writable file system';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'no space left on the device; free some space or choose another journal directory';
    case 'ENAMETOOLONG':
      return 'the path is too long; choose a shorter journal directory';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files; close some files or raise the limit (ulimit -n)';
    default: {
      const message = cause instanceof Error ? cause.message : String(cause);
      return `${message}; check that the journal directory exists and is writable`;
    }
  }
}
