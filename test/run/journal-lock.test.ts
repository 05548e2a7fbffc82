/**
 * One process at a time per journal: a second run of a journal in use, resuming or starting
 * afresh, is refused naming the first; a lock left by a process that no longer runs is taken
 * over and reported; nothing but a lock planmode wrote is trusted at the lock's name, and the
 * lock goes when the journal is closed, whatever ends the run.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isJournalError, run, type Tool } from '../../src/index.js';
import { JournalError } from '../../src/run/journal/journal-error.js';
import { Journal, type JournalOptions } from '../../src/run/journal/journal.js';

const root = mkdtempSync(join(tmpdir(), 'planmode-journal-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
function freshDir(): string {
  dirs += 1;
  const dir = join(root, `case-${dirs}`);
  mkdirSync(dir);
  return dir;
}

function openError(options: JournalOptions): JournalError {
  try {
    Journal.open(options).close();
  } catch (e) {
    if (e instanceof JournalError) return e;
    throw e;
  }
  throw new Error('expected Journal.open to throw a JournalError');
}

/** The pid of a process that has ended (and been reaped): no process runs under it now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

function lockOf(dir: string, key = 'run'): string {
  return join(dir, `${key}.lock`);
}

const AT = '2025-01-01T00:00:00.000Z';

describe('a journal in use', () => {
  it('refuses a second open, resuming or afresh, naming the holder; the journal is not emptied', () => {
    const dir = freshDir();
    const first = Journal.open({ dir, runKey: 'run', resume: false });
    first.append({ type: 'run:end', at: AT, status: 'succeeded' });
    const written = readFileSync(first.path, 'utf8');
    const lock = JSON.parse(readFileSync(lockOf(dir), 'utf8')) as Record<string, unknown>;
    expect(lock).toMatchObject({ pid: process.pid, hostname: hostname() });

    for (const resume of [true, false]) {
      const error = openError({ dir, runKey: 'run', resume });
      expect(error.message).toBe(
        `the journal '${first.path}' is in use by another run in this process (${process.pid}, started ${String(lock.startedAt)}): wait for that run to end`,
      );
      expect(error.path).toBe(first.path);
    }
    expect(readFileSync(first.path, 'utf8')).toBe(written);

    first.close();
    expect(existsSync(lockOf(dir))).toBe(false);
    const again = Journal.open({ dir, runKey: 'run', resume: true });
    expect(again.eventsRead).toBe(1);
    again.close();
  });

  it('refuses a second run of the same plan while the first runs: the tool runs once', async () => {
    const dir = freshDir();
    const ran: string[] = [];
    let release!: () => void;
    let started!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (started = resolve));
    const tools: Tool[] = [
      {
        name: 'charge',
        execute: async () => {
          ran.push('charge');
          started();
          await gate;
          return 'paid';
        },
      },
    ];
    const plan = [{ _id: 'charge', _tool: 'charge', amount: 5, _outputPath: '†state.paid' }];
    const first = run(plan, { tools, journal: dir });
    await reached;
    for (const resume of [true, false]) {
      const error: unknown = await run(plan, { tools, journal: dir, resume }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isJournalError(error), String(error)).toBe(true);
      expect((error as JournalError).message).toMatch(
        / is in use by another run in this process \(\d+, started /,
      );
    }
    release();
    expect((await first).status).toBe('succeeded');
    expect(ran).toEqual(['charge']);
    expect(readdirSync(dir).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });

  it('is released when the run is cancelled, and when the open is refused', async () => {
    const dir = freshDir();
    const controller = new AbortController();
    const tools: Tool[] = [
      {
        name: 'wait',
        execute: (_args, ctx) =>
          new Promise((_, reject) => {
            ctx.abortSignal.addEventListener('abort', () => reject(ctx.abortSignal.reason as Error));
            controller.abort();
          }),
      },
    ];
    const result = await run([{ _tool: 'wait' }], { tools, journal: dir, signal: controller.signal });
    expect(result.status).toBe('cancelled');
    expect(readdirSync(dir).filter((name) => !name.endsWith('.jsonl'))).toEqual([]);

    const damaged = freshDir();
    writeFileSync(join(damaged, 'run.jsonl'), 'garbage\n');
    expect(openError({ dir: damaged, runKey: 'run', resume: true }).message).toMatch(
      /line 1: the line is not JSON/,
    );
    expect(readdirSync(damaged)).toEqual(['run.jsonl']);
  });
});

describe('a lock left behind', () => {
  it('is taken over when its process no longer runs on this host, and reported', async () => {
    const dir = freshDir();
    const pid = deadPid();
    const stale = { pid, hostname: hostname(), startedAt: AT, nonce: 'x' };
    writeFileSync(lockOf(dir), `${JSON.stringify(stale)}\n`);
    const journal = Journal.open({ dir, runKey: 'run', resume: true });
    expect(journal.staleLocks).toEqual([{ lock: lockOf(dir), pid, hostname: hostname(), startedAt: AT }]);
    expect(JSON.parse(readFileSync(lockOf(dir), 'utf8'))).toMatchObject({ pid: process.pid });
    journal.close();
    expect(existsSync(lockOf(dir))).toBe(false);

    // Through run(): the result says so.
    const planDir = freshDir();
    const first = await run([{ _tool: 'noop' }], {
      tools: [{ name: 'noop', execute: () => 1 }],
      journal: planDir,
    });
    expect(first.staleLocks).toBeUndefined();
    const runKey = readdirSync(planDir)[0]!.replace(/\.jsonl$/, '');
    writeFileSync(lockOf(planDir, runKey), `${JSON.stringify(stale)}\n`);
    const resumed = await run([{ _tool: 'noop' }], {
      tools: [{ name: 'noop', execute: () => 1 }],
      journal: planDir,
      resume: true,
    });
    expect(resumed.staleLocks).toEqual([
      { lock: lockOf(planDir, runKey), pid, hostname: hostname(), startedAt: AT },
    ]);
  });

  it('of a live process, or of another host, is not taken over', () => {
    const dir = freshDir();
    writeFileSync(
      lockOf(dir),
      JSON.stringify({ pid: process.ppid, hostname: hostname(), startedAt: AT, nonce: 'x' }),
    );
    expect(openError({ dir, runKey: 'run', resume: true }).message).toBe(
      `the journal '${join(dir, 'run.jsonl')}' is in use by process ${process.ppid} (started ${AT}): wait for it to end, or stop it`,
    );
    writeFileSync(lockOf(dir), JSON.stringify({ pid: deadPid(), hostname: 'elsewhere', startedAt: AT }));
    expect(openError({ dir, runKey: 'run', resume: false }).message).toMatch(
      /^the journal '.*run\.jsonl' is in use by process \d+ on host 'elsewhere' \(started 2025-01-01T00:00:00\.000Z\): wait for it to end, or remove '.*run\.lock' if it no longer runs$/,
    );
    expect(existsSync(join(dir, 'run.jsonl'))).toBe(false);
  });

  it('under another process taking it over (or a takeover cut short) is refused, saying what to remove', () => {
    const dir = freshDir();
    writeFileSync(lockOf(dir), JSON.stringify({ pid: deadPid(), hostname: hostname(), startedAt: AT }));
    writeFileSync(`${lockOf(dir)}.takeover`, '1\n');
    expect(openError({ dir, runKey: 'run', resume: true }).message).toMatch(
      /has a lock left by process \d+ \(started .*\), which no longer runs, and another process is taking it over: try again, or remove '.*run\.lock' and '.*run\.lock\.takeover' if no run uses the journal$/,
    );
    expect(existsSync(lockOf(dir))).toBe(true);
  });
});

describe('only a lock planmode wrote, and only the journal’s own file', () => {
  it('refuses a link, a folder or a text naming no process at the lock’s name', () => {
    const target = join(freshDir(), 'target');
    writeFileSync(target, 'untouched');
    const linked = freshDir();
    symlinkSync(target, lockOf(linked));
    expect(openError({ dir: linked, runKey: 'run', resume: true }).message).toMatch(
      /^cannot read the lock '.*run\.lock' of the journal '.*run\.jsonl': it is a symbolic link/,
    );
    expect(readFileSync(target, 'utf8')).toBe('untouched');

    const folder = freshDir();
    mkdirSync(lockOf(folder));
    expect(openError({ dir: folder, runKey: 'run', resume: true }).message).toMatch(
      /^cannot read the lock '.*' of the journal '.*': it is not a regular file; remove it$/,
    );

    const garbage = freshDir();
    writeFileSync(lockOf(garbage), 'not json');
    expect(openError({ dir: garbage, runKey: 'run', resume: true }).message).toMatch(
      /is locked by '.*run\.lock', which names no process .*: try again, or remove '.*run\.lock' if no run uses the journal$/,
    );
  });

  it('refuses a journal file with a second name (a hard link) or that is a FIFO, and empties nothing', () => {
    const outside = join(freshDir(), 'outside.txt');
    writeFileSync(outside, 'keep me');
    const dir = freshDir();
    linkSync(outside, join(dir, 'run.jsonl'));
    expect(openError({ dir, runKey: 'run', resume: false }).message).toMatch(
      /^cannot open the journal file '.*run\.jsonl': it has 2 names \(hard links\)/,
    );
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(existsSync(lockOf(dir))).toBe(false);

    const fifo = freshDir();
    const made = spawnSync('mkfifo', [join(fifo, 'run.jsonl')]);
    if (made.status !== 0) return;
    expect(openError({ dir: fifo, runKey: 'run', resume: true }).message).toMatch(/it is not a regular file/);
  });
});
