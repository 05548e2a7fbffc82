import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtModule } from '../built.js';
import { PlanError } from '../../src/errors.js';
import { canonicalJson } from '../../src/run/journal/journal-format.js';
import { isJournalError, JournalError } from '../../src/run/journal/journal-error.js';
import {
  type CallEndEvent,
  Journal,
  type JournalDigests,
  journalKey,
} from '../../src/run/journal/journal.js';
import { planIdentity, runIdentity } from '../../src/run/journal/journal-digests.js';
import { compile } from '../../src/compile/index.js';
import { createHash } from 'node:crypto';
import { ToolRegistry } from '../../src/tools/index.js';
import { run } from '../../src/run/index.js';
import type { CallStatus, RunEvent } from '../../src/run/types.js';
import { journalRecords } from './journal-file.js';

/**
 * The journal's fsyncs, counted (and made to fail on demand) by wrapping node:fs: the real
 * functions run underneath unless `fail` says otherwise.
 */
const fsyncs = vi.hoisted(() => ({
  background: 0,
  inline: 0,
  fail: undefined as NodeJS.ErrnoException | undefined,
  /** Background fsyncs not yet returned, and who waits for there to be none. */
  running: 0,
  waiting: [] as (() => void)[],
  reset() {
    this.background = 0;
    this.inline = 0;
    this.fail = undefined;
  },
  /** Resolves once no background fsync runs (one that returns may start the next). */
  idle(): Promise<void> {
    return new Promise((resolve) => (this.running === 0 ? resolve() : this.waiting.push(resolve)));
  },
  returned() {
    this.running -= 1;
    if (this.running === 0) for (const resolve of this.waiting.splice(0)) resolve();
  },
}));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const fsync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    fsyncs.background += 1;
    fsyncs.running += 1;
    const done = (error: NodeJS.ErrnoException | null) => {
      callback(error);
      fsyncs.returned();
    };
    const failure = fsyncs.fail;
    if (failure === undefined) fs.fsync(fd, done);
    else process.nextTick(() => done(failure));
  }) as typeof fs.fsync;
  const fsyncSync: typeof fs.fsyncSync = (fd) => {
    fsyncs.inline += 1;
    if (fsyncs.fail !== undefined) throw fsyncs.fail;
    fs.fsyncSync(fd);
  };
  return { ...fs, default: { ...fs, fsync, fsyncSync }, fsync, fsyncSync };
});

const AT = '2025-01-01T00:00:00.000Z';
const root = mkdtempSync(join(tmpdir(), 'planmode-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
function freshDir(): string {
  dirs += 1;
  return join(root, `case-${dirs}`);
}

function end(call: string, status: CallStatus, extra: Partial<CallEndEvent> = {}): CallEndEvent {
  return {
    type: 'call:end',
    at: AT,
    call,
    tool: 't',
    status,
    branch: status === 'succeeded' ? 0 : null,
    handled: false,
    attempts: 1,
    durationMs: 1,
    error: status === 'succeeded' ? null : { message: 'boom' },
    ...extra,
  };
}

const DIGESTS: JournalDigests = {
  plan: 'a'.repeat(64),
  input: 'b'.repeat(64),
  state: 'c'.repeat(64),
  tools: 'd'.repeat(64),
};

/** A version 1 header, as journals written before version 2 start. */
function header(digests: JournalDigests) {
  return { type: 'journal', version: 1, digests };
}

/** The header a new journal gets: version 4 (compact lines for calls, no call:ready or state:write lines). */
function writtenHeader(digests: JournalDigests) {
  return { type: 'journal', version: 4, digests };
}

function start(call: string): RunEvent {
  return { type: 'call:start', at: AT, call, tool: 't', attempt: 1, args: { call } };
}

/** A journal holding these events, closed; returns its path. */
function written(dir: string, events: readonly RunEvent[], runKey = 'run'): string {
  const journal = Journal.open({ dir, runKey, resume: false });
  for (const event of events) journal.append(event);
  journal.close();
  return journal.path;
}

/** The file's records, a compact line read as the whole event it stands for. */
function lines(path: string): unknown[] {
  return journalRecords(path);
}

function openError(options: Parameters<typeof Journal.open>[0]): JournalError {
  try {
    Journal.open(options);
  } catch (error) {
    if (!isJournalError(error)) throw error;
    return error;
  }
  throw new Error('expected Journal.open to throw a JournalError');
}

describe('Journal', () => {
  it('starts a fresh journal: the directory is created, the file holds one line per event', () => {
    const dir = join(freshDir(), 'nested', 'deeper');
    const journal = Journal.open({ dir, runKey: 'abc', resume: false });
    expect(journal.path).toBe(join(dir, 'abc.jsonl'));
    expect(journal.completed.size).toBe(0);
    expect(journal.skippedLines).toBe(0);
    expect(journal.eventsRead).toBe(0);
    expect(readFileSync(journal.path, 'utf8')).toBe('');
    const events: RunEvent[] = [
      { type: 'run:start', at: AT, runId: 'r', mode: 'eager', calls: 1 },
      start('a'),
      { type: 'state:write', at: AT, call: 'a', path: 'state.x', value: { '†': 'é\n' } },
      end('a', 'succeeded', { output: { x: [1, 'two', null] } }),
      { type: 'run:end', at: AT, status: 'succeeded' },
    ];
    for (const event of events) journal.append(event);
    journal.sync();
    expect(readFileSync(journal.path, 'utf8')).toBe(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    journal.close();
  });

  it('resumes: completed maps each call to its call:end, with its output', () => {
    const dir = freshDir();
    const a = end('a', 'succeeded', { output: { n: 1 } });
    const b = end('b', 'succeeded', { output: 'text', branch: 1 });
    written(dir, [start('a'), a, start('b'), b, start('c')]);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect([...journal.completed.keys()]).toEqual(['a', 'b']);
    expect(journal.completed.get('a')).toEqual(a);
    expect(journal.completed.get('b')).toEqual(b);
    expect(journal.eventsRead).toBe(5);
    expect(journal.skippedLines).toBe(0);
    journal.close();
  });

  it('counts only succeeded calls and handled failures as completed', () => {
    const dir = freshDir();
    const statuses: CallStatus[] = [
      'succeeded',
      'failed',
      'skipped',
      'upstream_failed',
      'cancelled',
      'rejected',
    ];
    const events = statuses.map((status) => end(status, status));
    events.push(end('handled', 'failed', { handled: true, branch: 1, output: { message: 'boom' } }));
    events.push(end('unhandled', 'failed', { handled: false }));
    written(dir, events);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect([...journal.completed.keys()].sort()).toEqual(['handled', 'succeeded']);
    expect(journal.completed.get('handled')?.output).toEqual({ message: 'boom' });
    journal.close();
  });

  it("keeps each call's completed call:end; a replay of the same result is read again", () => {
    const dir = freshDir();
    written(dir, [
      end('a', 'succeeded', { output: { x: 1, y: 2 } }),
      end('b', 'succeeded', { output: 1 }),
      // What a resume appends for a result it reuses: the same result (key order aside).
      end('a', 'succeeded', { output: { y: 2, x: 1 }, resumed: true }),
      end('c', 'failed', { handled: true, output: { message: 'first' } }),
      // A later call:end that did not complete does not erase a completed one: its output was written.
      end('b', 'cancelled'),
    ]);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect(journal.completed.get('a')?.output).toEqual({ x: 1, y: 2 });
    expect(journal.completed.get('b')?.output).toBe(1);
    expect(journal.completed.get('c')?.output).toEqual({ message: 'first' });
    // In the order the calls last completed.
    expect([...journal.completed.keys()]).toEqual(['b', 'a', 'c']);
    journal.close();
  });

  // Before, the last one won: a line appended to a journal chose what the resume wrote.
  it('refuses a second completed call:end of a call with another result, naming both lines', () => {
    const cases: [CallEndEvent[], RegExp][] = [
      [
        [
          end('a', 'succeeded', { output: 1 }),
          end('b', 'succeeded', { output: 1 }),
          end('a', 'succeeded', { output: 2 }),
        ],
        /line 3: a second completed call:end for call "a", with another result than line 1: /,
      ],
      [
        [
          end('c', 'failed', { handled: true, output: { message: 'first' } }),
          end('c', 'succeeded', { output: 'second' }),
        ],
        /line 2: a second completed call:end for call "c", with another result than line 1: /,
      ],
    ];
    for (const [events, message] of cases) {
      const dir = freshDir();
      written(dir, events);
      expect(() => Journal.open({ dir, runKey: 'run', resume: true })).toThrow(message);
    }
  });

  it('removes a cut-off last line from the file, and keeps blank lines', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'run.jsonl');
    const a = JSON.stringify(end('a', 'succeeded', { output: 'A' }));
    const b = JSON.stringify(end('b', 'succeeded', { output: 'B' }));
    const cut = JSON.stringify(end('c', 'succeeded', { output: 'C' }));
    const whole = `${a}\n\n  \r\n${b}\n`;
    writeFileSync(path, `${whole}${cut.slice(0, cut.length - 7)}`);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect([...journal.completed.keys()]).toEqual(['a', 'b']);
    expect(journal.skippedLines).toBe(1);
    expect(journal.eventsRead).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe(whole);
    journal.append(end('c', 'succeeded', { output: 'C again' }));
    journal.close();
    const again = Journal.open({ dir, runKey: 'run', resume: true });
    expect(again.skippedLines).toBe(0);
    expect(again.completed.get('c')?.output).toBe('C again');
    again.close();
  });

  it('refuses a line that is not a record anywhere but at the cut-off end, naming the line', () => {
    const a = JSON.stringify(end('a', 'succeeded', { output: 'A' }));
    const garbage: [string, RegExp][] = [
      ['not json', /line 3: the line is not JSON \(Unexpected token/],
      ['[1, 2]', /line 3: not a journal record: expected a JSON object with a string "type", got an array/],
      ['42', /line 3: not a journal record/],
      ['{"type": 5}', /line 3: not a journal record: expected a string "type", got 5/],
      ['{"type": "call:begin"}', /line 3: "call:begin" is not a journal record type \(run:start, call:ready/],
      [
        '{"type": "call:end", "status": "succeeded", "handled": false}',
        /line 3: a call:end must have a string "at"/,
      ],
      [
        JSON.stringify({ ...end('x', 'succeeded'), call: undefined }),
        /line 3: a call:end must have a string "call"/,
      ],
      [
        JSON.stringify({ ...end('x', 'succeeded'), status: 'done' }),
        /a call:end must have a call status \(succeeded, failed, skipped, upstream_failed, cancelled, rejected\) "status", got "done"/,
      ],
      [
        JSON.stringify(end('x', 'succeeded', { attempts: 1.5 })),
        /a call:end must have a whole number \(0 or more\) "attempts", got 1.5/,
      ],
      [JSON.stringify(end('x', 'succeeded', { attempts: -1 })), /"attempts", got -1/],
      [JSON.stringify(end('x', 'succeeded', { branch: '0' as unknown as number })), /"branch", got "0"/],
      [
        JSON.stringify(end('x', 'succeeded', { handled: 'no' as unknown as boolean })),
        /a call:end must have a boolean "handled", got "no"/,
      ],
      [
        JSON.stringify(end('x', 'failed', { error: { message: 1 } as unknown as { message: string } })),
        /an error object .* or null "error"/,
      ],
      [JSON.stringify({ ...end('x', 'succeeded'), extra: 1 }), /a call:end has an unknown field "extra"/],
      [
        JSON.stringify({ ...end('x', 'succeeded'), unserializableFields: ['nope'] }),
        /"unserializableFields" must be a list of its field names, got "nope"/,
      ],
      [
        JSON.stringify({ ...end('x', 'succeeded'), output: 1, unserializableFields: ['output'] }),
        /"output" is listed in "unserializableFields" but is not/,
      ],
      [
        '{"type": "call:start", "at": "t", "call": "x", "tool": "t", "attempt": 1, "args": []}',
        /a call:start must have an object "args", got an array/,
      ],
      [
        '{"type": "run:end", "at": "t", "status": "skipped"}',
        /a run:end must have a run status .* "status", got "skipped"/,
      ],
      [JSON.stringify(header(DIGESTS)), /line 3: a journal header may only be the first line/],
      ['{"a": 1e400}', /line 3: the record's value at \/a is Infinity/],
      ['\u0000\u0001', /line 3: the line is not JSON/],
    ];
    for (const [line, message] of garbage) {
      const dir = freshDir();
      mkdirSync(dir, { recursive: true });
      const path = join(dir, 'run.jsonl');
      // A good record after the bad one: only a last line may be cut off silently.
      writeFileSync(path, `${a}\n\n${line}\n${a}\n`);
      const error = openError({ dir, runKey: 'run', resume: true });
      expect(error.message, line).toMatch(message);
      expect(error.message, line).toContain(`cannot resume from the journal '${path}': line 3: `);
      expect(error.message, line).toMatch(/; remove it, or run without --resume to start over$/);
      expect(error.message, line).not.toContain('\n');
      expect(error.line, line).toBe(3);
      expect(error.path, line).toBe(path);
      // Nothing was changed.
      expect(readFileSync(path, 'utf8'), line).toBe(`${a}\n\n${line}\n${a}\n`);
    }
  });

  it('refuses a last line without a newline that parses but is not a record', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'run.jsonl'), `${JSON.stringify(end('a', 'succeeded'))}\n{"type": "call:end"}`);
    expect(openError({ dir, runKey: 'run', resume: true }).message).toMatch(/line 2: a call:end must have/);
  });

  it('refuses a line that is not UTF-8', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const bad = Buffer.from(JSON.stringify(end('a', 'succeeded', { output: 'xx' })), 'utf8');
    bad[bad.indexOf('xx') + 1] = 0xff;
    writeFileSync(join(dir, 'run.jsonl'), Buffer.concat([bad, Buffer.from('\n')]));
    const error = openError({ dir, runKey: 'run', resume: true });
    expect(error.message).toMatch(/line 1: the line is not UTF-8 text/);
  });

  it('accepts an event the writer could not serialize at all, and reuses nothing from it', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const whole = JSON.stringify({
      type: 'call:end',
      unserializable: 'getter threw',
      unserializableFields: ['*'],
    });
    writeFileSync(join(dir, 'run.jsonl'), `${whole}\n${JSON.stringify(end('a', 'succeeded'))}\n`);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect([...journal.completed.keys()]).toEqual(['a']);
    expect(journal.eventsRead).toBe(2);
    journal.close();
  });

  it('keeps a whole last event that lacks its newline, and adds the newline', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'run.jsonl');
    const a = JSON.stringify(end('a', 'succeeded', { output: 'A' }));
    writeFileSync(path, a);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect(journal.completed.has('a')).toBe(true);
    expect(journal.skippedLines).toBe(0);
    journal.append(end('b', 'succeeded'));
    journal.close();
    expect(lines(path)).toHaveLength(2);
  });

  it('resumes from a missing or empty file as from nothing', () => {
    const dir = freshDir();
    const missing = Journal.open({ dir, runKey: 'run', resume: true });
    expect(missing.completed.size).toBe(0);
    expect(existsSync(missing.path)).toBe(true);
    missing.close();
    const empty = Journal.open({ dir, runKey: 'run', resume: true });
    expect(empty.completed.size).toBe(0);
    expect(empty.skippedLines).toBe(0);
    empty.close();
  });

  it('reads a journal larger than its read chunk, with lines across chunk boundaries', () => {
    const dir = freshDir();
    const big = 'é'.repeat(300_000);
    const events = Array.from({ length: 12 }, (_, i) =>
      end(String(i), 'succeeded', { output: `${i}${big}` }),
    );
    written(dir, events);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect(journal.completed.size).toBe(12);
    expect(journal.completed.get('11')?.output).toBe(`11${big}`);
    expect(journal.skippedLines).toBe(0);
    journal.close();
  });

  it('appends to the same file after a resume', () => {
    const dir = freshDir();
    const path = written(dir, [start('a'), end('a', 'succeeded', { output: 1 })]);
    const resumed = Journal.open({ dir, runKey: 'run', resume: true });
    expect(resumed.path).toBe(path);
    resumed.append(start('b'));
    resumed.append(end('b', 'succeeded', { output: 2 }));
    resumed.close();
    expect(lines(path)).toHaveLength(4);
    const again = Journal.open({ dir, runKey: 'run', resume: true });
    expect([...again.completed.keys()]).toEqual(['a', 'b']);
    again.close();
  });

  it('empties an existing journal without resume', () => {
    const dir = freshDir();
    const path = written(dir, [end('a', 'succeeded', { output: 1 })]);
    const journal = Journal.open({ dir, runKey: 'run', resume: false });
    expect(journal.completed.size).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('');
    journal.append(end('b', 'succeeded'));
    journal.close();
    expect(lines(path)).toEqual([JSON.parse(JSON.stringify(end('b', 'succeeded')))]);
  });

  it('keeps separate files for separate run keys', () => {
    const dir = freshDir();
    written(dir, [end('a', 'succeeded')], 'one');
    written(dir, [end('b', 'succeeded')], 'two');
    const one = Journal.open({ dir, runKey: 'one', resume: true });
    expect([...one.completed.keys()]).toEqual(['a']);
    one.close();
  });

  it('writes values JSON cannot hold without throwing', () => {
    const dir = freshDir();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const journal = Journal.open({ dir, runKey: 'run', resume: false });
    journal.append(end('cycle', 'succeeded', { output: cyclic }));
    journal.append({ type: 'state:write', at: AT, call: 'big', path: 'state.n', value: 10n });
    journal.append(end('big', 'succeeded', { output: { n: 10n } }));
    journal.append(end('nothing', 'succeeded', { output: undefined }));
    journal.append(end('fn', 'succeeded', { output: { f: () => 1, keep: true } }));
    journal.append({
      type: 'call:start',
      at: AT,
      call: 'x',
      tool: 't',
      attempt: 1,
      args: { sym: Symbol('s') },
    });
    const throwing = {
      toJSON: () => {
        throw new Error('no JSON for you\nsecond line');
      },
    };
    journal.append(end('throws', 'succeeded', { output: throwing }));
    journal.close();

    const [cycle, write, big, nothing, fn, args, throws] = lines(journal.path) as Record<string, unknown>[];
    expect(cycle?.output).toEqual({ unserializable: expect.stringMatching(/circular/i) });
    expect(cycle?.unserializableFields).toEqual(['output']);
    expect(cycle?.call).toBe('cycle');
    expect(write?.value).toEqual({ unserializable: expect.stringMatching(/BigInt/) });
    expect(write?.unserializableFields).toEqual(['value']);
    expect(big?.output).toEqual({ unserializable: expect.stringMatching(/BigInt/) });
    expect(nothing).not.toHaveProperty('output');
    expect(fn?.output).toEqual({ keep: true });
    expect(args?.args).toEqual({});
    expect(throws?.output).toEqual({ unserializable: 'no JSON for you' });

    // A stand-in is not the tool's output: those calls run again on resume.
    const resumed = Journal.open({ dir, runKey: 'run', resume: true });
    expect([...resumed.completed.keys()].sort()).toEqual(['fn', 'nothing']);
    expect(resumed.completed.get('nothing')?.output).toBeUndefined();
    expect(resumed.skippedLines).toBe(0);
    resumed.close();
  });

  it('closes once: close again does nothing, sync after close does nothing, append after close throws', () => {
    const journal = Journal.open({ dir: freshDir(), runKey: 'run', resume: false });
    expect(journal.closed).toBe(false);
    journal.close();
    expect(journal.closed).toBe(true);
    expect(() => journal.close()).not.toThrow();
    expect(() => journal.sync()).not.toThrow();
    expect(() => journal.append(start('a'))).toThrow(JournalError);
    expect(() => journal.append(start('a'))).toThrow(/closed/);
  });

  it('throws a JournalError when the directory cannot be created', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const error = openError({ dir: join(file, 'journal'), runKey: 'run', resume: false });
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toBeInstanceOf(PlanError);
    expect(error.name).toBe('JournalError');
    expect(error.path).toBe(join(file, 'journal'));
    expect((error.cause as NodeJS.ErrnoException).code).toMatch(/^(ENOTDIR|EEXIST)$/);
    expect(error.message).toContain(join(file, 'journal'));
    expect(error.message).toMatch(/journal directory/);
    expect(error.message).toMatch(/; (choose|check)/);
  });

  it('throws a JournalError when the journal file is a directory', () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'run.jsonl'), { recursive: true });
    const error = openError({ dir, runKey: 'run', resume: true });
    expect(error.path).toBe(join(dir, 'run.jsonl'));
    expect((error.cause as NodeJS.ErrnoException).code).toBe('EISDIR');
    expect(error.message).toMatch(/is a directory/);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)(
    'throws a JournalError when the directory is not writable',
    () => {
      const dir = freshDir();
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o500);
      try {
        const error = openError({ dir, runKey: 'run', resume: false });
        expect(error.message).toMatch(/permission denied/);
      } finally {
        chmodSync(dir, 0o700);
      }
    },
  );

  it('rejects options of the wrong type with a TypeError', () => {
    const dir = freshDir();
    for (const runKey of ['', '.', '..', '../up', 'a/b', 'a\\b', '.hidden', 'x'.repeat(201)]) {
      expect(() => Journal.open({ dir, runKey, resume: false }), runKey).toThrow(TypeError);
    }
    expect(() => Journal.open({ dir: '', runKey: 'run', resume: false })).toThrow(TypeError);
    expect(() => Journal.open({ dir, runKey: 'run', resume: 'yes' as unknown as boolean })).toThrow(/resume/);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('Journal bound to a run (digests)', () => {
  const other: JournalDigests = { ...DIGESTS, plan: 'e'.repeat(64), tools: 'f'.repeat(64) };

  it('writes the header first in a new journal, and resumes with the same digests', () => {
    const dir = freshDir();
    const journal = Journal.open({ dir, runKey: 'run', resume: false, digests: DIGESTS });
    expect(journal.digests).toEqual(DIGESTS);
    journal.append(end('a', 'succeeded', { output: 1 }));
    journal.close();
    const [first, second] = lines(journal.path);
    expect(first).toEqual(writtenHeader(DIGESTS));
    expect(second).toMatchObject({ type: 'call:end', call: 'a' });
    const resumed = Journal.open({ dir, runKey: 'run', resume: true, digests: DIGESTS });
    expect(resumed.digests).toEqual(DIGESTS);
    expect([...resumed.completed.keys()]).toEqual(['a']);
    expect(resumed.eventsRead).toBe(1);
    resumed.close();
    // Read without digests to compare, the header is still reported.
    const unbound = Journal.open({ dir, runKey: 'run', resume: true });
    expect(unbound.digests).toEqual(DIGESTS);
    unbound.close();
    expect(lines(journal.path)).toHaveLength(2);
  });

  it('writes the header on a resume that finds nothing, or only a cut-off header', () => {
    const dir = freshDir();
    const missing = Journal.open({ dir, runKey: 'run', resume: true, digests: DIGESTS });
    missing.close();
    expect(lines(missing.path)).toEqual([writtenHeader(DIGESTS)]);
    const text = `${JSON.stringify(writtenHeader(DIGESTS))}`;
    writeFileSync(missing.path, `\n \n${text.slice(0, 40)}`);
    const cut = Journal.open({ dir, runKey: 'run', resume: true, digests: DIGESTS });
    expect(cut.skippedLines).toBe(1);
    cut.close();
    expect(readFileSync(missing.path, 'utf8')).toBe(`${text}\n`);
  });

  it("refuses another run's journal, naming each part that differs and its digests", () => {
    const dir = freshDir();
    written(dir, []);
    const first = Journal.open({ dir, runKey: 'run', resume: false, digests: other });
    const path = first.path;
    // Closed before the next open: a journal is locked until it is.
    first.close();
    const journal = Journal.open({ dir, runKey: 'run', resume: true, digests: other });
    journal.append(end('a', 'succeeded', { output: 1 }));
    journal.close();
    const error = openError({ dir, runKey: 'run', resume: true, digests: DIGESTS });
    expect(error.message).toBe(
      `the journal '${path}' was written for a different plan and set of tools ` +
        `(plan digest eeeeeeeeeeee in the journal, aaaaaaaaaaaa for this run; ` +
        `tools digest ffffffffffff in the journal, dddddddddddd for this run): ` +
        'remove it, or run without --resume to start over',
    );
    expect(error.differs).toEqual(['plan', 'tools']);
    expect(error.line).toBe(1);
    expect(error.path).toBe(path);
    for (const part of ['input', 'state'] as const) {
      const changed = Journal.open({ dir: freshDir(), runKey: 'run', resume: false, digests: DIGESTS });
      changed.close();
      const wanted = { ...DIGESTS, [part]: '0'.repeat(64) };
      const refused = openError({
        dir: join(changed.path, '..'),
        runKey: 'run',
        resume: true,
        digests: wanted,
      });
      expect(refused.differs).toEqual([part]);
      expect(refused.message).toMatch(
        part === 'input' ? /a different input \(input digest/ : /a different initial state \(state digest/,
      );
    }
    // Without --resume the journal is simply started over.
    const fresh = Journal.open({ dir, runKey: 'run', resume: false, digests: DIGESTS });
    fresh.close();
    expect(lines(path)).toEqual([writtenHeader(DIGESTS)]);
  });

  it('refuses a journal without a header when the run has digests', () => {
    const dir = freshDir();
    const path = written(dir, [end('a', 'succeeded', { output: 1 })]);
    const error = openError({ dir, runKey: 'run', resume: true, digests: DIGESTS });
    expect(error.message).toBe(
      `cannot resume from the journal '${path}': line 1: the journal has no header binding it to a run ` +
        '(it was written by an older planmode, or by something else); remove it, or run without --resume to start over',
    );
  });

  it('refuses a header of another version or shape', () => {
    const cases: [unknown, RegExp][] = [
      [
        { ...header(DIGESTS), version: 5 },
        /the journal header says version 5; this planmode reads versions 1, 2, 3 and 4/,
      ],
      [{ ...header(DIGESTS), extra: true }, /the journal header has an unknown field "extra"/],
      [{ type: 'journal', version: 1 }, /the journal header must have an object "digests", got nothing/],
      [
        { ...header({ ...DIGESTS, plan: 'A'.repeat(64) }) },
        /must have a "plan" digest of 64 lowercase hex digits/,
      ],
      [{ ...header(DIGESTS), digests: { ...DIGESTS, code: 'a'.repeat(64) } }, /unknown part "code"/],
    ];
    for (const [value, message] of cases) {
      const dir = freshDir();
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'run.jsonl'), `${JSON.stringify(value)}\n`);
      expect(openError({ dir, runKey: 'run', resume: true, digests: DIGESTS }).message).toMatch(message);
    }
  });

  it('judges every event with checkRecord, and reports what it says or throws at its line', () => {
    const dir = freshDir();
    const journal = Journal.open({ dir, runKey: 'run', resume: false, digests: DIGESTS });
    journal.append(start('a'));
    journal.append(end('a', 'succeeded', { output: 1 }));
    journal.close();
    const seen: string[] = [];
    const ok = Journal.open({
      dir,
      runKey: 'run',
      resume: true,
      digests: DIGESTS,
      checkRecord: (record) => {
        seen.push(record.type);
        return undefined;
      },
    });
    ok.close();
    expect(seen).toEqual(['call:start', 'call:end']);
    const said = openError({
      dir,
      runKey: 'run',
      resume: true,
      checkRecord: (record) => (record.type === 'call:end' ? 'not this one' : undefined),
    });
    expect(said.message).toMatch(/: line 3: not this one; remove it/);
    const threw = openError({
      dir,
      runKey: 'run',
      resume: true,
      checkRecord: () => {
        throw new Error('broken\nsecond line');
      },
    });
    expect(threw.message).toMatch(/: line 2: checking the record failed: broken; remove it/);
  });

  it('rejects digests, limits and checkRecord of the wrong type with a TypeError', () => {
    const dir = freshDir();
    const bad = [
      { digests: { plan: 'x' } },
      { digests: { ...DIGESTS, extra: 'a'.repeat(64) } },
      { digests: 'abc' },
      { limits: { maxTextLength: 0 } },
      { limits: { maxLines: 3 } },
      { checkRecord: 'yes' },
    ];
    for (const options of bad) {
      expect(
        () => Journal.open({ dir, runKey: 'run', resume: true, ...(options as object) }),
        JSON.stringify(options),
      ).toThrow(TypeError);
    }
    expect(existsSync(dir)).toBe(false);
  });
});

describe('Journal lines are bounded', () => {
  function journalWith(text: string | Buffer): string {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'run.jsonl'), text);
    return dir;
  }
  const good = JSON.stringify(end('a', 'succeeded', { output: 'A' }));

  it('refuses a line longer than maxTextLength, without holding it whole', () => {
    const long = JSON.stringify(end('b', 'succeeded', { output: 'x'.repeat(10 * 1024 * 1024) }));
    const dir = journalWith(`${good}\n${long}\n${good}\n`);
    const error = openError({ dir, runKey: 'run', resume: true, limits: { maxTextLength: 10_000 } });
    expect(error.message).toMatch(
      /: line 2: the line is longer than limits\.maxTextLength \(10000 characters\); remove it/,
    );
    // With the default limit the same journal is fine.
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect([...journal.completed.keys()]).toEqual(['b', 'a']);
    journal.close();
  });

  it('counts characters, not bytes: a line of many-byte characters within the limit is read', () => {
    const text = JSON.stringify(end('a', 'succeeded', { output: 'é'.repeat(4000) + '😀'.repeat(1000) }));
    expect(Buffer.byteLength(text)).toBeGreaterThan(10_000);
    expect(text.length).toBeLessThanOrEqual(6_300);
    const dir = journalWith(`${text}\n`);
    const journal = Journal.open({ dir, runKey: 'run', resume: true, limits: { maxTextLength: 6_300 } });
    expect(journal.completed.get('a')?.output).toBe('é'.repeat(4000) + '😀'.repeat(1000));
    journal.close();
    expect(openError({ dir, runKey: 'run', resume: true, limits: { maxTextLength: 6_000 } }).message).toMatch(
      /line 1: the line is longer than limits\.maxTextLength \(6000 characters\)/,
    );
  });

  it('removes a last line longer than the limit when it has no newline (cut off by a crash)', () => {
    const dir = journalWith(`${good}\n${'{"type":"call:end","output":"'.padEnd(50_000, 'x')}`);
    const journal = Journal.open({ dir, runKey: 'run', resume: true, limits: { maxTextLength: 1_000 } });
    expect(journal.skippedLines).toBe(1);
    expect([...journal.completed.keys()]).toEqual(['a']);
    journal.close();
    expect(readFileSync(journal.path, 'utf8')).toBe(`${good}\n`);
  });

  it('refuses a line nested 100,000 deep, and one with too many members, without a crash', () => {
    const deep = `{"type":"state:write","at":"t","call":"a","path":"state.x","value":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const error = openError({ dir: journalWith(`${good}\n${deep}\n`), runKey: 'run', resume: true });
    expect(error.message).toMatch(
      /: line 2: the record's value at \/value(\/0)+ nests deeper than 64 levels; remove it/,
    );
    expect(error.message.length).toBeLessThan(1_000);
    // A value exactly as deep as the limit is what a run writes: it is read back.
    const limit = `{"type":"state:write","at":"t","call":"a","path":"state.x","value":${'['.repeat(64)}${']'.repeat(64)}}`;
    Journal.open({ dir: journalWith(`${limit}\n`), runKey: 'run', resume: true }).close();
    const wide = JSON.stringify(
      end('a', 'succeeded', {
        output: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])),
      }),
    );
    const many = openError({
      dir: journalWith(`${wide}\n`),
      runKey: 'run',
      resume: true,
      limits: { maxKeys: 100 },
    });
    expect(many.message).toMatch(/line 1: the record's value at \/output has 200 members; the limit is 100/);
  });
});

describe('runIdentity', () => {
  it('gives the key and plan digest of the whole identity, though it makes the plan canonical in chunks', () => {
    // Three chunks and a bit, with calls whose pieces take the general path (keys that start
    // with a digit, a null-prototype object) between plain ones.
    const calls: Record<string, unknown>[] = [];
    for (let i = 0; i < 3100; i++) {
      calls.push({
        // A latent step carries its _output (eager); the others are plain steps.
        _tool: i % 3 === 0 ? 'step' : 'plain',
        _id: `c"${i}`,
        z: i,
        a: { y: [1, { q: 'é', p: null }], x: true, ...(i % 500 === 7 && { 10: 'ten', 2: 'two' }) },
        ...(i % 3 === 0 && { _output: { b: -0, a: 1.5e300 } }),
        _outputPath: i % 2 === 0 ? `†state.v${i}` : `†state.ok${i} || †state.err${i}`,
      });
    }
    calls.push({ _tool: 'plain', weird: Object.assign(Object.create(null), { b: 1, a: 2 }) as object });
    const tools = new ToolRegistry([
      { name: 'step', description: 'A step.', inputSchema: { type: 'object' }, latent: true },
      { name: 'plain', description: 'A plain step.', inputSchema: { type: 'object' } },
    ]);
    const result = compile({ calls }, { tools });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const plan = result.plan!;
    const input = { q: 1, p: [2] };
    const state = { s: { b: 1, a: 2 } };
    const identity = runIdentity({ mode: 'eager', plan, input, state, tools });
    const whole = canonicalJson(planIdentity(plan));
    expect(identity.runKey).toBe(journalKey(['eager', planIdentity(plan), input, state]));
    expect(identity.digests.plan).toBe(createHash('sha256').update(`["eager",${whole}]`).digest('hex'));
  });

  it('gives the same digests on a later run of the same compiled plan, for each mode and any input', () => {
    const tools = new ToolRegistry([
      { name: 'step', description: 'A step.', inputSchema: { type: 'object' } },
    ]);
    const plan = compile([{ _tool: 'step', n: 1, _outputPath: '†state.a' }], { tools }).plan!;
    const expected = (mode: 'eager' | 'lazy', input: object) => ({
      runKey: journalKey([mode, planIdentity(plan), input, {}]),
      plan: createHash('sha256')
        .update(`[${JSON.stringify(mode)},${canonicalJson(planIdentity(plan))}]`)
        .digest('hex'),
    });
    // The plan's hash is kept after the first: each later identity copies it, never finishes it.
    for (const [mode, input] of [
      ['eager', {}],
      ['eager', { q: 2 }],
      ['lazy', {}],
      ['eager', {}],
      ['lazy', { q: 3 }],
    ] as const) {
      const identity = runIdentity({ mode, plan, input, state: {}, tools });
      expect({ runKey: identity.runKey, plan: identity.digests.plan }).toEqual(expected(mode, input));
    }
  });
});

describe('journalKey', () => {
  it('is a sha256 hex that does not depend on key order', () => {
    const a = journalKey([{ calls: [{ _tool: 'x', b: 1, a: { d: 2, c: 3 } }] }, { q: 1, p: 2 }, {}]);
    const b = journalKey([{ calls: [{ a: { c: 3, d: 2 }, b: 1, _tool: 'x' }] }, { p: 2, q: 1 }, {}]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(b);
    expect(journalKey([JSON.parse('{"2": "x", "10": "y", "__proto__": 1}')])).toBe(
      journalKey([JSON.parse('{"__proto__": 1, "10": "y", "2": "x"}')]),
    );
    expect(journalKey([JSON.parse('{"__proto__": 1}')])).not.toBe(journalKey([{}]));
  });

  it('differs for different inputs', () => {
    const keys = [
      journalKey([]),
      journalKey([{}]),
      journalKey([[]]),
      journalKey(['ab']),
      journalKey(['a', 'b']),
      journalKey([{ a: 1 }]),
      journalKey([{ a: '1' }]),
      journalKey([{ a: [1, 2] }]),
      journalKey([{ a: [2, 1] }]),
      journalKey([{ a: 1 }, {}]),
      journalKey([{}, { a: 1 }]),
      journalKey([null]),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives the same text as stringify, parse and a stringify that sorts keys, for any JSON-like value', () => {
    // The three passes canonicalJson takes when a value is not plain JSON data: the oracle for
    // its one-pass writer of plain data.
    const threePasses = (value: unknown): string => {
      const plain = JSON.stringify(value);
      if (plain === undefined) return 'null';
      return JSON.stringify(JSON.parse(plain), (_key, item: unknown) => {
        if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
        const sorted = Object.create(null) as Record<string, unknown>;
        for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
        return sorted;
      });
    };
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom('__proto__', '0', '10', '2', '01', '-1', '1.5', 'toString', '\ud800', 'é', 'a"b'),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, true, false, 0, -0, 1.5e300, Number.NaN, Number.POSITIVE_INFINITY, undefined),
        fc.double(),
        fc.integer(),
        fc.string(),
        fc.array(tie('value')),
        fc.dictionary(key, tie('value')),
        fc
          .dictionary(key, tie('value'))
          .map((members) => Object.assign(Object.create(null), members) as object),
        fc.date({ noInvalidDate: true }),
      ),
    }));
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(threePasses(v));
      }),
      { numRuns: 2000 },
    );
    // Keys that start with a digit are listed as JavaScript lists them, array indices first.
    expect(canonicalJson({ b: 1, 10: 2, 2: 3, a: 4 })).toBe('{"2":3,"10":2,"a":4,"b":1}');
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
  });

  it('treats values as JSON does, and refuses what JSON would silently lose', () => {
    expect(journalKey([{ a: 1, b: undefined }])).toBe(journalKey([{ a: 1 }]));
    expect(journalKey([new Date(0)])).toBe(journalKey(['1970-01-01T00:00:00.000Z']));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => journalKey([cyclic])).toThrow(TypeError);
    expect(() => journalKey([1n])).toThrow(TypeError);
    expect(() => journalKey([new Map([['a', 1]])])).toThrow(/Map/);
    expect(() => journalKey([{ s: new Set([1]) }])).toThrow(/Set/);
  });
});

function ready(call: string): RunEvent {
  return { type: 'call:ready', at: AT, call, tool: 't' };
}

function stateWrite(call: string): RunEvent {
  return { type: 'state:write', at: AT, call, path: `state.${call}`, value: call };
}

describe('Journal group commit', () => {
  afterEach(async () => {
    await fsyncs.idle();
    fsyncs.reset();
    vi.restoreAllMocks();
  });

  it('writes every event but call:ready and state:write before append returns, with those held before it', () => {
    const journal = Journal.open({ dir: freshDir(), runKey: 'run', resume: false });
    const sequence: RunEvent[] = [
      { type: 'run:start', at: AT, runId: 'r', mode: 'eager', calls: 2 },
      ready('a'),
      ready('b'),
      start('a'),
      stateWrite('a'),
      end('a', 'succeeded', { output: 'a' }),
      ready('c'),
      { type: 'call:retry', at: AT, call: 'b', tool: 't', attempt: 1, delayMs: 0, error: { message: 'x' } },
      { type: 'approval:requested', at: AT, kind: 'call', call: 'c' },
      { type: 'run:end', at: AT, status: 'succeeded' },
    ];
    let written = 0;
    for (const [k, event] of sequence.entries()) {
      journal.append(event);
      const held = event.type === 'call:ready' || event.type === 'state:write';
      if (!held) written = k + 1;
      // In the file: every event up to the last one that is not held, in order.
      expect(lines(journal.path), `after ${event.type}`).toEqual(sequence.slice(0, written));
    }
    journal.close();
  });

  it('close writes the lines held and fsyncs', () => {
    const journal = Journal.open({ dir: freshDir(), runKey: 'run', resume: false });
    fsyncs.reset();
    journal.append(ready('a'));
    journal.append(stateWrite('a'));
    expect(lines(journal.path)).toEqual([]);
    journal.close();
    expect(lines(journal.path)).toEqual([ready('a'), stateWrite('a')]);
    expect(fsyncs.inline).toBe(1);
  });

  it('writes held lines once they pass 64 KiB, without waiting for another event', () => {
    const journal = Journal.open({ dir: freshDir(), runKey: 'run', resume: false });
    const big: RunEvent = {
      type: 'state:write',
      at: AT,
      call: 'a',
      path: 'state.a',
      value: 'x'.repeat(70_000),
    };
    journal.append(ready('a'));
    journal.append(big);
    expect(lines(journal.path)).toEqual([ready('a'), big]);
    journal.close();
  });

  it('shares one background fsync among the completions that ask while one runs', async () => {
    const journal = Journal.open({
      dir: freshDir(),
      runKey: 'run',
      resume: false,
      maxCommitDelayMs: Number.POSITIVE_INFINITY,
    });
    fsyncs.reset();
    // 1,000 completions in one turn of the event loop: the first starts an fsync, the other
    // 999 wait for it and share the next.
    for (let i = 0; i < 1000; i++) {
      journal.append(start(String(i)));
      journal.append(end(String(i), 'succeeded', { output: i }));
      journal.sync();
    }
    expect(fsyncs.background).toBe(1);
    expect(fsyncs.inline).toBe(0);
    await fsyncs.idle();
    expect(fsyncs.background).toBe(2);
    journal.close();
    expect(fsyncs.inline).toBe(1);
    const again = Journal.open({ dir: dirname(journal.path), runKey: 'run', resume: true });
    expect(again.completed.size).toBe(1000);
    again.close();
  });

  it('starts a second fsync beside the first once a request has waited maxCommitDelayMs, never a third', async () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const journal = Journal.open({ dir: freshDir(), runKey: 'run', resume: false, maxCommitDelayMs: 20 });
    fsyncs.reset();
    // One completion every 5 ms of a clock that only this test moves, all in one turn of the
    // event loop, so that no fsync can report back.
    for (let i = 0; i < 100; i++) {
      now += 5;
      journal.append(end(String(i), 'succeeded'));
      journal.sync();
    }
    // The 1st starts one; the 2nd waits from t = 10 ms; the one at t = 30 ms starts another.
    expect(fsyncs).toMatchObject({ background: 2, inline: 0 });
    // Once both have returned, one more covers the requests that came after the second began.
    await fsyncs.idle();
    expect(fsyncs).toMatchObject({ background: 3, inline: 0 });
    journal.close();
    expect(fsyncs.inline).toBe(1);
  });

  it('fsyncs inline in every sync with maxCommitDelayMs: 0', () => {
    const journal = Journal.open({ dir: freshDir(), runKey: 'run', resume: false, maxCommitDelayMs: 0 });
    fsyncs.reset();
    for (let i = 0; i < 10; i++) {
      journal.append(end(String(i), 'succeeded'));
      journal.sync();
    }
    expect(fsyncs).toMatchObject({ background: 0, inline: 10 });
    journal.close();
  });

  it('a failed background fsync surfaces as a JournalError from the next append, sync and close', async () => {
    const journal = Journal.open({ dir: freshDir(), runKey: 'run', resume: false });
    const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    fsyncs.fail = eio;
    journal.append(end('a', 'succeeded'));
    journal.sync();
    await fsyncs.idle();
    const failure = (() => {
      try {
        journal.append(end('b', 'succeeded'));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(JournalError);
    expect((failure as JournalError).message).toMatch(/^cannot flush the journal file '.*run\.jsonl': EIO/);
    expect((failure as JournalError).cause).toBe(eio);
    expect(() => journal.sync()).toThrow(failure as JournalError);
    expect(() => journal.close()).toThrow(failure as JournalError);
    expect(journal.closed).toBe(true);
  });

  it('a failed inline fsync surfaces as a JournalError from sync', () => {
    const journal = Journal.open({ dir: freshDir(), runKey: 'run', resume: false, maxCommitDelayMs: 0 });
    fsyncs.fail = Object.assign(new Error('ENOSPC: no space left on device, fsync'), { code: 'ENOSPC' });
    journal.append(end('a', 'succeeded'));
    expect(() => journal.sync()).toThrow(/cannot flush the journal file .*no space left on the device/);
    expect(() => journal.close()).toThrow(JournalError);
    expect(journal.closed).toBe(true);
  });

  it('a run of a wide plan shares its fsyncs: fewer than its calls, and every completion reads back', async () => {
    const dir = freshDir();
    const width = 300;
    const calls = [{ _id: 'root', _tool: 'step', n: 0, _outputPath: '†state.root' }];
    for (let i = 1; i < width; i++)
      calls.push({ _id: `c${i}`, _tool: 'step', n: i, _outputPath: `†state.c${i}` });
    fsyncs.reset();
    const result = await run(calls, {
      journal: dir,
      concurrency: 64,
      tools: [
        {
          name: 'step',
          inputSchema: { type: 'object' },
          // Each call ends in its own turn of the event loop, as one doing I/O would.
          execute: ({ n }: Record<string, unknown>) => new Promise((done) => setImmediate(() => done(n))),
        },
      ],
    });
    expect(result.status).toBe('succeeded');
    const fsyncsInRun = fsyncs.background + fsyncs.inline;
    expect(fsyncsInRun).toBeGreaterThan(0);
    expect(fsyncsInRun).toBeLessThan(width);
    const [file] = readdirSync(dir);
    const again = Journal.open({ dir, runKey: file!.replace(/\.jsonl$/, ''), resume: true });
    expect(again.completed.size).toBe(width);
    again.close();
  });

  it('rejects a maxCommitDelayMs that is not a number of milliseconds', () => {
    const dir = freshDir();
    for (const maxCommitDelayMs of [-1, Number.NaN, '5', null]) {
      expect(
        () =>
          Journal.open({ dir, runKey: 'run', resume: false, maxCommitDelayMs: maxCommitDelayMs as number }),
        String(maxCommitDelayMs),
      ).toThrow(/maxCommitDelayMs must be a number of milliseconds/);
    }
  });
});

describe('Journal after SIGKILL', () => {
  const work = join(root, 'crash');
  let moduleUrl = '';

  beforeAll(() => {
    mkdirSync(work, { recursive: true });
    moduleUrl = builtModule('src/run/journal/journal.js');
  });

  it('keeps every call:end that was synced before the kill', async () => {
    const dir = join(work, 'journal');
    const script = join(work, 'child.mjs');
    writeFileSync(
      script,
      `
import { writeSync } from 'node:fs';
const { Journal } = await import(process.argv[2]);
const journal = Journal.open({ dir: process.argv[3], runKey: 'crash', resume: false });
const at = new Date().toISOString();
const pad = 'x'.repeat(2000);
journal.append({ type: 'run:start', at, runId: 'r', mode: 'eager', calls: 5000 });
for (let i = 0; i < 5000; i++) {
  const call = String(i);
  journal.append({ type: 'call:start', at, call, tool: 't', attempt: 1, args: { i } });
  journal.append({ type: 'state:write', at, call, path: 'state.r' + i, value: { i, pad } });
  journal.append({ type: 'call:end', at, call, tool: 't', status: 'succeeded', branch: 0, handled: false,
    attempts: 1, durationMs: 0, error: null, output: { i, pad } });
  journal.sync();
  writeSync(1, call + '\\n');
}
// Finished before the kill: wait for it.
setInterval(() => {}, 1000);
`,
    );
    const wanted = 200;
    const child = spawn(process.execPath, [script, moduleUrl, dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exit = new Promise<NodeJS.Signals | null>((done) =>
      child.on('exit', (_code, signal) => done(signal)),
    );
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      if (stdout.split('\n').length - 1 >= wanted) child.kill('SIGKILL');
    });
    const signal = await exit;
    clearTimeout(guard);

    // Only whole lines count: each was written after its call:end was synced.
    const reported = stdout.split('\n').slice(0, -1);
    expect(reported.length, `the child reported too few calls; stderr: ${stderr}`).toBeGreaterThanOrEqual(
      wanted,
    );
    expect(signal).toBe('SIGKILL');

    const journal = Journal.open({ dir, runKey: 'crash', resume: true });
    for (const call of reported) {
      const event = journal.completed.get(call);
      expect(event, `call ${call}`).toBeDefined();
      expect((event?.output as { i: number }).i).toBe(Number(call));
    }
    // Completed calls are a prefix of the loop: nothing lost in between, nothing invented.
    const ids = [...journal.completed.keys()];
    expect(ids).toEqual(ids.map((_, i) => String(i)));
    expect(journal.skippedLines).toBeLessThanOrEqual(1);
    // The file is whole again: what is appended now reads back.
    journal.append({ type: 'run:start', at: AT, runId: 'r2', mode: 'eager', calls: 5000 });
    journal.append(end('after', 'succeeded', { output: 'resumed' }));
    journal.close();
    const again = Journal.open({ dir, runKey: 'crash', resume: true });
    expect(again.skippedLines).toBe(0);
    expect(again.completed.get('after')?.output).toBe('resumed');
    expect(again.completed.size).toBe(ids.length + 1);
    again.close();
  });
});
