/**
 * The run journal: every event of a run appended to one JSONL file, so that a run killed at any
 * moment can be resumed without running a completed call again.
 *
 * What survives what:
 * - A process crash (SIGKILL, an out-of-memory kill, an uncaught exception): every `call:end`
 *   survives. `append` writes it into the file (write(2): the operating system holds it from
 *   then on) before it returns, so before any observer hears of the call and before any call
 *   that depends on it starts. So do `run:start`, `call:start` (before the tool runs),
 *   `call:retry`, `approval:requested` and `run:end`. The `call:ready` and `state:write` lines
 *   before them are held in memory and written in the same write(2) (or once they pass
 *   PENDING_CHARS): a crash can lose those of calls that had not ended, which a resume never
 *   reads (it runs such calls again anyway).
 * - A power cut or an operating-system crash: records are on disk once an fsync covers them.
 *   `sync` (after each `call:end`) asks for one without waiting for it: one fsync runs in the
 *   background, and the next covers every completion that asked meanwhile (group commit, see
 *   journal-commit); one that waited `maxCommitDelayMs` starts a second beside it. A power cut
 *   loses the completions no finished fsync covered: about the last `maxCommitDelayMs` of them,
 *   plus what came while the disk answered, plus what came while a tool held the event loop.
 *   Those calls, and any that started after them, run again on resume. `maxCommitDelayMs: 0`
 *   fsyncs in every `sync` instead: nothing completed is lost, at one fsync per call.
 * - `close` writes what is held and fsyncs before it returns: a run that ended has all of its
 *   journal on disk.
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
import { GroupCommit } from './journal-commit.js';
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
  /**
   * How long a `sync` may wait for the running background fsync to return before a later `sync`
   * starts another beside it (two at most): what bounds, in time, what a power cut can take.
   * 0 fsyncs inline in every `sync`, so a completion is on disk before `sync` returns (one fsync
   * per completed call: slow).
   * @default DEFAULT_MAX_COMMIT_DELAY_MS (20)
   */
  readonly maxCommitDelayMs?: number;
}

/** See JournalOptions.maxCommitDelayMs. */
export const DEFAULT_MAX_COMMIT_DELAY_MS = 20;

/**
 * The most characters of `call:ready` and `state:write` lines held before they are written
 * anyway, so that a wide plan's many ready calls or a large state value are not all in memory.
 */
const PENDING_CHARS = 1 << 16;

/** Events that may wait in memory for the next write: a resume never reads them. */
const DEFERRABLE: ReadonlySet<RunEvent['type']> = new Set(['call:ready', 'state:write']);

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
  /** Bytes known to be in the file, to cut off a write that fails half-way. */
  #size: number;
  readonly #commit: GroupCommit;
  /** Lines appended but not written yet: `call:ready` and `state:write` only (see DEFERRABLE). */
  #pending: string[] = [];
  #pendingChars = 0;

  private constructor(path: string, fd: number, size: number, scan: Scan, commit: GroupCommit) {
    this.path = path;
    this.#fd = fd;
    this.#size = size;
    this.#commit = commit;
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
    const maxDelayMs = options.maxCommitDelayMs ?? DEFAULT_MAX_COMMIT_DELAY_MS;
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
      return new Journal(path, fd, size, scan, new GroupCommit({ path, fd, maxDelayMs }));
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
   * Appends the event as one line. Every event but `call:ready` and `state:write` is in the file
   * (written to the operating system) when this returns, with the lines held before it; those
   * two wait in memory for the next. Values JSON cannot hold never throw here (see encodeEvent).
   *
   * @throws {JournalError} when the journal is closed, when the write fails (the part written is
   *   removed, so the file stays readable; the lines held are lost), or when an earlier
   *   background fsync failed.
   */
  append(event: RunEvent): void {
    this.#openFd('append to');
    this.#commit.check();
    const line = encodeEvent(event);
    this.#pending.push(line);
    this.#pendingChars += line.length;
    if (!DEFERRABLE.has(event.type) || this.#pendingChars >= PENDING_CHARS) this.#write();
  }

  /**
   * Asks for what was appended to reach the disk, without waiting for it: an fsync in the
   * background covers it, shared with every other `sync` meanwhile (see the class comment for
   * what a power cut can take). With `maxCommitDelayMs: 0`, fsyncs before returning. Does
   * nothing once closed.
   *
   * @throws {JournalError} when writing the lines held, or this or an earlier fsync, fails.
   */
  sync(): void {
    if (this.#fd === undefined) return;
    this.#write();
    this.#commit.request();
  }

  /**
   * Writes the lines held, fsyncs and closes the file. Calling it again does nothing.
   *
   * @throws {JournalError} when that write, the final fsync or an earlier background fsync
   *   failed (the file is closed anyway).
   */
  close(): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    let failure: unknown;
    try {
      this.#write();
    } catch (error) {
      failure = error;
    }
    this.#fd = undefined;
    try {
      this.#commit.close();
    } catch (error) {
      // The first failure is the one to report: a later one is usually its consequence.
      failure ??= error;
    } finally {
      closeSync(fd);
    }
    if (failure !== undefined) throw failure;
  }

  /** Writes the lines held, in one write(2) as far as the system allows. */
  #write(): void {
    if (this.#pending.length === 0) return;
    const fd = this.#fd!;
    const text = this.#pending.length === 1 ? this.#pending[0]! : this.#pending.join('');
    this.#pending = [];
    this.#pendingChars = 0;
    const size = Buffer.byteLength(text, 'utf8');
    try {
      // A string, not a Buffer: Node encodes it without a JavaScript allocation per write.
      const written = writeSync(fd, text);
      if (written < size) writeAll(fd, Buffer.from(text, 'utf8').subarray(written));
      this.#size += size;
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
  const { maxCommitDelayMs } = options as Partial<Record<keyof JournalOptions, unknown>>;
  if (
    maxCommitDelayMs !== undefined &&
    !(typeof maxCommitDelayMs === 'number' && maxCommitDelayMs >= 0 && !Number.isNaN(maxCommitDelayMs))
  ) {
    throw new TypeError(
      `Journal.open: maxCommitDelayMs must be a number of milliseconds (0 or more), got ${showValue(maxCommitDelayMs)}`,
    );
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
