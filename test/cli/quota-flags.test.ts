/** `--rate name=limit/ms` and `--tool-concurrency name=N` on `plan run` (and `plan worker`). */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { expectOneLineUsageError, planInProcess } from './in-process.js';

const plan = Array.from({ length: 6 }, (_, k) => ({ _tool: 'stamp', k, _outputPath: `†state.s${k}` }));
const { dir, cleanup } = tempDir({
  'plan.json': plan,
  // Each call records its start (performance.now) and how many run at once.
  'tools.mjs':
    'export const seen = { starts: [], inFlight: 0, most: 0 };\n' +
    'globalThis.__quotaSeen = seen;\n' +
    'export const tools = [{ name: "stamp", execute: async (a) => { seen.starts.push(performance.now()); seen.inFlight++; seen.most = Math.max(seen.most, seen.inFlight); await new Promise((r) => setImmediate(r)); seen.inFlight--; return a.k; } }];\n',
});
afterAll(cleanup);
const at = (name: string) => `${dir}/${name}`;
type Seen = { starts: number[]; most: number };
const seen = () => (globalThis as unknown as { __quotaSeen: Seen }).__quotaSeen;

describe('--rate and --tool-concurrency', () => {
  // The tools module is loaded once per process: its record starts over for each test.
  beforeEach(() => {
    const record = (globalThis as unknown as { __quotaSeen?: Seen & { inFlight: number } }).__quotaSeen;
    if (record) Object.assign(record, { starts: [], inFlight: 0, most: 0 });
  });

  it('--rate stamp=2/100 holds the run to 2 starts per 100 ms', async () => {
    const ran = await planInProcess([
      'run',
      at('plan.json'),
      '--tools',
      at('tools.mjs'),
      '--rate',
      'stamp=2/100',
      '--json',
    ]);
    expect(ran.code).toBe(0);
    const starts = [...seen().starts].sort((a, b) => a - b);
    expect(starts).toHaveLength(6);
    // 6 starts at 2 per window: the last at least 2 windows after the first; no 3 within one.
    expect(starts[5]! - starts[0]!).toBeGreaterThanOrEqual(200 - 2);
    for (let k = 2; k < 6; k++) expect(starts[k]! - starts[k - 2]!).toBeGreaterThanOrEqual(100 - 2);
  });

  it('--tool-concurrency stamp=1 runs one at a time', async () => {
    const ran = await planInProcess([
      'run',
      at('plan.json'),
      '--tools',
      at('tools.mjs'),
      '--tool-concurrency',
      'stamp=1',
      '--json',
    ]);
    expect(ran.code).toBe(0);
    expect(seen().most).toBe(1);
  });

  it('a bad pair is a one-line usage error (exit 2) that shows the form', async () => {
    expectOneLineUsageError(
      await planInProcess(['run', at('plan.json'), '--tools', at('tools.mjs'), '--rate', 'stamp=5']),
      /--rate 'stamp=5' is not name=limit\/ms; write, for example, --rate search=5\/1000/,
    );
    expectOneLineUsageError(
      await planInProcess([
        'run',
        at('plan.json'),
        '--tools',
        at('tools.mjs'),
        '--tool-concurrency',
        'stamp=0',
      ]),
      /"concurrency" must be a whole number from 1 to 10000, not 0/,
    );
    expectOneLineUsageError(
      await planInProcess(['worker', '--tools', at('tools.mjs'), '--rate', 'stamp=1/0']),
      /"rateLimit.intervalMs" must be a whole number of milliseconds from 1 to 86400000, not 0/,
    );
  });
});
