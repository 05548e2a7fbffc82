/**
 * `plan run` on a terminal: the pause while an approval question is open holds the calls inside
 * a workflow call that is running too. The tools are loaded into this process: `first` waits for
 * a promise the test resolves, and every tool logs to a list the test reads; `--events` says
 * when the workflow's next call got ready (a call that is not held starts right after that line).
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { deferred } from '../deferred.js';
import { tempDir } from './helpers.js';

const TOOLS_MODULE = `
const shared = (globalThis.__workflowPause ??= { log: [], gate: null });
export const tools = [
  { name: 'first', execute: async () => { shared.log.push('x'); await shared.gate; return 1; } },
  { name: 'next', execute: (args) => { shared.log.push('y'); return args.v; } },
  { name: 'guarded', needsApproval: true, execute: () => { shared.log.push('g'); return 'done'; } },
  {
    name: 'work',
    plan: [
      { _id: 'x', _tool: 'first', _outputPath: '†state.x' },
      { _id: 'y', _tool: 'next', v: '†state.x', _outputPath: '†state.y' },
    ],
    output: '†state.y',
  },
];
`;

const { dir, cleanup } = tempDir({
  'tools.mjs': TOOLS_MODULE,
  'plan.json': [
    { _id: 'w', _tool: 'work', _outputPath: '†state.w' },
    { _id: 'g', _tool: 'guarded', _outputPath: '†state.g', _independent: true },
  ],
});
afterAll(cleanup);

interface Shared {
  log: string[];
  gate: Promise<void> | null;
}

describe('plan run: the pause at an approval question reaches into workflows', () => {
  it('a call inside a running workflow call that gets ready while the question is open waits for the answer', async () => {
    const gate = deferred();
    const shared: Shared = ((globalThis as { __workflowPause?: Shared }).__workflowPause = {
      log: [],
      gate: gate.promise,
    });
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const asked = deferred();
    const yReady = deferred();
    let stdout = '';
    const io = {
      stdout: {
        write: (text: string) => {
          stdout += text;
          if (text.includes('"type":"call:ready"') && text.includes('"call":"y"')) yReady.resolve();
        },
      },
      stderr: {
        isTTY: true,
        columns: 100,
        rows: 30,
        write: (text: string) => {
          if (text.includes('[y/N]')) asked.resolve();
        },
      },
      stdin,
      env: { NO_COLOR: '1', TERM: 'dumb' },
    };
    const running = main(['run', join(dir, 'plan.json'), '--tools', join(dir, 'tools.mjs'), '--events'], io);
    await asked.promise;
    expect(shared.log).toEqual(['x']);
    // x ends while the question is open: y, inside the same workflow call, gets ready.
    gate.resolve();
    await yReady.promise;
    expect(shared.log).toEqual(['x']);
    shared.log.push('answered');
    stdin.end('y\n');
    expect(await running).toBe(0);
    expect(shared.log).toEqual(['x', 'answered', 'y', 'g']);
    expect(stdout).toContain('"parent":[{"call":"w","tool":"work"}]');
  });
});
