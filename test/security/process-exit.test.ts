/**
 * A tool that ends the `plan run` process itself (`process.exit(0)`, or any code) cannot make a
 * run that never finished look like a success: the real process (bin/plan.js over dist/) exits
 * 3 with one line naming the calls that were running.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runPlan, tempDir } from '../cli/helpers.js';

const { dir, cleanup } = tempDir({
  'tools.mjs': `
    const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    export const tools = [
      { name: 'ok', execute: () => 1 },
      // Ends the process while 'slow' is still running (its timer is far longer than this one).
      { name: 'quit', async execute(args) { await later(20); process.exit(args.code); } },
      { name: 'slow', async execute() { await later(60_000); return 2; } },
    ];
  `,
  'exit.json': [
    { _id: 'first', _tool: 'ok', _outputPath: '†state.a' },
    { _id: 'bye', _tool: 'quit', code: 0, after: '†state.a', _outputPath: '†state.q' },
    { _id: 'long', _tool: 'slow', _outputPath: '†state.s' },
  ],
  'exit-7.json': [{ _id: 'bye', _tool: 'quit', code: 7, _outputPath: '†state.q' }],
});
afterAll(cleanup);

const LINE =
  /^plan: error: the process was ended \(exit code 0\) before the run of exit\.json finished, while 2 calls were running: (call long \(index 2, tool slow\), call bye \(index 1, tool quit\)|call bye \(index 1, tool quit\), call long \(index 2, tool slow\)); did a tool call process\.exit\(\)\? The run's result is lost: exit code 3$/m;

describe('a tool that calls process.exit() during plan run', () => {
  it('process.exit(0) with --json: exit 3, no stdout, one line naming the running calls', () => {
    const r = runPlan(['run', 'exit.json', '--tools', 'tools.mjs', '--json'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(LINE);
  });

  it('process.exit(0) with the plain summary: exit 3 and the same line', () => {
    const r = runPlan(['run', 'exit.json', '--tools', 'tools.mjs'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(LINE);
  });

  it('process.exit(7): exit 3 (not a code of the plan command that means something else)', () => {
    const r = runPlan(['run', 'exit-7.json', '--tools', 'tools.mjs', '--json'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^plan: error: the process was ended \(exit code 7\) before the run of exit-7\.json finished, while this call was running: call bye \(index 0, tool quit\);/m,
    );
  });
});
