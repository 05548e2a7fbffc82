/**
 * The run journal: every event of a run appended to one JSONL file, so that a run killed at any
 * moment can be resumed without running a completed call again.
 *
 * What survives what:
 * - A process crash (SIGKILL, an out-of-memory kill, an uncaught exception): every `call:end`
 *   survives. `append` writes it into the file (write(2): the operating system holds it from
 *   then on) before it returns, so before any observer hears of the call and before any call
 *   that depends on it starts. So do `run:start`, `call:start` (before the tool runs),
 *   `call:retry`, `approval:requested` and `run:end`. A journal of version 2 or later (a new
 *   journal is version 4) holds no `call:ready` or `state:write` lines; in a version 1 journal
 *   they are held in memory and written in the same write(2) as the next line (or once they
 *   pass PENDING_CHARS):
 *   a crash can lose those of calls that had not ended, which a resume never reads (it runs such
 *   calls again anyway).
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
 * journal, or any line it cannot trust, before anything runs. A resume that finds no journal of
 * this run takes what the journal of an earlier version of the plan completed (journal-earlier).
 *
 * One process at a time: the journal is locked from open to close (journal-lock), so that a
 * second run of it, resuming or starting afresh, is refused instead of running calls beside the
 * first or emptying its journal.
 */
import { createHash } from 'node:crypto';
import { closeSync, ftruncateSync, writeSync } from 'node:fs';
import type { JsonObject } from '../../language/document.js';
import type { GroupCommit } from './journal-commit.js';
import type { EarlierResults } from './journal-earlier-results.js';
import { describeFsError, JournalError } from './journal-error.js';
import { makeJournalDirectory, writeAll } from './journal-files.js';
import { encodeCompact } from './journal-compact.js';
import { encodeRecord } from './journal-encode.js';
import { type CallEndEvent, canonicalJson, encodeEvent } from './journal-format.js';
import { type Opened, openLocked } from './journal-open.js';
import { fitLine, resultTooLong } from './journal-line-size.js';
import { JournalLock } from './journal-lock.js';
import { checkOptions, type JournalOptions } from './journal-options.js';
import { COMPACT_VERSION, type JournalVersion, NOT_IN_VERSION_2, PARTS_VERSION } from './journal-versions.js';
import { encodePart } from './journal-part-line.js';
import type { PartEnd, PartRecord } from './journal-parts.js';
import { JournalParts, type RunJournal } from './journal-scope.js';
import type { JournalDigests } from './journal-digests.js';
import type { RunEvent, StaleJournalLock } from '../types.js';

export type { CallEndEvent } from './journal-format.js';
export type { JournalDigests, JournalPart } from './journal-digests.js';
export type { RecordCheck } from './journal-plan-check.js';
export { DEFAULT_MAX_COMMIT_DELAY_MS, type JournalOptions } from './journal-options.js';

/**
 * The most characters of `call:ready` and `state:write` lines held before they are written
 * anyway, so that a wide plan's many ready calls or a large state value are not all in memory.
 */
const PENDING_CHARS = 1 << 16;

/** Events that may wait in memory for the next write: a resume never reads them. */
const DEFERRABLE: ReadonlySet<RunEvent['type']> = new Set(['call:ready', 'state:write']);

/**
 * A key for `Journal.open`: the sha256 (hex) of the parts as canonical JSON (keys sorted), so
 * equal parts give equal keys whatever their key order, and different parts different keys.
 *
 * @throws {TypeError} when a part holds a cycle, a BigInt, a Map or a Set.
 */
export function journalKey(parts: readonly unknown[]): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

export class Journal implements RunJournal {
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
  /**
   * On a resume that found no journal of this run, what the journal of an earlier version of the
   * plan completed (see journal-earlier); undefined otherwise.
   */
  readonly earlier: EarlierResults | undefined;
  /** Locks left by processes that no longer run, taken over to open this journal (or read an earlier one). */
  readonly staleLocks: readonly StaleJournalLock[];
  /**
   * Per element or sub-call (by partKey), its end a resume reuses (see Scan.parts). Empty
   * without resume, and in a journal of version 1 or 2 (which holds no such records).
   */
  readonly partEnds: ReadonlyMap<string, PartEnd>;

  #fd: number | undefined;
  /** Bytes known to be in the file, to cut off a write that fails half-way. */
  #size: number;
  readonly #commit: GroupCommit;
  readonly #lock: JournalLock;
  /** Lines appended but not written yet: `call:ready` and `state:write` only (see DEFERRABLE). */
  readonly #pending: string[] = [];
  #pendingChars = 0;
  /** The longest line a resume reads (limits.maxTextLength): no line written is longer. */
  readonly #maxLine: number;
  /**
   * The format appended in: a new journal's is the current one; a resumed journal keeps its own,
   * so that a file never mixes two (version 1 for a journal without a header).
   */
  readonly #version: JournalVersion;
  /**
   * Calls whose first `call:start` was written ahead (appendAhead) and has not come yet: when it
   * comes, it is not written again.
   */
  readonly #ahead = new Set<string>();
  /** A line per event in the journal's version: compact lines in 4, templates in 2 and 3. */
  readonly #encode: (event: RunEvent) => string;

  private constructor(opened: Opened, maxLine: number) {
    const { path, fd, size, scan } = opened;
    this.path = path;
    this.#version = opened.version;
    this.#encode =
      opened.version >= COMPACT_VERSION ? encodeCompact : opened.version === 1 ? encodeEvent : encodeRecord;
    this.#maxLine = maxLine;
    this.#fd = fd;
    this.#size = size;
    this.#commit = opened.commit;
    this.#lock = opened.lock;
    this.completed = scan.completed;
    this.partEnds = scan.parts;
    this.skippedLines = scan.cutTail ? 1 : 0;
    this.eventsRead = scan.eventsRead;
    this.digests = scan.digests;
    this.earlier = opened.earlier?.results;
    this.staleLocks = [...opened.lock.tookOver, ...(opened.earlier?.tookOver ?? [])];
  }

  /**
   * Opens (creating it and its directory when missing) the journal `<dir>/<runKey>.jsonl`, and
   * takes its lock until `close`. With `resume`, reads what is there as untrusted input; a last
   * line cut off by a crash is removed from the file and counted in `skippedLines`. With
   * `digests`, a journal that holds no record yet gets its header line first.
   *
   * @throws {TypeError} for options of the wrong type or a runKey that is not a plain file name.
   * @throws {JournalError} when another process uses the journal; when the directory or the file
   *   cannot be created, read or written, or the file is not a regular one; on resume, when the
   *   journal was written for another run (`differs` names the parts) or a line is not a record
   *   this run can trust (`line` is its 1-based number), or when the journal of an earlier
   *   version of the plan cannot be chosen or trusted.
   */
  static open(options: JournalOptions): Journal {
    const limits = checkOptions(options);
    makeJournalDirectory(options.dir);
    // Before the file is opened, let alone emptied.
    const lock = JournalLock.acquire(options.dir, options.runKey);
    try {
      return new Journal(openLocked(options, limits, lock), limits.maxTextLength);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /**
   * The earlier result to put back for this call, now ready with these resolved arguments: its
   * completion in this journal, or, resuming from an earlier version of the plan, one that fits
   * (see EarlierResults.match). Undefined when the call runs.
   */
  resultFor(call: string, args: JsonObject): CallEndEvent | undefined {
    return this.completed.get(call) ?? this.earlier?.match(call, args);
  }

  /**
   * Why this call's result (of `size`, as the run counts it) cannot be journaled in a `call:end`
   * line a resume reads back (`around` characters shorter, for a record wrapped in a sub-call's);
   * undefined when it can. The run fails such a call with LIMIT
   * before writing its output (see journal-line-size).
   */
  resultTooLong(call: string, tool: string, output: unknown, size: number, around = 0): string | undefined {
    return resultTooLong(call, tool, output, size, this.#maxLine - around);
  }

  #parts: JournalParts | undefined;

  /** Where elements and workflow sub-calls are journaled: only in a journal of version 3 or 4. */
  get parts(): JournalParts | undefined {
    if (this.#version < PARTS_VERSION) return undefined;
    return (this.#parts ??= new JournalParts(this, []));
  }

  /**
   * Appends an element's or a sub-call's record, written (to the operating system) when this
   * returns, as `append` writes a call's; an end is then synced as a call's end is. Does nothing
   * in a journal of version 1 or 2. A record too long for a resume to read loses its output and
   * arguments (its part then runs again on resume), or, failing that, is not written.
   *
   * @throws {JournalError} as `append` does.
   */
  appendPart(record: PartRecord): void {
    this.#openFd('append to');
    this.#commit.check();
    if (this.#version < PARTS_VERSION) return;
    const line = encodePart(record, this.#maxLine);
    if (line === undefined) return;
    this.#pending.push(line);
    this.#pendingChars += line.length;
    this.#write();
    if (record.type === 'element:end' || record.type === 'sub:end') this.#commit.request();
  }

  /** True once `close` has been called. */
  get closed(): boolean {
    return this.#fd === undefined;
  }

  /**
   * Appends the event as one line. Every event but `call:ready` and `state:write` is in the file
   * (written to the operating system) when this returns, with the lines held before it; those
   * two wait in memory for the next in a version 1 journal, and a journal of version 2 or later
   * (a new journal is version 4) leaves them out: a resume reads neither. Values JSON cannot
   * hold never throw here (see encodeEvent), and a line is never longer than a resume reads: its
   * large fields give way (see fitLine).
   *
   * @throws {JournalError} when the journal is closed, when the write fails (the part written is
   *   removed, so the file stays readable; the lines held are lost), or when an earlier
   *   background fsync failed.
   */
  append(event: RunEvent): void {
    this.#openFd('append to');
    this.#commit.check();
    let encoded: string;
    if (this.#version !== 1) {
      if (NOT_IN_VERSION_2.has(event.type)) return;
      // Its line went out ahead, in the write of the call:end that made it ready.
      if (
        event.type === 'call:start' &&
        this.#ahead.size !== 0 &&
        event.attempt === 1 &&
        this.#ahead.delete(event.call)
      )
        return;
      encoded = this.#encode(event);
    } else {
      // A version 1 journal is appended to exactly as before.
      encoded = encodeEvent(event);
    }
    const line = fitLine(event, encoded, this.#maxLine);
    this.#pending.push(line);
    this.#pendingChars += line.length;
    if (!DEFERRABLE.has(event.type) || this.#pendingChars >= PENDING_CHARS) this.#write();
  }

  /**
   * True when the run may write the `call:start` of a call ready to start in the same write(2)
   * as the `call:end` that made it ready (see appendAhead): in a journal of version 2 or later. A
   * version 1 journal is appended to exactly as before.
   */
  get writesAhead(): boolean {
    return this.#version !== 1;
  }

  /**
   * Appends a `call:end` without writing it yet: the caller writes it with `sync`, in the same
   * write(2) as the starts it appends ahead meanwhile, before anyone hears of the call.
   *
   * @throws {JournalError} as `append` does.
   */
  hold(event: RunEvent): void {
    this.#openFd('append to');
    this.#commit.check();
    const encoded = this.#encode(event);
    const line = fitLine(event, encoded, this.#maxLine);
    this.#pending.push(line);
    this.#pendingChars += line.length;
  }

  /**
   * Appends, ahead of time and held for the next write, the first `call:start` of a call the
   * run is about to start: written before its tool runs, as every start is. When the call's own
   * `call:start` (attempt 1) is appended later, it is not written again. A start written ahead
   * of a call that then never starts (the run was halted or cancelled meanwhile) reads on
   * resume as any start without an end: the call runs (again) from its start.
   *
   * @throws {JournalError} as `append` does.
   */
  appendAhead(event: Extract<RunEvent, { readonly type: 'call:start' }>): void {
    this.hold(event);
    this.#ahead.add(event.call);
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
   * Writes the lines held, fsyncs, closes the file and removes the lock. Calling it again does
   * nothing.
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
      this.#lock.release();
    }
    if (failure !== undefined) throw failure;
  }

  /** Writes the lines held, in one write(2) as far as the system allows. */
  #write(): void {
    if (this.#pending.length === 0) return;
    const fd = this.#fd!;
    const pending = this.#pending;
    const text = pending.length === 1 ? pending[0]! : pending.join('');
    // Emptied in place: a new array per write was one more allocation per line.
    pending.length = 0;
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
