import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlanError } from '../../src/errors.js';
import { isJournalError, JournalError } from '../../src/run/journal-error.js';
import { type CallEndEvent, Journal, journalKey } from '../../src/run/journal.js';
import type { CallStatus, RunEvent } from '../../src/run/types.js';

const ROOT = resolve(import.meta.dirname, '../..');
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

function lines(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
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

  it("keeps each call's last completed call:end", () => {
    const dir = freshDir();
    written(dir, [
      end('a', 'succeeded', { output: 1 }),
      end('b', 'succeeded', { output: 1 }),
      end('a', 'succeeded', { output: 2 }),
      end('c', 'failed', { handled: true, output: { message: 'first' } }),
      end('c', 'succeeded', { output: 'second' }),
      // A later call:end that did not complete does not erase a completed one: its output was written.
      end('b', 'cancelled'),
    ]);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect(journal.completed.get('a')?.output).toBe(2);
    expect(journal.completed.get('b')?.output).toBe(1);
    expect(journal.completed.get('c')?.output).toBe('second');
    // In the order the calls last completed.
    expect([...journal.completed.keys()]).toEqual(['b', 'a', 'c']);
    journal.close();
  });

  it('skips garbage lines and a cut-off last line, and removes the cut-off line from the file', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'run.jsonl');
    const a = JSON.stringify(end('a', 'succeeded', { output: 'A' }));
    const b = JSON.stringify(end('b', 'succeeded', { output: 'B' }));
    const cut = JSON.stringify(end('c', 'succeeded', { output: 'C' }));
    const garbage = [
      'not json',
      '[1, 2]',
      '42',
      '{"type": 5}',
      '{"type": "call:end", "status": "succeeded", "handled": false}',
      '{"type": "call:end", "call": "x", "status": "succeeded"}',
      '\u0000\u0001',
    ];
    const whole = `${a}\n${garbage.join('\n')}\n\n${b}\n`;
    writeFileSync(path, `${whole}${cut.slice(0, cut.length - 7)}`);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect([...journal.completed.keys()]).toEqual(['a', 'b']);
    expect(journal.skippedLines).toBe(garbage.length + 1);
    expect(journal.eventsRead).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe(whole);
    journal.append(end('c', 'succeeded', { output: 'C again' }));
    journal.close();
    const again = Journal.open({ dir, runKey: 'run', resume: true });
    expect(again.skippedLines).toBe(garbage.length);
    expect(again.completed.get('c')?.output).toBe('C again');
    again.close();
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

describe('Journal after SIGKILL', () => {
  const work = join(root, 'crash');
  let modulePath = '';

  beforeAll(() => {
    // The module is built on its own, into the temp dir: building the whole project here would
    // race other test files reading dist/, and would fail on unrelated work in progress.
    mkdirSync(work, { recursive: true });
    const config = join(work, 'tsconfig.json');
    const out = join(work, 'build');
    writeFileSync(
      config,
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.json'),
        compilerOptions: {
          outDir: out,
          rootDir: ROOT,
          typeRoots: [join(ROOT, 'node_modules/@types')],
          declaration: false,
          sourceMap: false,
        },
        files: [join(ROOT, 'src/run/journal.ts')],
        include: [],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', config], {
      encoding: 'utf8',
    });
    if (tsc.status !== 0) throw new Error(`building the journal failed:\n${tsc.stdout}${tsc.stderr}`);
    modulePath = join(out, 'src/run/journal.js');
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
    const child = spawn(process.execPath, [script, pathToFileURL(modulePath).href, dir], {
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
