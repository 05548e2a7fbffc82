/**
 * The `plan` process itself (bin/plan.js over dist/, in child processes): it never ends
 * silently and keeps its exit codes, whatever a tools module or a tool's stray timer does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectUsageError, runPlan, tempDir } from './helpers.js';
import { spawnPlan } from './spawned.js';

const { dir, cleanup } = tempDir({
  'one.json': [{ _id: 'stray', _tool: 'stray', _outputPath: '†state.s' }],
  'during.json': [
    { _id: 'stray', _tool: 'stray', _outputPath: '†state.s' },
    { _id: 'slow', _tool: 'slow', _outputPath: '†state.t' },
  ],
  'fails.json': [
    { _id: 'stray', _tool: 'stray', _outputPath: '†state.s' },
    { _id: 'slow', _tool: 'slow', _outputPath: '†state.t' },
    { _id: 'boom', _tool: 'boom', _outputPath: '†state.b' },
  ],
  'dropped.json': [
    { _id: 'drop', _tool: 'drop', _outputPath: '†state.d' },
    { _id: 'slow', _tool: 'slow', _outputPath: '†state.t' },
  ],
  'forever.json': [
    { _id: 'quick', _tool: 'slow', _outputPath: '†state.q' },
    { _id: 'forever', _tool: 'forever', _outputPath: '†state.f' },
  ],
  'tools.mjs': `
    const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    export const tools = [
      // Its timer throws outside any call, after the call has returned.
      { name: 'stray', execute() { setTimeout(() => { throw new Error('late\\nsecond line'); }, 0); return 1; } },
      // A rejected promise nobody handles.
      { name: 'drop', execute() { Promise.reject(new Error('dropped')); return 2; } },
      // Long enough for the stray timer to fire while the run is still going.
      { name: 'slow', async execute() { await later(200); return 3; } },
      { name: 'boom', execute() { throw new Error('boom'); } },
      // A promise that never settles and holds nothing that keeps Node alive.
      { name: 'forever', execute() { return new Promise(() => {}); } },
    ];
  `,
  'hangs.mjs': 'await new Promise(() => {});\nexport const tools = [];\n',
  'busy.json': [
    { _id: 'busy', _tool: 'busy', _outputPath: '†state.b' },
    { _id: 'after', _tool: 'busy', v: '†state.b' },
  ],
  // Holds the event loop for 2 s: no signal can be handled while it runs.
  'busy.mjs':
    'export const tools = [{ name: "busy", execute() { const end = Date.now() + 2000; while (Date.now() < end); return 1; } }];\n',
});
afterAll(cleanup);

const plan = (args: string[], env: Record<string, string | undefined> = {}) =>
  runPlan(args, { cwd: dir, env });
const WARNING =
  /^plan: warning: an error was thrown outside any call \(by a tool's timer or callback\?\): Error: late$/m;

describe('a tools module that never finishes loading', () => {
  it('exits 2 with one line after --load-timeout, not 13 in silence', () => {
    expectUsageError(
      plan(['run', 'one.json', '--tools', 'hangs.mjs', '--load-timeout', '200']),
      /^plan: error: tools module 'hangs\.mjs' did not finish loading within 200 ms \(a top-level await that never settles\?\); fix the module or raise --load-timeout/,
    );
    expectUsageError(
      plan(['validate', 'one.json', '--tools', 'hangs.mjs', '--load-timeout', '200']),
      /did not finish loading within 200 ms/,
    );
  });
});

describe("a tool's stray timer or dropped promise", () => {
  it('does not stop the run, and the exit code stays 0', () => {
    const r = plan(['run', 'during.json', '--tools', 'tools.mjs', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'succeeded', state: { s: 1, t: 3 } });
    expect(r.stderr).toMatch(WARNING);
    // One line, and no stack without PLAN_DEBUG.
    expect(r.stderr).not.toMatch(/second line|\n\s+at /);
  });

  it('after the run has ended (while its report is written), the exit code is still 0', () => {
    // The run ends as the only call returns; writing the report takes several turns of the
    // event loop, in which the call's 0 ms timer throws. Node alone would exit 1 here.
    const r = plan(['run', 'one.json', '--tools', 'tools.mjs', '--report', 'report.html']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/one\.json: run succeeded in /);
    expect(r.stderr).toMatch(WARNING);
  });

  it('a failed run stays exit 3', () => {
    const r = plan(['run', 'fails.json', '--tools', 'tools.mjs']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(WARNING);
    expect(r.stderr).toMatch(/fails\.json: run failed in .*: 2 succeeded, 1 failed/);
  });

  it('an unhandled rejection is reported the same way', () => {
    const r = plan(['run', 'dropped.json', '--tools', 'tools.mjs', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('succeeded');
    expect(r.stderr).toMatch(/^plan: warning: an error was thrown outside any call .*: Error: dropped$/m);
  });

  it('PLAN_DEBUG=1 adds the stack', () => {
    const r = plan(['run', 'during.json', '--tools', 'tools.mjs'], { PLAN_DEBUG: '1' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(WARNING);
    expect(r.stderr).toMatch(/Error: late\nsecond line\n\s+at /);
  });
});

describe('a tool whose promise never settles', () => {
  it('keeps the process alive until Ctrl-C, which exits 130, names the call and ends the journal', async () => {
    const cli = spawnPlan(
      ['run', 'forever.json', '--tools', 'tools.mjs', '--journal', 'journal', '--events'],
      {
        cwd: dir,
      },
    );
    // Both calls started and the quick one ended: only the never-settling one holds the run.
    // The race: a process whose event loop ran dry exits (13) before anyone interrupts it.
    await Promise.all([
      cli.waitFor('stderr', /^call:start forever forever$/m),
      cli.waitFor('stderr', /^call:end quick succeeded/m),
    ]);
    cli.child.kill('SIGINT');
    expect(await cli.exited, `stderr: ${cli.stderr}`).toBe(130);
    const stderr = cli.stderr;
    expect(stderr).toMatch(/^forever\.json: run interrupted after .*: 1 succeeded, 1 cancelled$/m);
    expect(stderr).toMatch(/^cancelled while running: forever \(forever\)$/m);
    const files = readdirSync(join(dir, 'journal')).filter((name) => name.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    const lines = readFileSync(join(dir, 'journal', files[0]!), 'utf8')
      .trimEnd()
      .split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: 'run:end', status: 'cancelled' });
  });
});

describe('Ctrl-C while a synchronous tool holds the event loop', () => {
  it('is seen when the tool returns: nothing more starts, exit 130', async () => {
    const cli = spawnPlan(['run', 'busy.json', '--tools', 'busy.mjs', '--events'], { cwd: dir });
    await cli.waitFor('stderr', /^call:start busy busy$/m);
    // The tool is spinning now: the signal waits in the kernel until it returns.
    cli.child.kill('SIGINT');
    expect(await cli.exited, `stderr: ${cli.stderr}`).toBe(130);
    const stderr = cli.stderr;
    expect(stderr).not.toMatch(/^call:start after/m);
    expect(stderr).toMatch(/^busy\.json: run interrupted after .*: 1 succeeded, 1 cancelled$/m);
  });
});
