/**
 * A journal file's records as tests read them: each line parsed, and a compact line of a
 * version 4 journal (`{"start": id, ...}`, `{"end": id, ...}`) read back as the whole event it
 * stands for, defaults filled in, so that a test asks about `type`, `call`, `status` whatever
 * the version the file was written in. The header and every other line are as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandCompact } from '../../src/run/journal/journal-compact.js';
import { isJournalError, type JournalError } from '../../src/run/journal/journal-error.js';
import { Journal, type JournalDigests } from '../../src/run/journal/journal.js';

export type JournalRecord = Record<string, unknown>;

/** The records of the journal file at `path`, blank lines skipped. */
export function journalRecords(path: string): JournalRecord[] {
  return recordsOfText(readFileSync(path, 'utf8'));
}

/** The records of a journal's text. */
export function recordsOfText(text: string): JournalRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => wholeRecord(JSON.parse(line) as JournalRecord));
}

/** A record as the whole event it stands for: a compact line expanded, any other as it is. */
export function wholeRecord(record: JournalRecord): JournalRecord {
  if (Object.hasOwn(record, 'type')) return record;
  const event = expandCompact(record);
  if (event === undefined) return record;
  if (typeof event === 'string') throw new Error(`not a journal record: ${event}`);
  // A plain object, as JSON.parse makes, so that toEqual compares it with literals.
  return { ...event };
}

/**
 * Rewrites the journal at `path` as planmode wrote it in an earlier `version` (2 or 3): the
 * same header under that version, every compact line as its whole event. What a journal left by
 * an earlier planmode looks like, for the tests that resume one.
 */
export function rewriteAsVersion(path: string, version: 2 | 3): void {
  const records = journalRecords(path);
  const [header] = records;
  if (header?.type !== 'journal') throw new Error(`${path} has no header to rewrite`);
  const lines = [{ ...header, version }, ...records.slice(1)].map((record) => `${JSON.stringify(record)}\n`);
  writeFileSync(path, lines.join(''));
}

/** Digests for journals written by hand: what a run of no plan in particular records. */
export const HAND_DIGESTS: JournalDigests = {
  plan: 'a'.repeat(64),
  input: 'b'.repeat(64),
  state: 'c'.repeat(64),
  tools: 'd'.repeat(64),
};

/** The time in records written by hand. */
export const HAND_AT = '2025-01-01T00:00:00.000Z';

/** A whole `call:end` record of call `a` (tool `t`) that succeeded with 1, with `extra` over it. */
export function wholeEnd(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: 'call:end',
    at: HAND_AT,
    call: 'a',
    tool: 't',
    status: 'succeeded',
    branch: null,
    handled: false,
    attempts: 1,
    durationMs: 1,
    error: null,
    output: 1,
    ...extra,
  });
}

/** Writes `text` as the journal `run.jsonl` in `dir`; returns `dir`. */
export function journalWith(dir: string, text: string): string {
  writeFileSync(join(dir, 'run.jsonl'), text);
  return dir;
}

/** The error a resume of the journal `run.jsonl` in `dir` (with HAND_DIGESTS) is refused with. */
export function refusal(dir: string): JournalError {
  try {
    Journal.open({ dir, runKey: 'run', resume: true, digests: HAND_DIGESTS }).close();
  } catch (error) {
    if (!isJournalError(error)) throw error;
    return error;
  }
  throw new Error('the journal was expected to be refused');
}
