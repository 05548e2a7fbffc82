/** The terminal rendering of `plan run`, in-process: given events, the lines drawn. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeArguments, lineReader, Prompter } from '../../src/cli/approvals/approval-prompt.js';
import { formatEventLine } from '../../src/cli/output/event-lines.js';
import {
  CallBoard,
  formatEndedRow,
  formatRegion,
  LiveView,
  SPINNER,
  truncate,
} from '../../src/cli/output/live-view.js';
import { formatRunSummary } from '../../src/cli/output/run-summary.js';
import { compile } from '../../src/compile/compile.js';
import type { RunEvent, RunResult } from '../../src/run/types.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

const CALLS = [
  { id: 'weather', tool: 'getWeather' },
  { id: 'park', tool: 'findPark' },
  { id: 'pay', tool: 'charge' },
  { id: 'notify', tool: 'notify' },
];

type Event = RunEvent;
const start = (call: string, tool: string, ms: number, attempt = 1): Event => ({
  type: 'call:start',
  at: at(ms),
  call,
  tool,
  attempt,
  args: {},
});
const end = (
  call: string,
  tool: string,
  ms: number,
  fields: Partial<Extract<Event, { type: 'call:end' }>>,
): Event => ({
  type: 'call:end',
  at: at(ms),
  call,
  tool,
  status: 'succeeded',
  branch: null,
  handled: false,
  attempts: 1,
  durationMs: null,
  error: null,
  ...fields,
});

const FORMAT = { color: false, idWidth: 7, toolWidth: 10 };

describe('CallBoard and its lines', () => {
  it('shows running calls with a spinner and their time, awaiting approval, and a footer', () => {
    const board = new CallBoard(CALLS);
    board.apply({ type: 'run:start', at: at(0), runId: '1', mode: 'eager', calls: 4 });
    board.apply(start('weather', 'getWeather', 10));
    board.apply({ type: 'approval:requested', at: at(20), kind: 'call', call: 'pay' });
    board.apply({ type: 'approval:requested', at: at(20), kind: 'plan' });
    const lines = formatRegion(board, { ...FORMAT, now: T0 + 1_510, frame: 3, maxLines: 10 });
    expect(lines).toEqual([
      `${SPINNER[3]} weather  getWeather  1.50s`,
      '? pay      charge      awaiting approval',
      '0/4 done · 1 running · 1 awaiting approval · 1.51s',
    ]);
  });

  it('hands over each ended call once, in the order they ended, with its state marked', () => {
    const board = new CallBoard(CALLS);
    board.apply({ type: 'run:start', at: at(0), runId: '1', mode: 'eager', calls: 6 });
    board.apply(start('weather', 'getWeather', 0));
    board.apply(end('weather', 'getWeather', 12, { durationMs: 12, branch: 1 }));
    board.apply(start('pay', 'charge', 12));
    board.apply(
      end('pay', 'charge', 15, {
        status: 'failed',
        durationMs: 3,
        error: { message: 'card\ndeclined', code: 'DECLINED' },
      }),
    );
    board.apply(end('park', 'findPark', 15, { status: 'skipped' }));
    board.apply(end('notify', 'notify', 15, { status: 'upstream_failed' }));
    board.apply(end('x', 'tool', 16, { status: 'cancelled', durationMs: 1_200 }));
    board.apply(end('y', 'tool', 16, { status: 'rejected' }));
    const ended = board.takeEnded().map((row) => formatEndedRow(row, FORMAT));
    expect(ended).toEqual([
      '✓ weather  getWeather  12ms  branch 1',
      '✗ pay      charge      3ms  card declined (DECLINED)',
      '- park     findPark    skipped',
      '- notify   notify      upstream failed',
      '- x        tool        cancelled after 1.20s',
      '- y        tool        rejected',
    ]);
    expect(board.takeEnded()).toEqual([]);
    expect(board.done).toBe(6);
    expect(board.hasActive).toBe(false);
  });

  it('says a handled failure is handled, and shows a retry while it waits', () => {
    const board = new CallBoard(CALLS);
    board.apply(start('pay', 'charge', 0));
    board.apply({
      type: 'call:retry',
      at: at(5),
      call: 'pay',
      tool: 'charge',
      attempt: 1,
      delayMs: 200,
      error: { message: 'busy' },
    });
    const [retrying] = formatRegion(board, { ...FORMAT, now: T0 + 55, frame: 0, maxLines: 5 });
    expect(retrying).toBe('↻ pay      charge      attempt 1 failed, retrying in 150ms: busy');
    board.apply(start('pay', 'charge', 205, 2));
    expect(formatRegion(board, { ...FORMAT, now: T0 + 305, frame: 1, maxLines: 5 })[0]).toBe(
      `${SPINNER[1]} pay      charge      100ms  attempt 2`,
    );
    board.apply(
      end('pay', 'charge', 400, {
        status: 'failed',
        handled: true,
        branch: 1,
        durationMs: 400,
        error: { message: 'declined' },
      }),
    );
    expect(formatEndedRow(board.takeEnded()[0]!, FORMAT)).toBe(
      '✗ pay      charge      400ms  handled  branch 1: declined',
    );
  });

  it('keeps the region within the screen: the rest is counted on one line', () => {
    const board = new CallBoard();
    for (let i = 0; i < 10; i++) board.apply(start(`c${i}`, 't', 0));
    const lines = formatRegion(board, { ...FORMAT, now: T0, frame: 0, maxLines: 5 });
    expect(lines).toHaveLength(5);
    expect(lines[3]).toBe('… 7 more');
    expect(lines[4]).toMatch(/^0\/0 done · 10 running$/);
  });
});

describe('LiveView', () => {
  beforeEach(() => vi.useFakeTimers({ now: T0 }));
  afterEach(() => vi.useRealTimers());

  function view() {
    const writes: string[] = [];
    const stream = { isTTY: true, columns: 60, rows: 20, write: (text: string) => writes.push(text) };
    return { writes, live: new LiveView({ stream, color: false, calls: CALLS, frameMs: 80 }) };
  }

  it('draws at most once per frame, then redraws in place: cursor up, clear, ended lines, region', () => {
    const { writes, live } = view();
    live.onEvent({ type: 'run:start', at: at(0), runId: '1', mode: 'eager', calls: 2 });
    live.onEvent(start('weather', 'getWeather', 0));
    live.onEvent(start('park', 'findPark', 0));
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(80);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toBe(
      `${SPINNER[1]} weather  getWeather  80ms\n${SPINNER[1]} park     findPark    80ms\n0/2 done · 2 running · 80ms\n`,
    );
    live.onEvent(end('weather', 'getWeather', 100, { durationMs: 100 }));
    vi.advanceTimersByTime(80);
    expect(writes).toHaveLength(2);
    expect(writes[1]).toBe(
      `\u001b[3A\r\u001b[J✓ weather  getWeather  100ms\n${SPINNER[2]} park     findPark    160ms\n1/2 done · 1 running · 160ms\n`,
    );
  });

  it('animates while calls run, and stops the timer when nothing does', () => {
    const { writes, live } = view();
    live.onEvent(start('weather', 'getWeather', 0));
    vi.advanceTimersByTime(400);
    expect(writes).toHaveLength(5);
    live.onEvent(end('weather', 'getWeather', 400, { durationMs: 400 }));
    vi.advanceTimersByTime(80);
    expect(writes).toHaveLength(6);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('steps aside for a prompt and comes back below it; stop leaves only the ended lines', () => {
    const { writes, live } = view();
    live.onEvent(start('weather', 'getWeather', 0));
    vi.advanceTimersByTime(80);
    live.pause();
    expect(writes.at(-1)).toBe('\u001b[2A\r\u001b[J');
    live.onEvent({ type: 'approval:requested', at: at(90), kind: 'call', call: 'pay' });
    vi.advanceTimersByTime(400);
    expect(writes).toHaveLength(2);
    live.resume();
    vi.advanceTimersByTime(80);
    // Below the prompt: no cursor movement back over it.
    expect(writes.at(-1)!.startsWith('\u001b[')).toBe(false);
    expect(writes.at(-1)).toMatch(/weather.*\n\? pay +charge +awaiting approval\n/);
    live.onEvent(end('weather', 'getWeather', 600, { durationMs: 600 }));
    live.onEvent(end('pay', 'charge', 600, { status: 'rejected' }));
    live.stop();
    expect(writes.at(-1)).toBe(
      '\u001b[3A\r\u001b[J✓ weather  getWeather  600ms\n- pay      charge      rejected\n',
    );
    live.onEvent(start('late', 'x', 700));
    vi.advanceTimersByTime(400);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('still prints the ended calls when the run ends during a prompt (Ctrl-C)', () => {
    const { writes, live } = view();
    live.onEvent(start('weather', 'getWeather', 0));
    live.pause();
    live.onEvent(end('weather', 'getWeather', 50, { status: 'cancelled', durationMs: 50 }));
    live.stop();
    expect(writes.at(-1)).toBe('- weather  getWeather  cancelled after 50ms\n');
  });

  it('cuts region lines to the terminal width, so a redraw always finds its top', () => {
    const writes: string[] = [];
    const stream = { isTTY: true, columns: 30, rows: 20, write: (text: string) => writes.push(text) };
    const live = new LiveView({ stream, color: true, calls: [{ id: 'a'.repeat(40), tool: 'tool' }] });
    live.onEvent(start('a'.repeat(40), 'tool', 0));
    vi.advanceTimersByTime(80);
    // eslint-disable-next-line no-control-regex -- measuring the text between escapes
    const visible = writes[0]!.split('\n')[0]!.replace(/\u001b\[[0-9;]*m/g, '');
    expect(visible.length).toBeLessThanOrEqual(29);
    expect(visible).toContain('…');
  });
});

describe('truncate', () => {
  it('counts columns, not escapes; wide characters take two', () => {
    expect(truncate('\u001b[1mhello\u001b[22m world', 7)).toBe('\u001b[1mhello\u001b[22m w\u001b[0m');
    expect(truncate('plain', 10)).toBe('plain');
    expect(truncate('日本語テキスト', 5)).toBe('日本');
  });
});

describe('formatEventLine (off a terminal)', () => {
  it('writes one plain line per event', () => {
    const lines = [
      { type: 'run:start', at: at(0), runId: '1', mode: 'lazy', calls: 1 },
      { type: 'approval:requested', at: at(0), kind: 'plan' },
      { type: 'approval:requested', at: at(0), kind: 'call', call: 'pay' },
      { type: 'call:ready', at: at(0), call: 'weather', tool: 'getWeather' },
      start('weather', 'getWeather', 0),
      start('weather', 'getWeather', 0, 2),
      {
        type: 'call:retry',
        at: at(0),
        call: 'weather',
        tool: 'getWeather',
        attempt: 1,
        delayMs: 100,
        error: { message: 'busy', code: 'E_BUSY' },
      },
      { type: 'state:write', at: at(0), call: 'weather', path: '†state.sunny', value: 1 },
      end('weather', 'getWeather', 12, { durationMs: 12, branch: 1 }),
      end('pay', 'charge', 3, {
        status: 'failed',
        durationMs: 3,
        handled: true,
        branch: 1,
        error: { message: 'no' },
      }),
      end('park', 'findPark', 3, { status: 'skipped' }),
      end('refund', 'issueRefund', 3, { attempts: 0, reused: true }),
      { type: 'run:end', at: at(0), status: 'failed' },
    ].map((e) => formatEventLine(e as RunEvent));
    expect(lines).toEqual([
      'run:start lazy 1 call',
      'approval:requested plan',
      'approval:requested call pay',
      'call:ready weather getWeather',
      'call:start weather getWeather',
      'call:start weather getWeather attempt 2',
      'call:retry weather getWeather attempt 1 failed, retrying in 100ms: busy (E_BUSY)',
      'state:write weather †state.sunny',
      'call:end weather succeeded 12ms branch 1',
      'call:end pay failed 3ms branch 1 handled: no',
      'call:end park skipped',
      'call:end refund succeeded reused',
      'run:end failed',
    ]);
  });
});

describe('formatRunSummary', () => {
  const result = (state: Record<string, unknown>): RunResult => ({
    status: 'failed',
    state,
    startedAt: at(0),
    endedAt: at(1_234),
    diagnostics: [],
    calls: (['succeeded', 'failed', 'failed', 'upstream_failed'] as const).map((status, i) => ({
      id: String(i),
      tool: 't',
      status,
      branch: null,
      handled: i === 2,
      attempts: 1,
      startedAt: null,
      endedAt: null,
      error: null,
    })),
  });

  it('gives the status, the counts per state, the duration and a small state as JSON', () => {
    expect(formatRunSummary(result({ a: 1 }), { file: 'p.json', color: false })).toBe(
      'p.json: run failed in 1.23s, 4 calls: 1 succeeded, 2 failed (1 handled), 1 upstream_failed\n' +
        'failed 1\nfailed 2 (handled)\nupstream_failed 3: a value it reads comes from a call that failed\n' +
        'state: {\n  "a": 1\n}\n',
    );
    expect(formatRunSummary(result({}), { file: 'p.json', color: false, interrupted: true })).toMatch(
      /^p\.json: run interrupted after 1\.23s, /,
    );
  });

  it('names the calls cancelled while running, not those cancelled before they started', () => {
    const call = (id: string, startedAt: string | null) => ({
      id,
      tool: `tool_${id}`,
      status: 'cancelled' as const,
      branch: null,
      handled: false,
      attempts: startedAt === null ? 0 : 1,
      startedAt,
      endedAt: startedAt,
      error: null,
    });
    const interrupted: RunResult = {
      ...result({}),
      status: 'cancelled',
      calls: [call('fetch', at(5)), call('after', null), call('index', at(7))],
    };
    expect(formatRunSummary(interrupted, { file: 'p.json', color: false, interrupted: true })).toBe(
      'p.json: run interrupted after 1.23s, 3 calls: 3 cancelled\n' +
        'cancelled while running: fetch (tool_fetch), index (tool_index)\n' +
        'state: {}\n',
    );
    const many: RunResult = {
      ...interrupted,
      calls: Array.from({ length: 13 }, (_, i) => call(`c${i}`, at(i))),
    };
    expect(formatRunSummary(many, { file: 'p.json', color: false, interrupted: true })).toMatch(
      /\ncancelled while running: c0 \(tool_c0\), .*, c9 \(tool_c9\) and 3 more\n/,
    );
    expect(formatRunSummary(result({}), { file: 'p.json', color: false })).not.toMatch(
      /cancelled while running/,
    );
  });

  it('prints a state of a few KB whole, and gives only the size of a bigger one', () => {
    // Four keys and about 600 bytes: once summarised as "4 keys, 592 bytes", now shown.
    const small = {
      weather: { city: 'Paris', condition: 'sunny', temperature: 21, wind: { kmh: 12, from: 'W' } },
      suggestion: { kind: 'park', name: 'Parc des Buttes-Chaumont', why: 'x'.repeat(300) },
      sent: true,
      log: ['fetched', 'chose', 'told'],
    };
    expect(formatRunSummary(result(small), { file: 'p.json', color: false })).toContain(
      `\nstate: ${JSON.stringify(small, null, 2)}\n`,
    );
    const big = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, 'v'.repeat(20)]));
    expect(formatRunSummary(result(big), { file: 'p.json', color: false })).toMatch(
      /\nstate: 200 keys, \d+ bytes of JSON \(--json prints it\)\n$/,
    );
  });
});

describe('the approval prompt', () => {
  it('shows input values resolved and what calls will write as bare references', () => {
    const compiled = compile(
      [
        { _id: 'a', _tool: 't', city: '†input.city', seed: '†state.seed', _outputPath: '†state.x' },
        { _id: 'b', _tool: 't', x: '†state.x', both: ['†state.x || †input.city'], lit: '††input.city' },
      ],
      { input: { city: 'Paris' }, state: { seed: 42 } },
    );
    const plan = compiled.plan!;
    expect(describeArguments(plan.calls[0]!, plan)).toBe('{"city":"Paris","seed":42}');
    expect(describeArguments(plan.calls[1]!, plan)).toBe(
      '{"x":†state.x,"both":[†state.x || †input.city],"lit":"†input.city"}',
    );
  });

  it('asks one question at a time and reads each answer from its own line', async () => {
    const written: string[] = [];
    const prompter = new Prompter(lineReader(chunks(['y', 'es\nno\r\n'])), { write: (t) => written.push(t) });
    const answers = await Promise.all([
      prompter.ask('first? '),
      prompter.ask('second? '),
      prompter.ask('third? '),
    ]);
    expect(answers).toEqual([true, false, false]);
    expect(written).toEqual(['first? ', 'second? ', 'third? ', '\n']);
  });
});

async function* chunks(parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

describe('a reused call on the board', () => {
  it('says it ran in an earlier turn instead of a duration', () => {
    const row = { id: 'refund', tool: 'issueRefund', phase: 'ended' as const, since: 0, attempt: 0 };
    const line = formatEndedRow(
      { ...row, end: end('refund', 'issueRefund', 0, { attempts: 0, reused: true }) as never },
      FORMAT,
    );
    expect(line).toBe('✓ refund   issueRefu…  reused (ran in an earlier turn)');
  });
});
