/** Opening a journal file once its lock is held: reading it for a resume, writing its header. */
import { closeSync, existsSync, fsyncSync, ftruncateSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Limits } from '../../language/limits.js';
import { GroupCommit } from './journal-commit.js';
import { type EarlierVersions, findEarlierVersions } from './journal-earlier.js';
import { describeFsError, isJournalError, JournalError } from './journal-error.js';
import { openJournalFile, syncDirectory, writeAll } from './journal-files.js';
import type { JournalLock } from './journal-lock.js';
import { DEFAULT_MAX_COMMIT_DELAY_MS, type JournalOptions } from './journal-options.js';
import { encodeHeader } from './journal-records.js';
import { JOURNAL_VERSION, type JournalVersion } from './journal-versions.js';
import { emptyScan, type Scan, scanJournal } from './journal-scan.js';

export interface Opened {
  readonly path: string;
  readonly fd: number;
  readonly size: number;
  readonly scan: Scan;
  readonly commit: GroupCommit;
  readonly lock: JournalLock;
  readonly earlier: EarlierVersions | undefined;
  readonly version: JournalVersion;
}

/** Journal.open, once the lock is held. */
export function openLocked(options: JournalOptions, limits: Limits, lock: JournalLock): Opened {
  const { dir, runKey, resume, digests, toolDigests, callTool, checkRecord, dependenciesOf, checkPart } =
    options;
  const maxDelayMs = options.maxCommitDelayMs ?? DEFAULT_MAX_COMMIT_DELAY_MS;
  const name = `${runKey}.jsonl`;
  const path = join(dir, name);
  // A refused resume leaves no empty journal of its own behind (the lock keeps others out).
  const existed = existsSync(path);
  const fd = openJournalFile(path);
  try {
    if (!resume) ftruncateSync(fd, 0);
    const scan = resume
      ? scanJournal(fd, {
          path,
          limits,
          digests,
          checkRecord,
          dependenciesOf,
          ...(checkPart !== undefined && { checkPart }),
        })
      : emptyScan();
    const earlier =
      resume && digests !== undefined && toolDigests !== undefined && callTool !== undefined
        ? findEarlierVersions({
            dir,
            own: name,
            search: scan.empty,
            resumedFrom: scan.empty ? undefined : scan.header?.resumedFrom,
            digests,
            toolDigests,
            callTool,
            checkRecord,
            limits,
          })
        : undefined;
    let size = scan.validBytes;
    let changed = scan.cutTail || scan.missingNewline;
    let version: JournalVersion = scan.header?.version ?? 1;
    if (digests !== undefined && scan.empty) {
      // Nothing but blanks (or a header cut off by a crash): the header goes first in the file.
      ftruncateSync(fd, 0);
      version = options.version ?? JOURNAL_VERSION;
      const header = encodeHeader({
        version,
        digests,
        ...(toolDigests !== undefined && { toolDigests }),
        ...(earlier !== undefined && { resumedFrom: earlier.head }),
        ...(options.edited === true && { edited: true as const }),
      });
      const bytes = Buffer.from(header, 'utf8');
      writeAll(fd, bytes);
      size = bytes.length;
      scan.digests = digests;
      changed = true;
    } else {
      if (scan.cutTail) ftruncateSync(fd, size);
      if (scan.missingNewline) {
        writeAll(fd, Buffer.from('\n'));
        size += 1;
      }
    }
    if (changed) fsyncSync(fd);
    syncDirectory(dir);
    const commit = new GroupCommit({ path, fd, maxDelayMs });
    return { path, fd, size, scan, commit, lock, earlier, version };
  } catch (cause) {
    closeSync(fd);
    if (!existed) removeQuietly(path);
    // A line or header the resume refused: already located and worded.
    if (isJournalError(cause)) throw cause;
    throw new JournalError(`cannot read the journal file '${path}': ${describeFsError(cause)}`, {
      path,
      cause,
    });
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // The failure being reported matters more than a file left behind.
  }
}
