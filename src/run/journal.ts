/**
 * The run journal: every event of a run appended to one JSONL file, synced
 * after every call completion, so that a run killed at any moment can be resumed without running
 * a completed call again. Synchronous on purpose: an event is in the kernel before `append`
 * returns, and on disk before `sync` returns, whatever the event loop does next.
 *
 * A journal bound to a run starts with a header line recording the run's digests (journal-
 * digests); a resume reads the file as untrusted input (journal-scan) and refuses another run's
 * journal, or any line it cannot trust, before anything runs.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fsyncSync,
  ftruncateSync,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Limits, resolveLimits } from '../language/limits.js';
import { showValue } from '../tools/safe-describe.js';
import { JOURNAL_PARTS, type JournalDigests } from './journal-digests.js';
import { describeFsError, isJournalError, JournalError } from './journal-error.js';
import { type CallEndEvent, canonicalJson, encodeEvent } from './journal-format.js';
import type { RecordCheck } from './journal-plan-check.js';
import { encodeHeader } from './journal-records.js';
import { emptyScan, type Scan, scanJournal } from './journal-scan.js';
import type { RunEvent } from './types.js';

export type { CallEndEvent } from './journal-format.js';
export type { JournalDigests, JournalPart } from './journal-digests.js';
export type { RecordCheck } from './journal-plan-check.js';

export interface JournalOptions {
  /** Directory of the journal files; created, with its parents, when missing. */
  readonly dir: string;
  /**
   * Names the file, `<dir>/<runKey>.jsonl`: one per plan + input + initial state, so a resume
   * never reuses another run's outputs. Letters, digits, `.`, `_` and `-`; see `journalKey`.
   */
  readonly runKey: string;
  /**
   * Read the existing journal and append to it. When false, an existing journal is emptied.
   */
  readonly resume: boolean;
  /**
   * What the run is made of (see `runIdentity`). A new journal records them in its first line; a
   * resume refuses a journal whose first line records others, or none, with a JournalError
   * naming the parts that differ.
   * @default undefined (the journal is not bound to a run: no header is written, one read is not compared)
   */
  readonly digests?: JournalDigests;
  /**
   * Bounds on each line a resume reads: its length (`maxTextLength` characters), and the depth
   * and members of the values in it.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
  /**
   * Judges each event a resume reads against the run about to reuse it (see `planRecordCheck`);
   * what it returns is the reason the resume is refused.
   * @default undefined (each line is checked against its record schema only)
   */
  readonly checkRecord?: RecordCheck;
}

const RUN_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const DIGEST = /^[0-9a-f]{64}$/;

/**
 * A key for `Journal.open`: the sha256 (hex) of the parts as canonical JSON (keys sorted), so
 * equal parts give equal keys whatever their key order, and different parts different keys.
 *
 * @throws {TypeError} when a part holds a cycle, a BigInt, a Map or a Set.
 */
export function journalKey(parts: readonly unknown[]): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

export class Journal {
  /** The journal file. */
  readonly path: string;
  /**
   * Calls whose output a resume reuses: each call's last `call:end` that `succeeded`, or
   * `failed` with `handled: true`, and whose output was journaled whole. Empty without resume.
   */
  readonly completed: ReadonlyMap<string, CallEndEvent>;
  /**
   * 1 when the existing journal ended in a line cut off by a crash (removed from the file);
   * otherwise 0. Any other line that is not a record is an error, not a skip.
   */
  readonly skippedLines: number;
  /** Events read from the existing journal (0 without resume); the header is not one. */
  readonly eventsRead: number;
  /** The digests in the journal's header: those given, or those read; undefined when it has none. */
  readonly digests: JournalDigests | undefined;

  #fd: number | undefined;
  /** Bytes known to be in the file, to cut off a line that fails half-way. */
  #size: number;

  private constructor(path: string, fd: number, size: number, scan: Scan) {
    this.path = path;
    this.#fd = fd;
    this.#size = size;
    this.completed = scan.completed;
    this.skippedLines = scan.cutTail ? 1 : 0;
    this.eventsRead = scan.eventsRead;
    this.digests = scan.digests;
  }

  /**
   * Opens (creating it and its directory when missing) the journal `<dir>/<runKey>.jsonl`.
   * With `resume`, reads what is there as untrusted input; a last line cut off by a crash is
   * removed from the file and counted in `skippedLines`. With `digests`, a journal that holds no
   * record yet gets its header line first.
   *
   * @throws {TypeError} for options of the wrong type or a runKey that is not a plain file name.
   * @throws {JournalError} when the directory or the file cannot be created, read or written;
   *   on resume, when the journal was written for another run (`differs` names the parts) or a
   *   line is not a record this run can trust (`line` is its 1-based number).
   */
  static open(options: JournalOptions): Journal {
    const limits = checkOptions(options);
    const { dir, runKey, resume, digests, checkRecord } = options;
    try {
      makeDirectory(dir);
    } catch (cause) {
      throw new JournalError(`cannot create the journal directory '${dir}': ${describeFsError(cause)}`, {
        path: dir,
        cause,
      });
    }
    const path = join(dir, `${runKey}.jsonl`);
    let fd: number;
    try {
      const { O_RDWR, O_CREAT, O_APPEND, O_TRUNC, O_NOFOLLOW } = constants;
      // Never through a link: a link planted at the journal's name would send the run's
      // events (and its truncation) to whatever file it points at.
      fd = openSync(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | (resume ? 0 : O_TRUNC), 0o644);
    } catch (cause) {
      throw new JournalError(`cannot open the journal file '${path}': ${describeFsError(cause)}`, {
        path,
        cause,
      });
    }
    try {
      const scan = resume ? scanJournal(fd, { path, limits, digests, checkRecord }) : emptyScan();
      let size = scan.validBytes;
      let changed = scan.cutTail || scan.missingNewline;
      if (digests !== undefined && scan.empty) {
        // Nothing but blanks (or a header cut off by a crash): the header goes first in the file.
        ftruncateSync(fd, 0);
        const header = Buffer.from(encodeHeader(digests), 'utf8');
        writeAll(fd, header);
        size = header.length;
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
      return new Journal(path, fd, size, scan);
    } catch (cause) {
      closeSync(fd);
      // A line or header the resume refused: already located and worded.
      if (isJournalError(cause)) throw cause;
      throw new JournalError(`cannot read the journal file '${path}': ${describeFsError(cause)}`, {
        path,
        cause,
      });
    }
  }

  /** True once `close` has been called. */
  get closed(): boolean {
    return this.#fd === undefined;
  }

  /**
   * Writes the event as one line. Values JSON cannot hold never throw here (see encodeEvent).
   *
   * @throws {JournalError} when the journal is closed or the write fails (the partial line is
   *   removed, so the file stays readable).
   */
  append(event: RunEvent): void {
    const fd = this.#openFd('append to');
    const bytes = Buffer.from(encodeEvent(event), 'utf8');
    try {
      writeAll(fd, bytes);
      this.#size += bytes.length;
    } catch (cause) {
      try {
        ftruncateSync(fd, this.#size);
      } catch {
        // The reader skips a cut-off line anyway; the write error is the one to report.
      }
      throw new JournalError(`cannot write to the journal file '${this.path}': ${describeFsError(cause)}`, {
        path: this.path,
        cause,
      });
    }
  }

  /**
   * Flushes what was appended to the disk (fsync). Does nothing once closed.
   *
   * @throws {JournalError} when the flush fails.
   */
  sync(): void {
    if (this.#fd === undefined) return;
    try {
      fsyncSync(this.#fd);
    } catch (cause) {
      throw new JournalError(`cannot flush the journal file '${this.path}': ${describeFsError(cause)}`, {
        path: this.path,
        cause,
      });
    }
  }

  /**
   * Syncs and closes the file. Calling it again does nothing.
   *
   * @throws {JournalError} when the final flush fails (the file is closed anyway).
   */
  close(): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    this.#fd = undefined;
    try {
      fsyncSync(fd);
    } catch (cause) {
      throw new JournalError(`cannot flush the journal file '${this.path}': ${describeFsError(cause)}`, {
        path: this.path,
        cause,
      });
    } finally {
      closeSync(fd);
    }
  }

  #openFd(action: string): number {
    if (this.#fd !== undefined) return this.#fd;
    throw new JournalError(
      `cannot ${action} the journal file '${this.path}': the journal is closed; open it again with resume: true`,
      { path: this.path },
    );
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** Makes a new journal file's directory entry durable too; not every platform can open a directory. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Best effort: the file's own contents are what `sync` guarantees.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** @returns the limits, resolved. */
function checkOptions(options: JournalOptions): Limits {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `Journal.open expects an options object { dir, runKey, resume }, got ${String(options)}`,
    );
  }
  const { dir, runKey, resume } = options as Partial<Record<keyof JournalOptions, unknown>>;
  if (typeof dir !== 'string' || dir === '') {
    throw new TypeError(
      `Journal.open: dir must be a non-empty string, got ${JSON.stringify(dir) ?? String(dir)}`,
    );
  }
  if (typeof runKey !== 'string' || !RUN_KEY.test(runKey)) {
    throw new TypeError(
      `Journal.open: runKey must be a file name of 1-200 letters, digits, '.', '_' or '-', not starting with '.' (journalKey() makes one), ` +
        `got ${JSON.stringify(runKey) ?? String(runKey)}`,
    );
  }
  if (typeof resume !== 'boolean') {
    throw new TypeError(
      `Journal.open: resume must be true or false, got ${JSON.stringify(resume) ?? String(resume)}`,
    );
  }
  const { digests, checkRecord, limits } = options as Partial<Record<keyof JournalOptions, unknown>>;
  if (digests !== undefined && !isDigests(digests)) {
    throw new TypeError(
      `Journal.open: digests must be { plan, input, state, tools }, each 64 lowercase hex digits (runIdentity() makes them), got ${showValue(digests)}`,
    );
  }
  if (checkRecord !== undefined && typeof checkRecord !== 'function') {
    throw new TypeError(`Journal.open: checkRecord must be a function, got ${showValue(checkRecord)}`);
  }
  return resolveLimits(limits as Partial<Limits> | undefined);
}

function isDigests(value: unknown): value is JournalDigests {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    Object.keys(record).length === JOURNAL_PARTS.length &&
    JOURNAL_PARTS.every((part) => typeof record[part] === 'string' && DIGEST.test(record[part]))
  );
}

/**
 * `mkdir -p`, one level at a time. Node 20's `mkdirSync(dir, { recursive: true })` never
 * returns for some paths (seen under /proc); creating each missing level plainly fails fast.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let current = resolve(dir);
  while (!existsSync(current)) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (let k = missing.length - 1; k >= 0; k--) mkdirSync(missing[k]!);
  if (missing.length === 0 && !statSync(current).isDirectory()) {
    throw Object.assign(new Error(`'${current}' is not a directory`), { code: 'ENOTDIR' });
  }
}
