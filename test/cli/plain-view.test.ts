/** `plan run` off a terminal: event lines, and a `still running` line when the run goes quiet. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlainView } from '../../src/cli/output/event-lines.js';
import type { RunEvent } from '../../src/run/types.js';

const AT = '2030-01-01T00:00:00.000Z';
const runStart: RunEvent = { type: 'run:start', at: AT, mode: 'eager', calls: 3 } as RunEvent;
const start = (call: string, tool: string): RunEvent => ({
  type: 'call:start',
  at: AT,
  call,
  tool,
  attempt: 1,
  args: {},
});
const end = (call: string, tool: string): RunEvent =>
  ({
    type: 'call:end',
    at: AT,
    call,
    tool,
    status: 'succeeded',
    attempts: 1,
    durationMs: 5,
    branch: null,
    handled: false,
    error: null,
  }) as RunEvent;

function view(options: ConstructorParameters<typeof PlainView>[1] = {}) {
  const lines: string[] = [];
  const plain = new PlainView({ write: (text: string) => lines.push(text) } as never, {
    quietMs: 10_000,
    repeatMs: 30_000,
    ...options,
  });
  const heartbeats = () => lines.filter((line) => line.startsWith('still running'));
  return { plain, lines, heartbeats };
}

describe('PlainView: still running', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse(AT) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('names the running calls after a quiet period, then again every repeat period', () => {
    const { plain, heartbeats } = view();
    plain.onEvent(runStart);
    plain.onEvent(start('a', 'slowTool'));
    vi.advanceTimersByTime(9_999);
    expect(heartbeats()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(heartbeats()).toEqual(['still running after 10s: call a (slowTool) 10s\n']);
    // An event before the repeat period is over: the next line comes a quiet period after it.
    vi.advanceTimersByTime(18_000);
    plain.onEvent(start('b', 'other'));
    vi.advanceTimersByTime(10_000);
    expect(heartbeats().at(-1)).toBe('still running after 38s: call a (slowTool) 38s, call b (other) 10s\n');
    vi.advanceTimersByTime(29_999);
    expect(heartbeats()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(heartbeats().at(-1)).toBe(
      'still running after 1m 08s: call a (slowTool) 1m 08s, call b (other) 40s\n',
    );
  });

  it('every event pushes the next line back; ended calls are no longer named', () => {
    const { plain, heartbeats } = view();
    plain.onEvent(runStart);
    plain.onEvent(start('a', 'slowTool'));
    plain.onEvent(start('b', 'other'));
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(9_000);
      plain.onEvent({ type: 'state:write', at: AT, call: 'x', path: '†state.x' } as RunEvent);
    }
    expect(heartbeats()).toEqual([]);
    plain.onEvent(end('a', 'slowTool'));
    vi.advanceTimersByTime(10_000);
    expect(heartbeats()).toEqual(['still running after 55s: call b (other) 55s\n']);
  });

  it('counts the calls beyond five', () => {
    const { plain, heartbeats } = view({ quietMs: 5 });
    plain.onEvent(runStart);
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) plain.onEvent(start(id, 't'));
    vi.advanceTimersByTime(5);
    expect(heartbeats()).toEqual([
      'still running after 0s: call a (t) 0s, call b (t) 0s, call c (t) 0s, call d (t) 0s, call e (t) 0s and 2 more\n',
    ]);
  });

  it('says so when no call is running (a retry wait)', () => {
    const { plain, heartbeats } = view({ quietMs: 5 });
    plain.onEvent(runStart);
    plain.onEvent(start('a', 't'));
    plain.onEvent({
      type: 'call:retry',
      at: AT,
      call: 'a',
      tool: 't',
      attempt: 1,
      delayMs: 60_000,
      error: { message: 'flaky' },
    } as RunEvent);
    vi.advanceTimersByTime(5);
    expect(heartbeats()).toEqual(['still running after 0s: no call is running right now\n']);
  });

  it('stops at run:end and at stop(), and never holds the process', () => {
    const ended = view({ quietMs: 5 });
    ended.plain.onEvent(runStart);
    ended.plain.onEvent(start('a', 't'));
    ended.plain.onEvent({ type: 'run:end', at: AT, status: 'succeeded' } as RunEvent);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(ended.heartbeats()).toEqual([]);

    const stopped = view({ quietMs: 5 });
    stopped.plain.onEvent(runStart);
    stopped.plain.onEvent(start('a', 't'));
    expect(vi.getTimerCount()).toBe(1);
    stopped.plain.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(stopped.heartbeats()).toEqual([]);
  });

  it('prints nothing while a prompt is up, and waits a quiet period after it', () => {
    const { plain, heartbeats } = view({ quietMs: 5, repeatMs: 5 });
    plain.onEvent(runStart);
    plain.onEvent(start('a', 't'));
    plain.pause();
    vi.advanceTimersByTime(100);
    expect(heartbeats()).toEqual([]);
    plain.resume();
    vi.advanceTimersByTime(5);
    expect(heartbeats()).toHaveLength(1);
  });

  it('rejects periods that are not whole milliseconds in range', () => {
    for (const bad of [0, -1, 1.5, 2 ** 31, Number.NaN])
      expect(() => new PlainView({ write() {} } as never, { quietMs: bad })).toThrow(
        new TypeError(`PlainView: quietMs must be a whole number from 1 to 2147483647, not ${bad}`),
      );
  });
});

describe('PlainView: its timer', () => {
  it('is unref’d, so a quiet view never keeps the process alive', () => {
    const { plain } = view({ quietMs: 1_000_000 });
    const spy = vi.spyOn(globalThis, 'setTimeout');
    plain.onEvent(runStart);
    const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
    spy.mockRestore();
    expect(timer.hasRef()).toBe(false);
    plain.stop();
  });
});
