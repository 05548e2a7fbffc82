/**
 * Crash and resume inside a call, with a real process (over the built package in dist/): a run
 * is killed with SIGKILL in the middle of a `_forEach` call, and in the middle of a workflow
 * call, then resumed. Every element or sub-call the killed run reported as finished ran exactly
 * once in all (the side-effect log proves it), and the final state equals an uninterrupted run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtModule } from '../built.js';

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'planmode-resume-parts-'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const FOR_EACH_PLAN = [
  { _id: 'l', _tool: 'list', _outputPath: '†state.list' },
  { _id: 'each', _tool: 'step', _forEach: '†state.list', v: '†item', _outputPath: '†state.out' },
];

const WORKFLOW_PLAN = [{ _id: 'w', _tool: 'chain', v: 0, _outputPath: '†state.w' }];

/** A child that runs the plan file; each tool run appends its id to the log; finished parts are printed. */
function childScript(log: string): string {
  return `
import { appendFileSync, readFileSync } from 'node:fs';
import { run } from ${JSON.stringify(builtModule('src/index.js'))};
const [planFile, journal, resume] = process.argv.slice(2);
const step = {
  name: 'step',
  inputSchema: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] },
  outputSchema: { type: 'number' },
  execute: async ({ v }, ctx) => {
    appendFileSync(${JSON.stringify(log)}, ctx.toolCallId + '\\n');
    await new Promise((r) => setTimeout(r, 30));
    return v + 1;
  },
};
const list = { name: 'list', outputSchema: { type: 'array', items: { type: 'number' } }, execute: () => [0, 10, 20, 30, 40, 50, 60, 70] };
const chainPlan = [];
for (let k = 0; k < 8; k++) chainPlan.push({ _id: 's' + k, _tool: 'step', v: k === 0 ? '†input.v' : '†state.s' + (k - 1), _outputPath: '†state.s' + k });
const chain = {
  name: 'chain',
  inputSchema: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] },
  plan: chainPlan,
  output: '†state.s7',
};
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const result = await run(plan, {
  tools: [step, list, chain],
  concurrency: 1,
  ...(journal !== '-' && { journal }),
  resume: resume === 'resume',
  onEvent: (e) => {
    if (e.type === 'call:element' && e.status === 'succeeded') process.stdout.write('done ' + e.call + '[' + e.index + ']\\n');
    if (e.type === 'call:end' && e.parentCall !== undefined && e.status === 'succeeded') process.stdout.write('done ' + e.call + '\\n');
  },
});
process.stdout.write('RESULT ' + JSON.stringify(result.state) + ' ' + result.status + '\\n');
if (resume !== 'resume') setInterval(() => {}, 1000);
`;
}

function start(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The parts reported finished; SIGKILLs the child once `count` have been; resolves when it exited. */
function killAfter(victim: ChildProcess, count: number): Promise<string[]> {
  const done: string[] = [];
  return new Promise((resolvePromise) => {
    let buffer = '';
    victim.stdout!.on('data', (chunk) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const match = /^done (\S+)$/.exec(line);
        if (match) done.push(match[1]!);
        if (done.length >= count && !victim.killed) victim.kill('SIGKILL');
      }
    });
    victim.on('exit', () => resolvePromise(done));
  });
}

function finished(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', () => resolvePromise(out));
  });
}

async function crashAndResume(name: string, plan: unknown, killAt: number) {
  const planFile = join(work, `${name}.json`);
  writeFileSync(planFile, JSON.stringify(plan));
  const cleanLog = join(work, `${name}-clean.log`);
  writeFileSync(join(work, `${name}-clean.mjs`), childScript(cleanLog));
  // 'resume' without a journal: a plain run that exits when done (only a fresh run lingers to be killed).
  const clean = start(join(work, `${name}-clean.mjs`), [planFile, '-', 'resume']);
  const cleanState = /RESULT (.*) succeeded/.exec(await finished(clean))![1]!;

  const log = join(work, `${name}.log`);
  writeFileSync(join(work, `${name}.mjs`), childScript(log));
  const journal = join(work, `${name}-journal`);
  const victim = start(join(work, `${name}.mjs`), [planFile, journal, 'fresh']);
  const doneBeforeKill = await killAfter(victim, killAt);
  expect(victim.signalCode).toBe('SIGKILL');
  const resumedOut = await finished(start(join(work, `${name}.mjs`), [planFile, journal, 'resume']));
  const resumedState = /RESULT (.*) succeeded/.exec(resumedOut)?.[1];
  return { cleanState, resumedState, doneBeforeKill, log: readFileSync(log, 'utf8').trim().split('\n') };
}

describe('resume after a SIGKILL inside a call', () => {
  it('mid for-each: finished elements do not run again', async () => {
    const { cleanState, resumedState, doneBeforeKill, log } = await crashAndResume(
      'for-each',
      FOR_EACH_PLAN,
      3,
    );
    expect(resumedState).toBe(cleanState);
    expect(JSON.parse(resumedState!).out).toEqual([1, 11, 21, 31, 41, 51, 61, 71]);
    expect(doneBeforeKill.length).toBeGreaterThanOrEqual(3);
    for (const part of doneBeforeKill) expect(log.filter((id) => id === part)).toEqual([part]);
    // Every element ran; at most the one running at the kill ran twice.
    expect(new Set(log).size).toBe(8);
    expect(log.length).toBeLessThanOrEqual(9);
  }, 60_000);

  it('mid workflow: finished sub-calls do not run again', async () => {
    const { cleanState, resumedState, doneBeforeKill, log } = await crashAndResume(
      'workflow',
      WORKFLOW_PLAN,
      3,
    );
    expect(resumedState).toBe(cleanState);
    expect(JSON.parse(resumedState!).w).toBe(8);
    expect(doneBeforeKill.length).toBeGreaterThanOrEqual(3);
    for (const part of doneBeforeKill) expect(log.filter((id) => id === part)).toEqual([part]);
    expect(new Set(log).size).toBe(8);
    expect(log.length).toBeLessThanOrEqual(9);
  }, 60_000);
});
