/**
 * plan_write against a plans folder that another process moves under it. The swapper is a
 * real child process (its own event loop, running on the other core), so the renames land
 * between any two system calls of the writer, as they would for an attacker.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardTools, PermissionPolicy, PlanMode, planTools } from '../../src/agent/index.js';
import type { ModelToolCall } from '../../src/agent/model.js';
import { OpenedFolder } from '../../src/agent/plan-store/opened-folder.js';
import type { Tool } from '../../src/index.js';

const WRITES = 3_000;

/**
 * Swaps `target` (a directory) for a symbolic link to `outside` and back until `stop` exists,
 * always ending with the directory back in place; prints "ready" after the first swap and the
 * number of swaps at the end. Whatever the writer makes at `target` while the folder is
 * aside (a folder recreated by name) is moved to `target.intruder-N`, for the test to see.
 */
const SWAPPER = `
const { existsSync, renameSync, symlinkSync, unlinkSync } = require('node:fs');
const [target, outside, stop] = process.argv.slice(1);
const aside = target + '.aside';
let swaps = 0;
let intruders = 0;
const evict = () => renameSync(target, target + '.intruder-' + ++intruders);
do {
  renameSync(target, aside);
  try {
    symlinkSync(outside, target);
    unlinkSync(target);
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    evict();
  }
  for (;;) {
    try {
      renameSync(aside, target);
      break;
    } catch (error) {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      evict();
    }
  }
  if (++swaps === 1) process.stdout.write('ready\\n');
} while (!existsSync(stop));
process.stdout.write('swaps ' + swaps + '\\n');
`;

let root: string;
let swapper: ChildProcess | undefined;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'planmode-race-'));
});
afterEach(async () => {
  if (swapper && swapper.exitCode === null && swapper.signalCode === null) swapper.kill('SIGKILL');
  swapper = undefined;
  await rm(root, { recursive: true, force: true });
});

function startSwapper(target: string, outside: string, stop: string): Promise<() => Promise<number>> {
  const child = spawn(process.execPath, ['-e', SWAPPER, target, outside, stop], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  swapper = child;
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stopSwapping = async (): Promise<number> => {
    await writeFile(stop, '');
    const code = await exited;
    if (code !== 0) throw new Error(`the swapper failed (exit ${code}): ${stderr}`);
    return Number(/swaps (\d+)/.exec(stdout)?.[1]);
  };
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', () => {
      if (stdout.includes('ready')) resolve(stopSwapping);
    });
    void exited.then((code) => reject(new Error(`the swapper exited (${code}) before it began: ${stderr}`)));
  });
}

/** Every file (not directory) below `dir`, walked without recursion. */
async function filesBelow(dir: string): Promise<string[]> {
  const files: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const at = pending.pop()!;
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else files.push(path);
    }
  }
  return files;
}

interface RaceOutcome {
  readonly succeeded: number;
  readonly denied: number;
  /** Anything but a success or a refusal: a message per failure. */
  readonly crashes: readonly string[];
  /** The content of the last write that succeeded. */
  readonly last: string | undefined;
}

function makeTools(plansDir: string) {
  return planTools({ latch: new PlanMode(), plansDir, approve: () => true });
}

/** Writes the plan WRITES times, through the guard as an agent would, one write at a time. */
async function writeRepeatedly(tools: Tool[]): Promise<RaceOutcome> {
  const guarded = guardTools(tools, new PermissionPolicy({ mode: 'bypassPermissions' }));
  let succeeded = 0;
  let denied = 0;
  let last: string | undefined;
  const crashes: string[] = [];
  for (let i = 0; i < WRITES; i++) {
    const content = `plan ${i}`;
    const call: ModelToolCall = { id: `w${i}`, name: 'plan_write', arguments: { content } };
    const result = await guarded.call(call);
    if (result.status === 'succeeded') {
      succeeded++;
      last = content;
    } else if (result.status === 'denied') denied++;
    else crashes.push(`${result.status}: ${result.message.content}`);
  }
  return { succeeded, denied, crashes: [...new Set(crashes)], last };
}

async function expectOnlyThePlanInside(plansDir: string, last: string | undefined): Promise<void> {
  expect(await readdir(plansDir)).toEqual(['PLAN.md']);
  expect(await readFile(join(plansDir, 'PLAN.md'), 'utf8')).toBe(last);
}

describe('plan_write: a plans folder created at construction cannot be replaced by a link', () => {
  it('a missing plansDir is created by planTools(), and a link planted later gets nothing', async () => {
    const plansDir = join(root, 'work', 'plans');
    const outside = join(root, 'outside');
    await mkdir(outside);
    const tools = makeTools(plansDir);
    try {
      expect(statSync(plansDir).isDirectory()).toBe(true);
      const guarded = guardTools(tools, new PermissionPolicy({ mode: 'bypassPermissions' }));
      const write = (content: string) =>
        guarded.call({ id: content, name: 'plan_write', arguments: { content } });
      expect((await write('before')).status).toBe('succeeded');

      await rename(plansDir, join(root, 'work', 'moved'));
      await symlink(outside, plansDir);
      const after = await write('after the swap');
      expect(['succeeded', 'denied']).toContain(after.status);
      expect(await filesBelow(outside)).toEqual([]);
      expect(await readdir(join(root, 'work', 'moved'))).toEqual(['PLAN.md']);
      const inMoved = await readFile(join(root, 'work', 'moved', 'PLAN.md'), 'utf8');
      expect(inMoved).toBe(after.status === 'succeeded' ? 'after the swap' : 'before');
      expect((await lstat(plansDir)).isSymbolicLink()).toBe(true);
    } finally {
      tools.close();
    }
  });
});

describe('plan_write while another process swaps folders for symbolic links', () => {
  it(
    `the plans folder's parent swapped in a loop: ${WRITES} writes, nothing lands outside`,
    { timeout: 60_000 },
    async () => {
      const parent = join(root, 'work');
      const plansDir = join(parent, 'plans');
      const outside = join(root, 'outside');
      await mkdir(plansDir, { recursive: true });
      // Through the swapped parent, `work/plans` leads here: an escaping write would land in it.
      await mkdir(join(outside, 'plans'), { recursive: true });
      const tools = makeTools(plansDir);
      const stop = await startSwapper(parent, outside, join(root, 'stop'));
      const outcome = await writeRepeatedly(tools);
      const swaps = await stop();
      tools.close();

      expect(swaps).toBeGreaterThan(0);
      expect(await filesBelow(outside)).toEqual([]);
      expect(await readdir(outside)).toEqual(['plans']);
      expect((await readdir(root)).sort()).toEqual(['outside', 'stop', 'work']);
      expect(outcome.crashes).toEqual([]);
      expect(outcome.succeeded + outcome.denied).toBe(WRITES);
      expect(outcome.succeeded).toBeGreaterThan(0);
      await expectOnlyThePlanInside(plansDir, outcome.last);
    },
  );

  it(
    `the plans folder itself swapped in a loop: ${WRITES} writes, nothing lands outside`,
    { timeout: 60_000 },
    async () => {
      const plansDir = join(root, 'plans');
      const outside = join(root, 'outside');
      await mkdir(plansDir);
      await mkdir(outside);
      const tools = makeTools(plansDir);
      const stop = await startSwapper(plansDir, outside, join(root, 'stop'));
      const outcome = await writeRepeatedly(tools);
      const swaps = await stop();
      tools.close();

      expect(swaps).toBeGreaterThan(0);
      expect(await filesBelow(outside)).toEqual([]);
      expect(outcome.crashes).toEqual([]);
      expect(outcome.succeeded + outcome.denied).toBe(WRITES);
      expect(outcome.succeeded).toBeGreaterThan(0);
      expect((await readdir(root)).sort()).toEqual(['outside', 'plans', 'stop']);
      await expectOnlyThePlanInside(plansDir, outcome.last);
    },
  );
});

describe('the opened folder alone, its name never checked, while the parent is swapped', () => {
  // plan_write refuses while the name leads elsewhere; this shows the handle alone keeps every
  // write inside, in exactly the moments that refusal would otherwise cover.
  it(
    '1,000 writes through /proc/self/fd all land in the folder that was opened',
    { timeout: 60_000 },
    async () => {
      const parent = join(root, 'work');
      const outside = join(root, 'outside');
      await mkdir(join(outside, 'plans'), { recursive: true });
      const folder = new OpenedFolder(join(parent, 'plans'));
      expect(folder.strategy).toBe('proc');
      const stop = await startSwapper(parent, outside, join(root, 'stop'));
      const failures: string[] = [];
      try {
        for (let i = 0; i < 1_000; i++) {
          try {
            await folder.hold(async () => {
              const handle = await folder.create(`.tmp-${i}`, 0o644);
              await handle.writeFile(`plan ${i}`);
              await handle.close();
              await folder.rename(`.tmp-${i}`, 'PLAN.md');
            });
          } catch (error) {
            failures.push(String(error));
          }
        }
      } finally {
        await stop();
        folder.close();
      }
      expect(await filesBelow(outside)).toEqual([]);
      expect(failures).toEqual([]);
      expect(await readdir(join(parent, 'plans'))).toEqual(['PLAN.md']);
      expect(await readFile(join(parent, 'plans', 'PLAN.md'), 'utf8')).toBe('plan 999');
    },
  );
});
