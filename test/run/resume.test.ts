/**
 * Crash and resume with a real process (over the built package in dist/): a run with a journal
 * is killed with SIGKILL in the middle, then resumed. No call that completed before the kill
 * runs again, and the final state equals that of a run that was never interrupted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtModule } from '../built.js';

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'planmode-resume-'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Three chains of eight steps each: every step logs its id (its side effect) and adds one. */
function plan() {
  const calls = [];
  for (const chain of ['a', 'b', 'c']) {
    for (let k = 0; k < 8; k++) {
      calls.push({
        _id: `${chain}${k}`,
        _tool: 'step',
        v: k === 0 ? 0 : `†state.${chain}${k - 1}`,
        _outputPath: `†state.${chain}${k}`,
      });
    }
  }
  return calls;
}

interface ChildOptions {
  /** How long each call takes: an expression in the child's code. */
  readonly delay: string;
  readonly concurrency: number;
  /** Stay up after the first run, to be killed (a resume run still exits). */
  readonly linger: boolean;
}

/** A child process that runs the plan file with the `step` tool, logging each call it starts. */
function childScript(
  log: string,
  { delay, concurrency, linger }: ChildOptions = { delay: '40', concurrency: 3, linger: false },
) {
  return `
import { appendFileSync, readFileSync } from 'node:fs';
import { run } from ${JSON.stringify(builtModule('src/index.js'))};
const [planFile, journal, resume] = process.argv.slice(2);
const tools = [{
  name: 'step',
  execute: async ({ v }, ctx) => {
    appendFileSync(${JSON.stringify(log)}, ctx.toolCallId + '\\n');
    await new Promise((r) => setTimeout(r, ${delay}));
    return v + 1;
  },
}];
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const result = await run(plan, {
  tools,
  concurrency: ${concurrency},
  ...(journal !== '-' && { journal }),
  resume: resume === 'resume',
  onEvent: (e) => { if (e.type === 'call:end') process.stdout.write('end ' + e.call + ' ' + e.status + (e.resumed ? ' resumed' : '') + '\\n'); },
});
process.stdout.write('RESULT ' + JSON.stringify(result.state) + ' ' + result.status + '\\n');
${linger ? "if (resume !== 'resume') setInterval(() => {}, 1000);" : ''}
`;
}

/**
 * Reads the child's `end <call> succeeded` lines and SIGKILLs it once `when` says so (given the
 * calls seen to end so far and the last line); resolves with those calls when it has exited.
 */
function killWhen(victim: ChildProcess, when: (ended: string[], line: string) => boolean): Promise<string[]> {
  const ended: string[] = [];
  return new Promise((resolvePromise) => {
    let buffer = '';
    victim.stdout!.on('data', (chunk) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const match = /^end (\S+) succeeded/.exec(line);
        if (match) ended.push(match[1]!);
        if (when(ended, line) && !victim.killed) victim.kill('SIGKILL');
      }
    });
    victim.on('exit', () => resolvePromise(ended));
  });
}

function start(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function finished(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', () => resolvePromise(out));
  });
}

describe('journal and resume across a SIGKILL', () => {
  it('no completed call runs twice, and the final state equals an uninterrupted run', async () => {
    const planFile = join(work, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan()));
    const journalDir = join(work, 'journal');

    // An uninterrupted run, for comparison.
    const cleanLog = join(work, 'clean.log');
    writeFileSync(join(work, 'clean.mjs'), childScript(cleanLog));
    const cleanOut = await finished(start(join(work, 'clean.mjs'), [planFile, '-', 'fresh']));
    const cleanState = /RESULT (.*) succeeded/.exec(cleanOut)![1]!;

    // The same plan with a journal, killed once seven calls have ended.
    const log = join(work, 'side-effects.log');
    writeFileSync(join(work, 'crash.mjs'), childScript(log));
    const victim = start(join(work, 'crash.mjs'), [planFile, journalDir, 'fresh']);
    const endedBeforeKill = await killWhen(victim, (ended) => ended.length === 7);
    expect(victim.signalCode).toBe('SIGKILL');
    expect(endedBeforeKill.length).toBeGreaterThanOrEqual(7);
    const beforeResume = readFileSync(log, 'utf8').trim().split('\n');
    expect(beforeResume.length).toBeLessThan(24);

    // Resume: the journal's completed calls are reused, the rest run.
    const resumedOut = await finished(start(join(work, 'crash.mjs'), [planFile, journalDir, 'resume']));
    const resumedState = /RESULT (.*) succeeded/.exec(resumedOut)?.[1];
    expect(resumedState).toBe(cleanState);
    expect(JSON.parse(resumedState!)).toEqual({
      a0: 1,
      a1: 2,
      a2: 3,
      a3: 4,
      a4: 5,
      a5: 6,
      a6: 7,
      a7: 8,
      b0: 1,
      b1: 2,
      b2: 3,
      b3: 4,
      b4: 5,
      b5: 6,
      b6: 7,
      b7: 8,
      c0: 1,
      c1: 2,
      c2: 3,
      c3: 4,
      c4: 5,
      c5: 6,
      c6: 7,
      c7: 8,
    });

    const effects = readFileSync(log, 'utf8').trim().split('\n');
    const count = (id: string) => effects.filter((e) => e === id).length;
    for (const id of endedBeforeKill) expect(count(id), `${id} completed before the kill`).toBe(1);
    // Every call ran at least once overall; only calls in flight at the kill may have run twice.
    for (const call of plan()) expect(count(call._id)).toBeGreaterThanOrEqual(1);
    // Every call seen ending before the kill is reused, not run again. A call may also have
    // been journaled in the instant between its journal sync and the line on stdout that the
    // kill cut off: it is reused too, and ran once all the same.
    const resumed = resumedOut
      .split('\n')
      .filter((l) => l.endsWith(' resumed'))
      .map((l) => l.split(' ')[1]!);
    expect(resumed).toEqual(expect.arrayContaining(endedBeforeKill));
    for (const id of resumed) expect(count(id), `${id} was reused from the journal`).toBe(1);
  }, 60_000);
});

/**
 * Four chains of six steps and twenty-four independent calls: completions come one at a time
 * and many at once. Each call logs its id (its side effect), then returns its value plus one.
 */
function mixedPlan() {
  const calls: Record<string, unknown>[] = [];
  for (const chain of ['p', 'q', 'r', 's']) {
    for (let k = 0; k < 6; k++) {
      calls.push({
        _id: `${chain}${k}`,
        _tool: 'step',
        v: k === 0 ? 0 : `†state.${chain}${k - 1}`,
        _outputPath: `†state.${chain}${k}`,
      });
    }
  }
  for (let k = 0; k < 24; k++) calls.push({ _id: `w${k}`, _tool: 'step', v: k, _outputPath: `†state.w${k}` });
  return calls;
}

describe('journal and resume across a SIGKILL at a random point', () => {
  it('no call seen to complete runs again, whichever completion the kill follows', async () => {
    const calls = mixedPlan();
    const planFile = join(work, 'mixed-plan.json');
    writeFileSync(planFile, JSON.stringify(calls));
    // p3 is 4 (four steps of one from 0), w3 is 4 (3 plus one).
    const expected: Record<string, number> = {};
    for (const call of calls) expected[call._id as string] = Number((call._id as string).slice(1)) + 1;
    for (let round = 0; round < 3; round++) {
      // Kill once this many calls were seen to end: anywhere from the first to past the last.
      const killAfter = 1 + Math.floor(Math.random() * (calls.length + 1));
      const where = `round ${round}, killed after ${killAfter} ends`;
      const log = join(work, `mixed-${round}.log`);
      const journalDir = join(work, `mixed-journal-${round}`);
      const script = join(work, `mixed-${round}.mjs`);
      writeFileSync(
        script,
        // Calls of 1 to 12 ms; the process stays up after the run, to be killed.
        childScript(log, { delay: '1 + Math.floor(Math.random() * 12)', concurrency: 6, linger: true }),
      );

      const victim = start(script, [planFile, journalDir, 'fresh']);
      const endedBeforeKill = await killWhen(
        victim,
        (ended, line) => ended.length >= killAfter || line.startsWith('RESULT '),
      );
      expect(victim.signalCode, where).toBe('SIGKILL');

      const resumedOut = await finished(start(script, [planFile, journalDir, 'resume']));
      const result = /RESULT (.*) (\w+)\n/.exec(resumedOut);
      expect(result?.[2], `${where}: ${resumedOut}`).toBe('succeeded');
      expect(JSON.parse(result![1]!), where).toEqual(expected);

      const effects = readFileSync(log, 'utf8').trim().split('\n');
      const count = (id: string) => effects.filter((e) => e === id).length;
      for (const id of endedBeforeKill)
        expect(count(id), `${where}: ${id} completed before the kill`).toBe(1);
      const resumed = resumedOut
        .split('\n')
        .filter((l) => l.endsWith(' resumed'))
        .map((l) => l.split(' ')[1]!);
      expect(resumed, where).toEqual(expect.arrayContaining(endedBeforeKill));
      for (const id of resumed) expect(count(id), `${where}: ${id} was reused from the journal`).toBe(1);
      for (const call of calls) expect(count(call._id as string), where).toBeGreaterThanOrEqual(1);
    }
  }, 90_000);
});

describe('journal and resume across a SIGKILL, then an edit of the plan', () => {
  it('no call completed before the kill runs again: changed and added calls run', async () => {
    const planFile = join(work, 'edited-v1.json');
    const calls = plan().filter((call) => call._id.startsWith('a'));
    writeFileSync(planFile, JSON.stringify(calls));
    const journalDir = join(work, 'edited-journal');
    const log = join(work, 'edited.log');
    const script = join(work, 'edited.mjs');
    writeFileSync(script, childScript(log, { delay: '40', concurrency: 1, linger: true }));

    const victim = start(script, [planFile, journalDir, 'fresh']);
    const endedBeforeKill = await killWhen(victim, (ended) => ended.length === 3);
    expect(victim.signalCode).toBe('SIGKILL');

    // The edit: the last step starts over from 100, and a call is added.
    const edited = join(work, 'edited-v2.json');
    const v2 = [...calls.slice(0, -1), { ...calls.at(-1)!, v: 100 }, { _id: 'extra', _tool: 'step', v: 0 }];
    writeFileSync(edited, JSON.stringify(v2));
    const resumedOut = await finished(start(script, [edited, journalDir, 'resume']));
    const result = /RESULT (.*) (\w+)\n/.exec(resumedOut);
    expect(result?.[2], resumedOut).toBe('succeeded');
    expect(JSON.parse(result![1]!)).toMatchObject({ a0: 1, a6: 7, a7: 101 });

    const effects = readFileSync(log, 'utf8').trim().split('\n');
    const count = (id: string) => effects.filter((e) => e === id).length;
    const resumed = resumedOut
      .split('\n')
      .filter((l) => l.endsWith(' resumed'))
      .map((l) => l.split(' ')[1]!);
    expect(resumed).toEqual(expect.arrayContaining(endedBeforeKill));
    for (const id of resumed) expect(count(id), `${id} was reused from the first version's journal`).toBe(1);
    expect(count('a7')).toBe(1);
    expect(count('extra')).toBe(1);
  }, 60_000);
});
