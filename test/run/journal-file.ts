/**
 * A journal file's records as tests read them: each line parsed, and a compact line of a
 * version 4 journal (`{"start": id, ...}`, `{"end": id, ...}`) read back as the whole event it
 * stands for, defaults filled in, so that a test asks about `type`, `call`, `status` whatever
 * the version the file was written in. The header and every other line are as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expandCompact } from '../../src/run/journal/journal-compact.js';

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
