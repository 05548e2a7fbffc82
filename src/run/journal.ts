/**
 * The run journal (issue 3, point 7): every event of a run appended to one JSONL file, synced
 * after every call completion, so that a run killed at any moment can be resumed without running
 * a completed call again. Synchronous on purpose: an event is in the kernel before `append`
 * returns, and on disk before `sync` returns, whatever the event loop does next.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describeFsError, JournalError } from './journal-error.js';
import { type CallEndEvent, canonicalJson, decodeEvent, encodeEvent, isReusable } from './journal-format.js';
import type { RunEvent } from './types.js';

export type { CallEndEvent } from './journal-format.js';

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
}

const RUN_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

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
  /** Lines of the existing journal that were not events (cut off by a crash, or garbage). */
  readonly skippedLines: number;
  /** Events read from the existing journal (0 without resume). */
  readonly eventsRead: number;

  #fd: number | undefined;
  /** Bytes known to be in the file, to cut off a line that fails half-way. */
  #size: number;

  private constructor(path: string, fd: number, size: number, scan: Scan) {
    this.path = path;
    this.#fd = fd;
    this.#size = size;
    this.completed = scan.completed;
    this.skippedLines = scan.skippedLines;
    this.eventsRead = scan.eventsRead;
  }

  /**
   * Opens (creating it and its directory when missing) the journal `<dir>/<runKey>.jsonl`.
   * With `resume`, reads what is there; a last line cut off by a crash is removed from the file
   * and, like every other line that is not an event, counted in `skippedLines`.
   *
   * @throws {TypeError} for options of the wrong type or a runKey that is not a plain file name.
   * @throws {JournalError} when the directory or the file cannot be created, read or written.
   */
  static open(options: JournalOptions): Journal {
    checkOptions(options);
    const { dir, runKey, resume } = options;
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
      const { O_RDWR, O_CREAT, O_APPEND, O_TRUNC } = constants;
      fd = openSync(path, O_RDWR | O_CREAT | O_APPEND | (resume ? 0 : O_TRUNC), 0o644);
    } catch (cause) {
      throw new JournalError(`cannot open the journal file '${path}': ${describeFsError(cause)}`, {
        path,
        cause,
      });
    }
    try {
      const scan = resume ? scanJournal(fd) : emptyScan();
      let size = scan.validBytes;
      if (scan.cutTail) ftruncateSync(fd, size);
      if (scan.missingNewline) {
        writeAll(fd, Buffer.from('\n'));
        size += 1;
      }
      if (scan.cutTail || scan.missingNewline) fsyncSync(fd);
      syncDirectory(dir);
      return new Journal(path, fd, size, scan);
    } catch (cause) {
      closeSync(fd);
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

interface Scan {
  readonly completed: Map<string, CallEndEvent>;
  skippedLines: number;
  eventsRead: number;
  /** Bytes up to the end of the last line that is kept. */
  validBytes: number;
  /** The file ends in a cut-off line that must go before anything is appended. */
  cutTail: boolean;
  /** The file ends in a whole event without its newline. */
  missingNewline: boolean;
}

function emptyScan(): Scan {
  return {
    completed: new Map(),
    skippedLines: 0,
    eventsRead: 0,
    validBytes: 0,
    cutTail: false,
    missingNewline: false,
  };
}

/** Reads the journal in chunks (a journal can outgrow a string), one line at a time. */
function scanJournal(fd: number): Scan {
  const scan = emptyScan();
  const size = fstatSync(fd).size;
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(size, 1)));
  let pieces: Buffer[] = [];
  let position = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    const data = chunk.subarray(0, read);
    let start = 0;
    for (let end = data.indexOf(NEWLINE); end >= 0; end = data.indexOf(NEWLINE, start)) {
      pieces.push(data.subarray(start, end));
      readLine(scan, Buffer.concat(pieces).toString('utf8'));
      pieces = [];
      start = end + 1;
      scan.validBytes = position + start;
    }
    // Copied: the chunk is read into again.
    if (start < read) pieces.push(Buffer.from(data.subarray(start)));
    position += read;
  }
  const tail = Buffer.concat(pieces).toString('utf8');
  if (tail.trim() === '') {
    scan.validBytes = position;
    scan.missingNewline = tail !== '';
  } else if (readLine(scan, tail)) {
    scan.validBytes = position;
    scan.missingNewline = true;
  } else {
    scan.cutTail = true;
  }
  return scan;
}

/** Counts the line in; false when it is not an event. Blank lines are neither. */
function readLine(scan: Scan, text: string): boolean {
  if (text.trim() === '') return true;
  const event = decodeEvent(text);
  if (event === undefined) {
    scan.skippedLines += 1;
    return false;
  }
  scan.eventsRead += 1;
  if (event.type === 'call:end' && isReusable(event)) {
    // Deleted first so that the map lists calls in the order they last completed.
    scan.completed.delete(event.call);
    scan.completed.set(event.call, event);
  }
  return true;
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

function checkOptions(options: JournalOptions): void {
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
