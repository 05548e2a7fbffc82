/**
 * `plan run --resume` after the plan was edited, and two runs of one journal at once: in
 * process through main(), and with the built CLI in a child process where a second process is
 * the point (the lock names it; Ctrl-C releases it).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { expectOneLineUsageError, planInProcess } from './in-process.js';
import { spawnPlan } from './spawned.js';

/**
 * Each tool appends a line to calls.log beside the module. notify fails on the message
 * 'BROKEN'. hold waits: in a process with PLANMODE_TEST_HOLD=1 until Ctrl-C (after saying HELD
 * on stderr), in this one at the gate a test puts on globalThis.
 */
const TOOLS = `
import { appendFileSync } from 'node:fs';
const log = (line) => appendFileSync(new URL('./calls.log', import.meta.url), line + '\\n');
export const tools = [
  { name: 'price', execute: (a) => { log('price ' + a.item); return 5; } },
  { name: 'charge', execute: (a) => { log('charge ' + a.amount); return { receipt: 'r-' + a.amount }; } },
  {
    name: 'notify',
    execute: (a) => {
      log('notify ' + a.message);
      if (a.message === 'BROKEN') throw new Error('no such template');
      return 'sent';
    },
  },
  {
    name: 'hold',
    execute: async (a, ctx) => {
      log('hold');
      const gate = globalThis.__planmodeHold;
      if (process.env.PLANMODE_TEST_HOLD !== '1' && gate === undefined) return 'held';
      if (process.env.PLANMODE_TEST_HOLD === '1') process.stderr.write('HELD\\n');
      gate?.arrived();
      await new Promise((resolve, reject) => {
        gate?.opened.then(resolve);
        ctx.abortSignal.addEventListener('abort', () => reject(ctx.abortSignal.reason));
      });
      return 'held';
    },
  },
];
`;

const V1 = [
  { _id: 'price', _tool: 'price', item: 'book', _outputPath: '†state.price' },
  { _id: 'charge', _tool: 'charge', amount: '†state.price', _outputPath: '†state.paid' },
  { _id: 'notify', _tool: 'notify', message: 'BROKEN', receipt: '†state.paid.receipt' },
];

/** V1 with its broken message fixed. */
const V2 = [
  ...V1.slice(0, 2),
  { _id: 'notify', _tool: 'notify', message: 'paid', receipt: '†state.paid.receipt' },
];

const HOLD = [
  { _id: 'charge', _tool: 'charge', amount: 5, _outputPath: '†state.paid' },
  { _id: 'hold', _tool: 'hold', receipt: '†state.paid.receipt' },
];

const { dir, cleanup } = tempDir({
  'tools.mjs': TOOLS,
  'v1.json': V1,
  'v2.json': V2,
  'v1-pen.json': [{ ...V1[0], item: 'pen' }, ...V1.slice(1)],
  'hold.json': HOLD,
});
afterAll(cleanup);

const LOG = join(dir, 'calls.log');
const at = (name: string) => join(dir, name);

function calls(): string[] {
  try {
    return readFileSync(LOG, 'utf8').trim().split('\n');
  } catch {
    return [];
  }
}

let journals = 0;
beforeEach(() => {
  rmSync(LOG, { force: true });
  journals += 1;
});
const journalDir = () => join(dir, `journal-${journals}`);

function runPlan(plan: string, ...flags: string[]) {
  return planInProcess(['run', at(plan), '--tools', at('tools.mjs'), '--journal', journalDir(), ...flags]);
}

function gate() {
  let open!: () => void;
  let arrived!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  return { opened, open, reached, arrived };
}

describe('plan run --resume after the plan was edited', () => {
  it('runs only what changed: the charge happens once, and one line says what was reused and what ran', async () => {
    const failed = await runPlan('v1.json');
    expect(failed.code).toBe(3);
    expect(calls()).toEqual(['price book', 'charge 5', 'notify BROKEN']);
    const [earlier] = readdirSync(journalDir());

    const resumed = await runPlan('v2.json', '--resume');
    expect(resumed.code).toBe(0);
    expect(calls()).toEqual(['price book', 'charge 5', 'notify BROKEN', 'notify paid']);
    const notes = resumed.stderr.split('\n').filter((line) => line.startsWith('plan: note:'));
    expect(notes).toEqual([
      `plan: note: resumed from an earlier version of the plan (journal '${join(journalDir(), earlier!)}'): reused 2 calls; 1 ran: 'notify' (did not succeed)`,
    ]);
  });

  it('with --json: the same line on stderr, and resumedFrom in the object', async () => {
    expect((await runPlan('v1.json')).code).toBe(3);
    rmSync(LOG);
    const json = await runPlan('v2.json', '--resume', '--json');
    expect(json.code).toBe(0);
    expect(calls()).toEqual(['notify paid']);
    expect(json.stderr).toMatch(/^plan: note: resumed from an earlier version of the plan .*\n$/);
    expect((JSON.parse(json.stdout) as { resumedFrom: unknown }).resumedFrom).toEqual({
      journal: expect.stringContaining(journalDir()) as unknown,
      reused: ['price', 'charge'],
      notReused: [{ call: 'notify', reason: 'did not succeed' }],
    });
  });

  it('refuses, exit 2 and one line, when two earlier versions could be meant; nothing runs', async () => {
    expect((await runPlan('v1.json')).code).toBe(3);
    expect((await runPlan('v1-pen.json')).code).toBe(3);
    rmSync(LOG);
    const refused = await runPlan('v2.json', '--resume');
    expectOneLineUsageError(
      refused,
      /^plan: error: cannot resume: the journal directory '.*' holds no journal of this plan but 2 of earlier versions of it .*: remove those not to resume from, or run without --resume to start over\n$/,
    );
    expect(calls()).toEqual([]);
  });

  it('says so when it took over a lock left by a process that no longer runs', async () => {
    expect((await runPlan('v2.json')).code).toBe(0);
    const [journal] = readdirSync(journalDir());
    const lock = join(journalDir(), journal!.replace(/\.jsonl$/, '.lock'));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const startedAt = '2025-01-01T00:00:00.000Z';
    writeFileSync(lock, JSON.stringify({ pid: Number(dead.stdout), hostname: hostname(), startedAt }));
    const resumed = await runPlan('v2.json', '--resume');
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(
      `plan: note: took over the journal lock '${lock}' left by process ${dead.stdout} (started ${startedAt}), which no longer runs\n`,
    );
    expect(readdirSync(journalDir())).toEqual([journal]);
  });
});

describe('plan run: two runs of one journal at once', () => {
  it('refuses the second while the first runs, exit 2 and one line; the first ends as it would have', async () => {
    const hold = gate();
    (globalThis as { __planmodeHold?: unknown }).__planmodeHold = hold;
    try {
      const first = runPlan('hold.json');
      await hold.reached;
      for (const flags of [['--resume'], []]) {
        const second = await runPlan('hold.json', ...flags);
        expectOneLineUsageError(
          second,
          /is in use by another run in this process \(\d+, started .*\): wait for that run to end\n$/,
        );
      }
      hold.open();
      expect((await first).code).toBe(0);
      expect(calls()).toEqual(['charge 5', 'hold']);
    } finally {
      delete (globalThis as { __planmodeHold?: unknown }).__planmodeHold;
    }
  });

  it('names the other process; once Ctrl-C stopped it, its lock is gone and the resume runs', async () => {
    const other = spawnPlan(['run', at('hold.json'), '--tools', at('tools.mjs'), '--journal', journalDir()], {
      cwd: dir,
      env: { PLANMODE_TEST_HOLD: '1' },
    });
    await other.waitFor('stderr', /HELD/);
    const refused = await runPlan('hold.json', '--resume');
    expectOneLineUsageError(
      refused,
      new RegExp(
        `^plan: error: the journal '.*\\.jsonl' is in use by process ${other.child.pid} \\(started [^)]+\\): wait for it to end, or stop it\\n$`,
      ),
    );

    other.child.kill('SIGINT');
    expect(await other.exited).toBe(130);
    expect(readdirSync(journalDir()).filter((name) => !name.endsWith('.jsonl'))).toEqual([]);
    const resumed = await runPlan('hold.json', '--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    // The charge completed before Ctrl-C: it is reused; hold was cancelled: it runs.
    expect(calls()).toEqual(['charge 5', 'hold', 'hold']);
  });
});
