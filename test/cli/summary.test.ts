/**
 * `plan run` off a terminal: the summary (calls by status, each failure with its error, each
 * skipped call with the value it lacked and why), `--events` for every event, and the time at
 * an approval prompt told apart from the run's own. In process through main().
 */
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { formatRunSummary } from '../../src/cli/output/run-summary.js';
import { toRunJson } from '../../src/cli/commands/run.js';
import type { RunResult } from '../../src/run/types.js';
import { tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const TOOLS = `
export const tools = [
  {
    name: 'getWeather',
    branchJson: true,
    execute: async ({ city }) => (city === 'Paris' ? { '†branch': 1, value: 'rain' } : { '†branch': 0, value: 'sun' }),
  },
  { name: 'book', execute: async ({ what }) => what + ' booked' },
  { name: 'pay', execute: async () => { throw Object.assign(new Error('card declined'), { code: 'DECLINED' }); } },
  { name: 'notify', execute: async () => 'sent' },
  { name: 'guarded', needsApproval: true, execute: async () => 'done' },
  { name: 'refund', annotations: { destructiveHint: true }, execute: async () => 'refunded' },
];
`;

const { dir, cleanup } = tempDir({
  'tools.mjs': TOOLS,
  'weather.json': [
    { _id: 'weather', _tool: 'getWeather', city: 'Paris', _outputPath: '†state.sunny || †state.rainy' },
    { _id: 'park', _tool: 'book', what: '†state.sunny', _outputPath: '†state.park' },
    { _id: 'movie', _tool: 'book', what: '†state.rainy', _outputPath: '†state.movie' },
  ],
  'fails.json': [
    { _id: 'pay', _tool: 'pay', amount: 5, _outputPath: '†state.receipt' },
    { _id: 'after', _tool: 'notify', message: '†state.receipt' },
    { _id: 'other', _tool: 'notify', message: 'independent' },
  ],
  'reads-input.json': [{ _id: 'hello', _tool: 'notify', message: '†input.name' }],
  'lazy.json': {
    type: 'plan',
    mode: 'lazy',
    plan: [{ _id: 'greet', _tool: 'notify', message: 'hi', _outputPath: '†state.sent' }],
  },
  'guarded.json': [{ _id: 'danger', _tool: 'guarded', _outputPath: '†state.d' }],
  'effect-after-failure.json': [
    { _id: 'pay', _tool: 'pay', amount: 5 },
    { _id: 'refund', _tool: 'refund' },
  ],
});
afterAll(cleanup);

const run = (args: string[]) =>
  planInProcess(['run', ...args, '--tools', join(dir, 'tools.mjs')], '', { cwd: dir });

describe('plan run off a terminal: the summary', () => {
  it('prints no line per event: the counts, then why each call did not run, then the state', async () => {
    const r = await run(['weather.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/^(run|call|state):[a-z]/m);
    expect(r.stderr).toMatch(/^weather\.json: run succeeded in \d+ms, 3 calls: 2 succeeded, 1 skipped\n/);
    expect(r.stderr).toContain(
      'skipped park: †state.sunny was never written (weather wrote †state.rainy instead)\n',
    );
    expect(r.stderr).toMatch(/\nstate: \{\n {2}"rainy": "rain",\n {2}"movie": "rain booked"\n\}\n$/);
  });

  it('gives each failure its error, and says which failure left a value unwritten', async () => {
    const r = await run(['fails.json']);
    expect(r.code).toBe(3);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^fails\.json: run failed in \d+ms, 3 calls: 1 succeeded, 1 failed, 1 upstream_failed$/,
    );
    expect(lines).toContain('failed pay: card declined (DECLINED)');
    expect(lines).toContain('upstream_failed after: †state.receipt was never written (pay failed)');
  });

  it('says which call an effect follows when that call failed', async () => {
    const r = await run(['effect-after-failure.json']);
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')).toContain(
      'upstream_failed refund: not started: it follows call pay (pay), which failed; refund (refund) is an effect: it waits for every earlier call',
    );
  });

  it('says an input value was not given', async () => {
    const r = await run(['reads-input.json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('skipped hello: †input.name was not given (no --input value holds it)\n');
  });

  it('--events prints every event as a plain line before the summary, and as NDJSON on stdout', async () => {
    const r = await run(['weather.json', '--events']);
    expect(r.code).toBe(0);
    const stderr = r.stderr.split('\n');
    expect(stderr[0]).toBe('run:start eager 3 calls');
    expect(stderr).toContain('call:end park skipped');
    const summary = stderr.findIndex((l) => l.startsWith('weather.json: run succeeded'));
    expect(summary).toBeGreaterThan(stderr.indexOf('run:end succeeded'));
    const types = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).type);
    expect(types[0]).toBe('run:start');
    expect(types.at(-1)).toBe('run:end');
  });

  it('with --json, --events keeps its meaning: NDJSON, then the object, and nothing on stderr', async () => {
    const r = await run(['weather.json', '--events', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.slice(0, -1).every((e) => typeof e.type === 'string')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ status: 'succeeded', approvalWaitMs: 0 });
    expect(lines.at(-1).durationMs).toBeGreaterThanOrEqual(0);
  });
});

describe('time at an approval prompt', () => {
  afterEach(() => vi.useRealTimers());

  /**
   * `plan run` with a terminal on stdin and stderr (TERM=dumb: plain output). The clock is
   * fake and stands still but when the person answers: the answer comes 8 s after the question.
   */
  async function answeredAfter8s(args: string[]) {
    vi.useFakeTimers({ toFake: ['Date'] });
    const out = { stdout: '', stderr: '' };
    const stdin = {
      isTTY: true,
      async *[Symbol.asyncIterator]() {
        vi.setSystemTime(Date.now() + 8_000);
        yield 'y\n';
      },
    };
    const previous = process.cwd();
    process.chdir(dir);
    try {
      const code = await main(['run', ...args, '--tools', 'tools.mjs'], {
        stdout: { write: (text: string) => (out.stdout += text) },
        stderr: { isTTY: true, write: (text: string) => (out.stderr += text) },
        stdin,
        env: { TERM: 'dumb', NO_COLOR: '1' },
      });
      return { code, ...out };
    } finally {
      process.chdir(previous);
    }
  }

  it('is reported apart from the run time, for a lazy plan and in --json', async () => {
    const human = await answeredAfter8s(['lazy.json']);
    expect(human.code).toBe(0);
    expect(human.stderr).toMatch(
      /lazy\.json: run succeeded in 0ms \(plus 8\.00s waiting for approval\), 1 call/,
    );
    const json = await answeredAfter8s(['lazy.json', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'succeeded',
      durationMs: 0,
      approvalWaitMs: 8000,
    });
  });

  it('is reported for a call whose tool needs approval', async () => {
    const r = await answeredAfter8s(['guarded.json', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ durationMs: 0, approvalWaitMs: 8000 });
  });

  it('formatRunSummary and toRunJson subtract it from the whole', () => {
    const result: RunResult = {
      status: 'succeeded',
      state: {},
      calls: [],
      diagnostics: [],
      startedAt: new Date(0).toISOString(),
      endedAt: new Date(9_200).toISOString(),
      approvalWaitMs: 8_000,
    };
    expect(formatRunSummary(result, { file: 'p.json', color: false })).toBe(
      'p.json: run succeeded in 1.20s (plus 8.00s waiting for approval), 0 calls\nstate: {}\n',
    );
    expect(toRunJson(result)).toMatchObject({ durationMs: 1200, approvalWaitMs: 8000 });
    const unasked = { ...result, approvalWaitMs: 0 };
    expect(formatRunSummary(unasked, { file: 'p.json', color: false })).toMatch(
      /^p\.json: run succeeded in 9\.20s, /,
    );
  });
});

describe('plan agent off a terminal', () => {
  it("ends each solution's run in the summary, with no line per event unless --events", async () => {
    const solution = {
      calls: [
        { _id: 'weather', _tool: 'getWeather', city: 'Paris', _outputPath: '†state.sunny || †state.rainy' },
        { _id: 'park', _tool: 'book', what: '†state.sunny', _outputPath: '†state.park' },
      ],
      output: '†state.rainy',
    };
    const turns = tempDir({ 'turns.json': [{ text: JSON.stringify(solution) }] });
    try {
      const agent = (extra: string[]) =>
        planInProcess(
          [
            'agent',
            'plan my day',
            '--tools',
            join(dir, 'tools.mjs'),
            '--model',
            'scripted:turns.json',
            ...extra,
          ],
          '',
          { cwd: turns.dir },
        );
      const quiet = await agent([]);
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).not.toMatch(/^(run|call|state):[a-z]/m);
      expect(quiet.stderr).toMatch(/^solution 1: run succeeded in \d+ms, 2 calls: 1 succeeded, 1 skipped$/m);
      expect(quiet.stderr).toContain(
        'skipped park: †state.sunny was never written (weather wrote †state.rainy instead)',
      );
      const events = await agent(['--events']);
      expect(events.code).toBe(0);
      expect(events.stderr).toMatch(/^call:end park skipped$/m);
    } finally {
      turns.cleanup();
    }
  });
});
