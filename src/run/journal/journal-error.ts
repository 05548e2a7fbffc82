/**
 * The run journal's one error: its file or directory cannot be created, read or written, or
 * what it holds cannot be trusted by a resume (another run's journal, a record that is not one).
 */
import { JournalError } from '../../errors.js';
import type { JournalDigests, JournalPart } from './journal-digests.js';

export { isJournalError, JournalError, type JournalErrorOptions } from '../../errors.js';

/** What a user can do about a journal a resume cannot trust. */
const START_OVER = 'remove it, or run without --resume to start over';

/** Longest reason kept: a record's call ids and paths are the journal's, of any length. */
const MAX_REASON = 500;

/** A line of the journal that a resume cannot trust: `reason` says what is wrong with it. */
export function journalLineError(path: string, line: number, reason: string): JournalError {
  const short = reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason;
  return new JournalError(`cannot resume from the journal '${path}': line ${line}: ${short}; ${START_OVER}`, {
    path,
    line,
  });
}

const PART_NAMES: Readonly<Record<JournalPart, string>> = {
  plan: 'plan',
  input: 'input',
  state: 'initial state',
  tools: 'set of tools',
};

/** Another run's journal at this run's file name: names each part that differs, and its digests. */
export function journalMismatchError(
  path: string,
  differs: readonly JournalPart[],
  recorded: JournalDigests,
  expected: JournalDigests,
): JournalError {
  const names = differs.map((part) => PART_NAMES[part]);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  const digests = differs
    .map(
      (part) =>
        `${part} digest ${recorded[part].slice(0, 12)} in the journal, ${expected[part].slice(0, 12)} for this run`,
    )
    .join('; ');
  return new JournalError(
    `the journal '${path}' was written for a different ${list} (${digests}): ${START_OVER}`,
    { path, line: 1, differs },
  );
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
    case 'ELOOP':
      return 'it is a symbolic link, which a journal never follows; remove the link or choose another journal directory';
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
