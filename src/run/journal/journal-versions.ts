/** The versions of the journal format: which one a new journal is, and what each may hold. */

/**
 * The version of the journal format this code writes: version 3 with compact lines for each
 * call's start and end (journal-compact). Every earlier version is still read and resumed, and a
 * resume appends to a journal in its own version. Version 1 holds every event, four lines per
 * call; version 2 only the records a resume reads (no `call:ready` or `state:write` lines).
 */
export const JOURNAL_VERSION = 4;

/**
 * The first version that holds the records of elements and sub-calls (journal-parts): version 2
 * and those records. Version 3 was written for plans with a `_forEach` call or a workflow call,
 * version 2 for the others; version 4 holds them whatever the plan.
 */
export const PARTS_VERSION = 3;

/** The first version whose calls' starts and ends may be compact lines (journal-compact). */
export const COMPACT_VERSION = 4;

/** The versions this code reads. */
export type JournalVersion = 1 | 2 | 3 | 4;

/** Events a version 2 journal never holds: a resume reads neither. */
export const NOT_IN_VERSION_2: ReadonlySet<string> = new Set(['call:ready', 'state:write']);

/** Every version this code reads. */
export const VERSIONS: readonly JournalVersion[] = [1, 2, 3, 4];
