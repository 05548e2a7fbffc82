/**
 * The run journal, as the rest of planmode sees it: the Journal a run appends its events to and
 * resumes from, its error, the digests that bind it to its run, and the check of its records
 * against a plan. The files here are its parts (format, records, scan, lock, files, commits,
 * earlier versions).
 */
export { canonicalJson } from './journal-format.js';
export { planIdentity, runIdentity } from './journal-digests.js';
export { isJournalError, JournalError } from './journal-error.js';
export { planRecordCheck } from './journal-plan-check.js';
export { Journal, type JournalOptions, journalKey } from './journal.js';
export { handedJournal, handJournal } from './journal-handoff.js';
export { JournalParts, type RunJournal, SubJournal } from './journal-scope.js';
export type { PartPath, PartRecord } from './journal-parts.js';
