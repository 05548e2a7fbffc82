/**
 * Finding the journal of an earlier version of the plan, for a resume that finds no journal of
 * this run (the plan was edited after a crash): a resume never starts silently from nothing
 * while the folder holds one.
 *
 * The folder's `.jsonl` files are looked at (at most MAX_JOURNALS, among at most MAX_ENTRIES
 * entries; a folder with more is refused), each by its first line only. A candidate is a journal
 * planmode wrote (its header reads) for the same input and initial state; a journal that another
 * candidate resumed from is that one's past, not a candidate of its own. One candidate: its
 * results are reused where the calls did not change (journal-earlier-results). Several: refused,
 * naming them, since which one the person meant cannot be told.
 *
 * The journal chosen, and those it resumed from in turn (its header's `resumedFrom`, at most
 * MAX_CHAIN), are read whole as a resume reads its own: under their lock, as untrusted input,
 * every record that a reuse could take checked against this plan before anything runs. They are
 * never written to. A journal among them written for another input or initial state, or with
 * other tool definitions and no digest per tool (a journal of an older planmode), is refused:
 * which calls could be reused cannot be judged.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, opendirSync } from 'node:fs';
import { join } from 'node:path';
import { checkJson } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import { differingParts, type JournalDigests } from './journal-digests.js';
import { EarlierResults, type EarlierSource } from './journal-earlier-results.js';
import { journalMismatchError, JournalError } from './journal-error.js';
import { openJournalForReading, readFirstLine } from './journal-files.js';
import { JournalLock } from './journal-lock.js';
import type { RecordCheck } from './journal-plan-check.js';
import {
  JOURNAL_FILE_NAME,
  type JournalHeader,
  readJournalLine,
  type ToolDigests,
} from './journal-records.js';
import { scanJournal } from './journal-scan.js';
import type { StaleJournalLock } from '../types.js';

/** The most `.jsonl` files of the folder looked at; a folder with more is refused. */
export const MAX_JOURNALS = 1000;
/** The most entries of the folder read, whatever they are; a folder with more is refused. */
export const MAX_ENTRIES = 10_000;
/** The most journals read along a chain of versions, each resumed from the one before. */
export const MAX_CHAIN = 16;
/** The longest first line read to tell a planmode journal. */
const MAX_HEADER_BYTES = 1 << 20;
/** Candidates named in a refusal; the rest are counted. */
const NAMED = 3;

export interface EarlierSearch {
  readonly dir: string;
  /** This run's journal file name. */
  readonly own: string;
  /**
   * What this run's own journal says it resumed from, when it holds records already (a resume
   * of a resume); undefined when it holds none: then the folder is searched.
   */
  readonly resumedFrom: string | undefined;
  /** True when this run's own journal holds no record: look in the folder. */
  readonly search: boolean;
  readonly digests: JournalDigests;
  readonly toolDigests: ToolDigests;
  readonly callTool: (call: string) => string | undefined;
  /** Judges a record a reuse could take (see planRecordCheck). */
  readonly checkRecord: RecordCheck | undefined;
  readonly limits: Limits;
}

export interface EarlierVersions {
  /** The file name of the journal resumed from: the new journal's header names it. */
  readonly head: string;
  readonly results: EarlierResults;
  /** Locks of those journals left by processes that no longer run, taken over to read them. */
  readonly tookOver: readonly StaleJournalLock[];
}

/**
 * @returns undefined when there is no earlier version to resume from.
 * @throws {JournalError} when one cannot be chosen or trusted (see the file's comment).
 */
export function findEarlierVersions(search: EarlierSearch): EarlierVersions | undefined {
  const head = search.resumedFrom ?? (search.search ? chooseCandidate(search) : undefined);
  if (head === undefined) return undefined;
  const sources: EarlierSource[] = [];
  const tookOver: StaleJournalLock[] = [];
  const seen = new Set([search.own]);
  for (let name: string | undefined = head; name !== undefined && !seen.has(name);) {
    if (sources.length === MAX_CHAIN) {
      throw new JournalError(
        `cannot resume from the journal '${join(search.dir, head)}': it continues a chain of more than ${MAX_CHAIN} earlier versions of the plan, which a resume does not follow; run without --resume to start over`,
        { path: join(search.dir, head) },
      );
    }
    seen.add(name);
    const source = readSource(search, name, tookOver);
    // A journal of the chain removed by hand: its results are forgotten.
    if (source === undefined) break;
    sources.push(source.source);
    name = source.resumedFrom;
  }
  if (sources.length === 0) return undefined;
  return { head, results: new EarlierResults(sources, search.callTool), tookOver };
}

interface Candidate {
  readonly name: string;
  readonly header: JournalHeader;
  readonly modified: Date;
}

/** The one journal of an earlier version in the folder, or undefined when there is none. */
function chooseCandidate(search: EarlierSearch): string | undefined {
  const { dir, digests } = search;
  const candidates: Candidate[] = [];
  for (const name of journalNames(dir)) {
    if (name === search.own) continue;
    const found = readHeader(join(dir, name), search.limits);
    if (found === undefined) continue;
    const { header, modified } = found;
    if (header.digests.input !== digests.input || header.digests.state !== digests.state) continue;
    candidates.push({ name, header, modified });
  }
  const pasts = new Set(candidates.map((c) => c.header.resumedFrom));
  const current = candidates.filter((c) => !pasts.has(c.name));
  // Journals that all name each other (edited by hand) leave none: all of them are candidates.
  const chosen = current.length > 0 ? current : candidates;
  if (chosen.length <= 1) return chosen[0]?.name;
  chosen.sort((a, b) => b.modified.getTime() - a.modified.getTime());
  const named = chosen
    .slice(0, NAMED)
    .map((c) => `'${c.name}' (written ${c.modified.toISOString()})`)
    .join(', ');
  const more = chosen.length > NAMED ? ` and ${chosen.length - NAMED} more` : '';
  throw new JournalError(
    `cannot resume: the journal directory '${dir}' holds no journal of this plan but ${chosen.length} of earlier versions of it with this input and state (${named}${more}), and which to resume from cannot be told: remove those not to resume from, or run without --resume to start over`,
    { path: dir },
  );
}

/** The names of the folder's journal files, bounded. */
function journalNames(dir: string): string[] {
  const names: string[] = [];
  const folder = opendirSync(dir);
  try {
    let entries = 0;
    for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) {
      entries += 1;
      if (JOURNAL_FILE_NAME.test(entry.name)) names.push(entry.name);
      const over =
        names.length > MAX_JOURNALS
          ? `${MAX_JOURNALS} journals`
          : entries > MAX_ENTRIES
            ? `${MAX_ENTRIES} entries`
            : undefined;
      if (over !== undefined) {
        throw new JournalError(
          `cannot look for the journal of an earlier version of the plan: the journal directory '${dir}' holds more than ${over}; move old journals elsewhere, or run without --resume to start over`,
          { path: dir },
        );
      }
    }
  } finally {
    folder.closeSync();
  }
  return names;
}

/** The header of a journal planmode wrote, read from its first line; undefined for any other file. */
function readHeader(path: string, limits: Limits): { header: JournalHeader; modified: Date } | undefined {
  let fd: number | undefined;
  try {
    fd = openJournalForReading(path);
    if (fd === undefined) return undefined;
    const line = readFirstLine(fd, Math.min(MAX_HEADER_BYTES, limits.maxTextLength));
    if (line === undefined || !isUtf8(line)) return undefined;
    const value: unknown = JSON.parse(line.toString('utf8'));
    if ('problem' in checkJson(value, { limits, depth: -1 })) return undefined;
    const read = readJournalLine(value);
    return read.kind === 'header' ? { header: read.header, modified: fstatSync(fd).mtime } : undefined;
  } catch {
    // A link, a folder, a FIFO, text that is not JSON: not a journal of planmode's.
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads one journal of the chain whole, under its lock; undefined when it does not exist. */
function readSource(
  search: EarlierSearch,
  name: string,
  tookOver: StaleJournalLock[],
): { source: EarlierSource; resumedFrom: string | undefined } | undefined {
  const { dir, digests, toolDigests, callTool, checkRecord, limits } = search;
  const path = join(dir, name);
  const lock = JournalLock.acquire(dir, name.slice(0, -'.jsonl'.length));
  tookOver.push(...lock.tookOver);
  try {
    const fd = openJournalForReading(path);
    if (fd === undefined) return undefined;
    try {
      let sameTool: ((tool: string) => boolean) | undefined;
      const scan = scanJournal(fd, {
        path,
        limits,
        digests: undefined,
        keepArgs: true,
        onHeader: (header) => (sameTool = judgeHeader(path, header, digests, toolDigests)),
        // Only records a reuse could take are judged: those of this plan's calls, same tool, same
        // definition. The rest belong to the earlier version alone.
        checkRecord: (record) => {
          if (checkRecord === undefined || !('tool' in record) || sameTool === undefined) return undefined;
          const tool = callTool(record.call);
          if (tool === undefined || record.tool !== tool || !sameTool(tool)) return undefined;
          return checkRecord(record);
        },
      });
      if (scan.header === undefined || sameTool === undefined) {
        throw new JournalError(
          `cannot resume from the journal '${path}': it has no header binding it to a run (it was written by an older planmode, or by something else); remove it, or run without --resume to start over`,
          { path, line: 1 },
        );
      }
      const source: EarlierSource = {
        path,
        completed: scan.completed,
        args: scan.args,
        started: scan.started,
        sameTool,
      };
      return { source, resumedFrom: scan.header.resumedFrom };
    } finally {
      closeSync(fd);
    }
  } finally {
    lock.release();
  }
}

/**
 * Refuses an earlier journal of another input or initial state, or one whose tools cannot be
 * compared one by one; otherwise tells, per tool name, whether its definition is the same.
 */
function judgeHeader(
  path: string,
  header: JournalHeader,
  digests: JournalDigests,
  toolDigests: ToolDigests,
): (tool: string) => boolean {
  const recorded = header.digests;
  const differs = differingParts(recorded, digests).filter((part) => part === 'input' || part === 'state');
  if (differs.length > 0) throw journalMismatchError(path, differs, recorded, digests);
  if (recorded.tools === digests.tools) return () => true;
  const earlier = header.toolDigests;
  if (earlier === undefined) {
    throw new JournalError(
      `cannot resume from the journal '${path}' of an earlier version of the plan: it was written for a different set of tools and records no digest per tool (an older planmode wrote it), so which calls could be reused cannot be told; remove it, or run without --resume to start over`,
      { path, line: 1, differs: ['tools'] },
    );
  }
  return (tool) =>
    Object.hasOwn(earlier, tool) && Object.hasOwn(toolDigests, tool) && earlier[tool] === toolDigests[tool];
}
