/**
 * Reading a journal back for a resume, as untrusted input. The file is read in chunks (a
 * journal can outgrow a string) and split at newlines; a line is held only up to
 * `limits.maxTextLength` characters (past that it is counted, not kept), then it must be UTF-8,
 * JSON within the limits (checkJson, iterative), a record by its schema (journal-records) and,
 * when the caller knows the run, a record that fits it. The first line that is not is an error
 * naming the file and the line: nothing is trusted half-read. The one exception is a last line
 * without its newline that does not parse: a write cut off by a crash, which the caller removes.
 */
import { isUtf8 } from 'node:buffer';
import { fstatSync, readSync } from 'node:fs';
import { checkJson } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import { differingParts, type JournalDigests } from './journal-digests.js';
import { journalLineError, journalMismatchError } from './journal-error.js';
import { type CallEndEvent, isReusable, REPLACED_FIELDS, sameResult } from './journal-format.js';
import type { RecordCheck } from './journal-plan-check.js';
import { type PartEnd, type PartRecord } from './journal-parts.js';
import { PartEnds } from './journal-part-ends.js';
import { type JournalHeader, readJournalLine } from './journal-records.js';
import type { JournalVersion } from './journal-versions.js';
import type { JsonObject } from '../../language/document.js';
import { showValue } from '../../tools/safe-describe.js';
import type { RunEvent } from '../types.js';
import { firstLine, isBlank, parses, utf16Units } from './journal-scan-text.js';

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

export interface ScanOptions {
  /** The journal file, for messages. */
  readonly path: string;
  readonly limits: Limits;
  /** What the header must record; undefined when the journal is not bound to a run. */
  readonly digests: JournalDigests | undefined;
  /** Checks each event against the run; undefined to check records by their schema only. */
  readonly checkRecord: RecordCheck | undefined;
  /**
   * Keep, per completed call, the arguments it ran with (`Scan.args`), and which calls started
   * (`Scan.started`): what a later version of the plan compares its calls with.
   * @default false
   */
  readonly keepArgs?: boolean;
  /**
   * Told the header once it is read, before any event is checked; may throw a JournalError to
   * refuse the journal.
   * @default undefined
   */
  readonly onHeader?: (header: JournalHeader) => void;
  /**
   * The ids of the calls a call depends on in the run's plan (undefined for a call it lacks):
   * a completed `call:end` is refused unless each of them has a `call:end` before it, as the
   * executor writes them (a call starts only once those it depends on ended).
   * @default undefined (the order of records is not checked: a journal of another version of the plan)
   */
  readonly dependenciesOf?: (call: string) => readonly string[] | undefined;
  /**
   * Checks an element's or a sub-call's record (version 3) against the run's plan.
   * @default undefined (checked by its schema and bounds only)
   */
  readonly checkPart?: (part: PartRecord) => string | undefined;
}

export interface Scan {
  /** Each call's last `call:end` that a resume may reuse (see isReusable), in completion order. */
  readonly completed: Map<string, CallEndEvent>;
  /**
   * Per part (element or sub-call, by partKey), its last end a resume may reuse: a succeeded
   * element with its output, or a sub-call's completed `call:end`. Version 3 journals only.
   */
  readonly parts: Map<string, PartEnd>;
  /** The digests in the file's header, when it has one. */
  digests: JournalDigests | undefined;
  /** The file's header, when it has one. */
  header: JournalHeader | undefined;
  /**
   * With `keepArgs`, per call in `completed`, the resolved arguments of its last `call:start`
   * (or those its `call:end` carries, for a call resumed from an earlier journal), when known.
   */
  readonly args: Map<string, JsonObject>;
  /**
   * With `keepArgs`, the calls that started, with the arguments of their last start (undefined
   * where they were too long for the journal).
   */
  readonly started: Map<string, JsonObject | undefined>;
  /** Lines holding an event (the header is not one). */
  eventsRead: number;
  /** True when no line holds anything but blanks: the file is as good as new. */
  empty: boolean;
  /** Bytes up to the end of the last line that is kept. */
  validBytes: number;
  /** The file ends in a cut-off line that must go before anything is appended. */
  cutTail: boolean;
  /** The file ends in a whole record without its newline. */
  missingNewline: boolean;
}

export function emptyScan(): Scan {
  return {
    completed: new Map(),
    parts: new Map(),
    digests: undefined,
    header: undefined,
    args: new Map(),
    started: new Map(),
    eventsRead: 0,
    empty: true,
    validBytes: 0,
    cutTail: false,
    missingNewline: false,
  };
}

/**
 * @throws {JournalError} naming the line, for the first line a resume cannot trust, or naming
 *   the parts of the run that differ, for a header with other digests.
 * @throws the fs error when the file cannot be read.
 */
export function scanJournal(fd: number, options: ScanOptions): Scan {
  const scan = emptyScan();
  const reader = new LineReader(scan, options);
  const line = new LineBuffer(options.limits.maxTextLength);
  const size = fstatSync(fd).size;
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(size, 1)));
  let position = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    const data = chunk.subarray(0, read);
    let start = 0;
    for (let end = data.indexOf(NEWLINE); end >= 0; end = data.indexOf(NEWLINE, start)) {
      line.add(data.subarray(start, end), false);
      reader.read(line.take());
      start = end + 1;
      scan.validBytes = position + start;
    }
    // Copied: the chunk is read into again.
    if (start < read) line.add(data.subarray(start), true);
    position += read;
  }
  const tail = line.take();
  if (tail === TOO_LONG) {
    scan.cutTail = true;
  } else if (isBlank(tail)) {
    scan.validBytes = position;
    scan.missingNewline = tail.length > 0;
  } else if (parses(tail)) {
    // A whole record whose newline the crash cut off: it is read like any other line.
    reader.read(tail);
    scan.validBytes = position;
    scan.missingNewline = true;
  } else {
    scan.cutTail = true;
  }
  return scan;
}

/** What LineBuffer gives for a line longer than the limit: its text was never kept. */
const TOO_LONG: unique symbol = Symbol('too long');

/**
 * The bytes of the line being read. Up to the limit they are kept; a line whose characters pass
 * it is dropped as it grows, so a 10 GB line costs the limit in memory, not 10 GB. Characters
 * are counted (UTF-16 units, as JavaScript strings count them) only once the bytes pass the
 * limit: below it, a line has fewer characters than bytes.
 */
class LineBuffer {
  readonly #limit: number;
  #pieces: Buffer[] = [];
  #bytes = 0;
  /** UTF-16 units so far, counted once `#bytes` passes the limit; -1 until then. */
  #units = -1;
  #tooLong = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(piece: Buffer, copy: boolean): void {
    if (this.#tooLong || piece.length === 0) return;
    this.#bytes += piece.length;
    if (this.#bytes > this.#limit) {
      if (this.#units < 0) this.#units = this.#pieces.reduce((sum, p) => sum + utf16Units(p), 0);
      this.#units += utf16Units(piece);
      if (this.#units > this.#limit) {
        this.#tooLong = true;
        this.#pieces = [];
        return;
      }
    }
    this.#pieces.push(copy ? Buffer.from(piece) : piece);
  }

  /** The line so far, and a fresh start for the next. */
  take(): Buffer | typeof TOO_LONG {
    const line = this.#tooLong
      ? TOO_LONG
      : this.#pieces.length === 1
        ? this.#pieces[0]!
        : Buffer.concat(this.#pieces);
    this.#pieces = [];
    this.#bytes = 0;
    this.#units = -1;
    this.#tooLong = false;
    return line;
  }
}

/** Reads whole lines in order, keeping count of them; throws at the first it cannot trust. */
class LineReader {
  readonly #scan: Scan;
  readonly #options: ScanOptions;
  /** The number of the line being read (1-based). */
  #number = 0;
  /** Lines read so far that held a header or a record. */
  #records = 0;
  /** The format of the lines after the header: its version, 1 without one. */
  #version: JournalVersion = 1;
  /** Limits for a whole record: see `read`. */
  readonly #limits: Limits;
  readonly #keepArgs: boolean;
  /** Calls with a `call:end` so far. */
  readonly #ended = new Set<string>();
  /** The line of each call's completion in `completed`. */
  readonly #completedAt = new Map<string, number>();
  /** Elements' and sub-calls' ends. */
  #parts: PartEnds | undefined;

  constructor(scan: Scan, options: ScanOptions) {
    this.#scan = scan;
    this.#options = options;
    this.#limits = options.limits;
    this.#keepArgs = options.keepArgs === true;
  }

  read(line: Buffer | typeof TOO_LONG): void {
    this.#number += 1;
    if (line === TOO_LONG) {
      return this.#fail(
        `the line is longer than limits.maxTextLength (${this.#limits.maxTextLength} characters)`,
      );
    }
    if (isBlank(line)) return;
    if (!isUtf8(line)) return this.#fail('the line is not UTF-8 text');
    let value: unknown;
    try {
      value = JSON.parse(line.toString('utf8'));
    } catch (e) {
      return this.#fail(`the line is not JSON (${firstLine(e)})`);
    }
    // depth -1: the record is an envelope. The values inside it (an output, a state value, the
    // arguments) may nest as deep as limits.maxDepth, as they did when they were written.
    const checked = checkJson(value, { limits: this.#limits, depth: -1 });
    if ('problem' in checked) {
      const { pointer, message } = checked.problem;
      return this.#fail(`the record${pointer === '' ? '' : `'s value at ${pointer}`} ${message}`);
    }
    const read = readJournalLine(value, this.#version, this.#limits.maxForEach);
    const first = this.#records === 0;
    this.#records += 1;
    this.#scan.empty = false;
    switch (read.kind) {
      case 'problem':
        return this.#fail(read.problem);
      case 'header':
        return this.#header(read.header, first);
      case 'unreadable':
        if (first) this.#unbound();
        this.#scan.eventsRead += 1;
        return;
      case 'part': {
        const problem = this.#checkPart(read.part);
        if (problem !== undefined) return this.#fail(problem);
        this.#scan.eventsRead += 1;
        this.#parts ??= new PartEnds(this.#scan.parts);
        const duplicate = this.#parts.add(read.part, this.#number);
        if (duplicate !== undefined) return this.#fail(duplicate);
        return;
      }
      case 'event': {
        if (first) this.#unbound();
        const event = read.event;
        const problem = this.#check(event);
        if (problem !== undefined) return this.#fail(problem);
        this.#scan.eventsRead += 1;
        if (this.#keepArgs && event.type === 'call:start') this.#scan.started.set(event.call, argsOf(event));
        if (event.type === 'call:end') this.#callEnd(event);
        return;
      }
    }
  }

  #header(header: JournalHeader, first: boolean): void {
    if (!first) return this.#fail('a journal header may only be the first line');
    const { digests } = header;
    this.#version = header.version;
    this.#scan.digests = digests;
    this.#scan.header = header;
    this.#options.onHeader?.(header);
    const expected = this.#options.digests;
    if (expected === undefined) return;
    const differs = differingParts(digests, expected);
    if (differs.length > 0) throw journalMismatchError(this.#options.path, differs, digests, expected);
  }

  /**
   * A completion is one a run of this plan wrote: after the ends of the calls it depends on, and
   * the same as any earlier completion of its call (a resume appends a replay of each result it
   * reuses). Two different results of one call cannot both be true: neither is taken.
   */
  #callEnd(event: CallEndEvent): void {
    if (isReusable(event)) {
      const missing = this.#options.dependenciesOf?.(event.call)?.find((call) => !this.#ended.has(call));
      if (missing !== undefined) {
        return this.#fail(
          `a ${event.status} call:end for call ${showValue(event.call)} comes before any call:end of call ${showValue(missing)}, which it depends on: a run of this plan ends that call first, so this result cannot be trusted`,
        );
      }
      const earlier = this.#scan.completed.get(event.call);
      if (earlier !== undefined && !sameResult(earlier, event)) {
        return this.#fail(
          `a second completed call:end for call ${showValue(event.call)}, with another result than line ${this.#completedAt.get(event.call)!}: which one the call returned cannot be told`,
        );
      }
      // Deleted first so that the map lists calls in the order they last completed.
      this.#scan.completed.delete(event.call);
      this.#scan.completed.set(event.call, event);
      this.#completedAt.set(event.call, this.#number);
      if (this.#keepArgs) this.#keepArgsOf(event);
    }
    this.#ended.add(event.call);
  }

  #keepArgsOf(end: Extract<RunEvent, { readonly type: 'call:end' }>): void {
    const args = argsOf(end) ?? this.#scan.started.get(end.call);
    if (args === undefined) this.#scan.args.delete(end.call);
    else this.#scan.args.set(end.call, args);
  }

  /** A journal that starts without a header was not written for this run (or by this planmode). */
  #unbound(): void {
    if (this.#options.digests === undefined) return;
    this.#fail(
      'the journal has no header binding it to a run (it was written by an older planmode, or by something else)',
    );
  }

  #check(event: RunEvent): string | undefined {
    const check = this.#options.checkRecord;
    if (check === undefined) return undefined;
    try {
      return check(event);
    } catch (e) {
      return `checking the record failed: ${firstLine(e)}`;
    }
  }

  #checkPart(part: PartRecord): string | undefined {
    try {
      return this.#options.checkPart?.(part);
    } catch (e) {
      return `checking the record failed: ${firstLine(e)}`;
    }
  }

  #fail(reason: string): never {
    throw journalLineError(this.#options.path, this.#number, reason);
  }
}

/** A record's arguments, unless the writer replaced them by a stand-in (too long, or not JSON). */
function argsOf(event: { readonly args?: JsonObject }): JsonObject | undefined {
  const replaced = (event as Record<string, unknown>)[REPLACED_FIELDS];
  return Array.isArray(replaced) && replaced.includes('args') ? undefined : event.args;
}
