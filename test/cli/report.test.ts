/**
 * `plan run --report <file>` (in process through main()): the HTML report after the run,
 * whatever its status; bad paths are exit 2.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectUsageError, ROOT, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const EXAMPLE = join(ROOT, 'fixtures/examples/weather-branch');
const args = (city: string, report: string) => [
  'run',
  join(EXAMPLE, 'plan.json'),
  '--tools',
  join(EXAMPLE, 'tools.mjs'),
  '--input',
  city,
  '--json',
  '--report',
  report,
];

const temp = tempDir({
  'paris.json': { city: 'Paris' },
  'atlantis.json': { city: 'Atlantis' },
  'declined.json': { amount: 500 },
  'boom.json': [
    { _id: 'boom', _tool: 'boom', _outputPath: '†state.x' },
    { _id: 'after', _tool: 'boom', v: '†state.x' },
  ],
  'boom.mjs': "export const tools = [{ name: 'boom', execute() { throw new Error('no'); } }];\n",
});
afterAll(() => temp.cleanup());

/** The JSON the page's script reads. */
function reportData(file: string): { kind: string; calls: { id: string; view: string }[] } {
  const html = readFileSync(file, 'utf8');
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  expect(m, 'report-data element').not.toBeNull();
  return JSON.parse(m![1]!) as { kind: string; calls: { id: string; view: string }[] };
}

describe('plan run --report', () => {
  it('writes the report of a run that succeeded, exit 0', async () => {
    const file = join(temp.dir, 'ok.html');
    const r = await planInProcess(args(join(temp.dir, 'paris.json'), file), '', { cwd: temp.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('succeeded');
    const data = reportData(file);
    expect(data.kind).toBe('run');
    expect(data.calls.map((c) => [c.id, c.view])).toEqual([
      ['weather', 'succeeded'],
      ['park', 'succeeded'],
      ['movie', 'skipped'],
      ['present', 'succeeded'],
    ]);
  });

  it('shows a failure routed to a declared error alternative as handled', async () => {
    const file = join(temp.dir, 'handled.html');
    // The card is declined; processPayment declares errorBranch, so the throw goes to
    // †state.error: handled, and confirmOrder (which reads the receipt) is skipped.
    const payment = join(ROOT, 'fixtures/examples/payment-failure');
    const r = await planInProcess(
      [
        'run',
        join(payment, 'plan.json'),
        '--tools',
        join(payment, 'tools.mjs'),
        '--input',
        join(temp.dir, 'declined.json'),
        '--json',
        '--report',
        file,
      ],
      '',
      { cwd: temp.dir },
    );
    expect(r.code).toBe(0);
    expect(reportData(file).calls.map((c) => c.view)).toEqual(['handled', 'skipped']);
  });

  it('shows an unknown city as the failure it is: no error alternative is declared', async () => {
    const file = join(temp.dir, 'atlantis.html');
    const r = await planInProcess(args(join(temp.dir, 'atlantis.json'), file), '', { cwd: temp.dir });
    expect(r.code).toBe(3);
    expect(reportData(file).calls.map((c) => c.view)).toEqual([
      'failed',
      'upstream_failed',
      'upstream_failed',
      'upstream_failed',
    ]);
  });

  it('writes it for a run that failed too, and keeps exit 3', async () => {
    const file = join(temp.dir, 'failed.html');
    const r = await planInProcess(
      ['run', join(temp.dir, 'boom.json'), '--tools', join(temp.dir, 'boom.mjs'), '--report', file],
      '',
      { cwd: temp.dir },
    );
    expect(r.code).toBe(3);
    expect(reportData(file).calls.map((c) => [c.id, c.view])).toEqual([
      ['boom', 'failed'],
      ['after', 'upstream_failed'],
    ]);
  });

  it('refuses a path it cannot write before running anything: exit 2, one line', async () => {
    const missingDir = join(temp.dir, 'no-such-dir', 'r.html');
    expectUsageError(
      await planInProcess(args(join(temp.dir, 'paris.json'), missingDir), '', { cwd: temp.dir }),
      /^plan: error: --report '.*no-such-dir\/r\.html' cannot be written: the directory .*no-such-dir does not exist$/m,
    );
    const dir = join(temp.dir, 'a-dir');
    mkdirSync(dir);
    expectUsageError(
      await planInProcess(args(join(temp.dir, 'paris.json'), dir), '', { cwd: temp.dir }),
      /^plan: error: --report '.*a-dir' cannot be written: it is a directory$/m,
    );
    expect(existsSync(missingDir)).toBe(false);
  });
});

describe('plan simulate --report', () => {
  const simulate = (report: string, extra: string[] = []) =>
    planInProcess(
      [
        'simulate',
        join(EXAMPLE, 'plan.json'),
        '--tools',
        join(EXAMPLE, 'tools.json'),
        '--input',
        join(temp.dir, 'paris.json'),
        '--report',
        report,
        ...extra,
      ],
      '',
      { cwd: temp.dir },
    );

  it('writes the dry-run report: every call, kind simulation, and the output of --json unchanged', async () => {
    const file = join(temp.dir, 'dry.html');
    const r = await simulate(file, ['--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).scenarios.length).toBeGreaterThan(1);
    const data = reportData(file);
    expect(data.kind).toBe('simulation');
    expect(data.calls.map((c) => c.id)).toEqual(['weather', 'park', 'movie', 'present']);
  });

  it('refuses a path it cannot write: exit 2, one line, nothing written', async () => {
    const missingDir = join(temp.dir, 'nowhere', 'dry.html');
    expectUsageError(
      await simulate(missingDir),
      /^plan: error: --report '.*nowhere\/dry\.html' cannot be written: the directory .*nowhere does not exist$/m,
    );
    expect(existsSync(missingDir)).toBe(false);
  });
});
