/**
 * `plan run` on a terminal: while a call's approval question waits for its answer, no other
 * call starts (the run's dispatch is paused), and a line says so; once answered, the calls that
 * got ready meanwhile start. In process, with a terminal's stdin the test answers when it chooses.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { deferred } from '../deferred.js';
import { tempDir } from './helpers.js';

/**
 * The tools log to a list the test reads (the module is loaded into this process). All are
 * read-only, so each call waits for nothing but its inputs (no program order between them).
 */
const TOOLS_MODULE = `
const log = (globalThis.__pauseLog ??= []);
export const tools = [
  { name: 'first', annotations: { readOnlyHint: true }, execute: async () => { log.push('a'); return 1; } },
  { name: 'next', annotations: { readOnlyHint: true }, execute: (args) => { log.push('b'); return args.v; } },
  { name: 'guarded', annotations: { readOnlyHint: true }, needsApproval: true, execute: () => { log.push('g'); return 'done'; } },
];
`;

const { dir, cleanup } = tempDir({
  'tools.mjs': TOOLS_MODULE,
  'plan.json': [
    { _id: 'g', _tool: 'guarded', _outputPath: '†state.g' },
    { _id: 'a', _tool: 'first', _outputPath: '†state.a' },
    { _id: 'b', _tool: 'next', v: '†state.a', _outputPath: '†state.b' },
  ],
});
afterAll(cleanup);

const log = (): string[] => ((globalThis as { __pauseLog?: string[] }).__pauseLog ??= []);

describe('plan run: an approval question pauses dispatch', () => {
  it('starts no call while the question is open, says so, and goes on once answered', async () => {
    log().length = 0;
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const asked = deferred();
    let stderr = '';
    const io = {
      stdout: { write: () => {} },
      stderr: {
        isTTY: true,
        columns: 100,
        rows: 30,
        write: (text: string) => {
          stderr += text;
          if (text.includes('[y/N]')) asked.resolve();
        },
      },
      stdin,
      env: { NO_COLOR: '1', TERM: 'dumb' },
    };
    const running = main(['run', join(dir, 'plan.json'), '--tools', join(dir, 'tools.mjs')], io);
    await asked.promise;
    // Time for anything not held back to run: `a` ends at once, and `b` is ready right after.
    for (let k = 0; k < 5; k++) await new Promise((resolve) => setImmediate(resolve));
    expect(log()).not.toContain('b');
    expect(stderr).toContain('plan: paused: no other call starts until you answer\nRun g (guarded)');
    log().push('answered');
    stdin.end('y\n');
    expect(await running).toBe(0);
    expect(log().indexOf('b')).toBeGreaterThan(log().indexOf('answered'));
    expect(log()).toContain('g');
  });
});
