/**
 * RunHandle.halt() and haltOnInvalidCall: a run told to stop starting calls lets the calls
 * running end as they would (their signals are not aborted) and ends the rest `cancelled`.
 */
import { describe, expect, it } from 'vitest';
import { EventChannel } from '../../src/run/event-channel.js';
import { startRun, type Tool } from '../../src/index.js';
import { deferred } from '../deferred.js';

/** `slow` waits for its gate (and records whether its signal was aborted); `quick` returns at once. */
function tools() {
  const log: string[] = [];
  const gate = deferred();
  const started = deferred();
  const list: Tool[] = [
    {
      name: 'slow',
      execute: async (_args, { abortSignal }) => {
        log.push('slow started');
        started.resolve();
        await gate.promise;
        log.push(`slow ended${abortSignal.aborted ? ' (aborted)' : ''}`);
        return 'slow';
      },
    },
    {
      name: 'quick',
      execute: (args) => {
        log.push(`quick ${String(args.n)}`);
        return args.n;
      },
    },
  ];
  return { list, log, gate, started };
}

describe('halting a run', () => {
  it('halt(): the call running ends as it would, the calls waiting end cancelled, no call after it starts', async () => {
    const { list, log, gate, started } = tools();
    const calls = new EventChannel<unknown>();
    const waiting = deferred();
    const handle = startRun(calls, {
      tools: list,
      concurrency: 1,
      // q1 is ready, and waits for the one slot that slow holds.
      onEvent: (event) => event.type === 'call:ready' && event.call === 'q1' && waiting.resolve(),
    });
    calls.push({ _id: 's', _tool: 'slow', _outputPath: '†state.s' });
    calls.push({ _id: 'q1', _tool: 'quick', n: 1 });
    await Promise.all([started.promise, waiting.promise]);
    handle.halt();
    calls.push({ _id: 'q2', _tool: 'quick', n: 2 });
    calls.close();
    gate.resolve();
    const result = await handle.result;
    expect(log).toEqual(['slow started', 'slow ended']);
    expect(result.calls.map((c) => [c.id, c.status])).toEqual([
      ['s', 'succeeded'],
      ['q1', 'cancelled'],
    ]);
    expect(result.state).toEqual({ s: 'slow' });
    expect(result.status).toBe('cancelled');
  });

  it('halt() on a whole plan: nothing that has not started starts', async () => {
    const { list, log, gate, started } = tools();
    const handle = startRun(
      [
        { _id: 's', _tool: 'slow', _outputPath: '†state.s' },
        { _id: 'q', _tool: 'quick', n: '†state.s' },
      ],
      { tools: list },
    );
    await started.promise;
    handle.halt();
    gate.resolve();
    const result = await handle.result;
    expect(log).toEqual(['slow started', 'slow ended']);
    expect(result.calls.map((c) => c.status)).toEqual(['succeeded', 'cancelled']);
  });

  it('haltOnInvalidCall: the first call that arrives invalid halts a streamed run', async () => {
    const { list, log, gate, started } = tools();
    const calls = new EventChannel<unknown>();
    const handle = startRun(calls, { tools: list, haltOnInvalidCall: true });
    calls.push({ _id: 's', _tool: 'slow' });
    await started.promise;
    calls.push({ _id: 'bad', _tool: 'nosuchtool' });
    calls.push({ _id: 'q', _tool: 'quick', n: 1 });
    calls.close();
    gate.resolve();
    const result = await handle.result;
    expect(log).toEqual(['slow started', 'slow ended']);
    expect(result.calls.map((c) => [c.id, c.status])).toEqual([
      ['s', 'succeeded'],
      ['bad', 'failed'],
    ]);
    expect(result.calls[1]!.error?.code).toBe('E_UNKNOWN_TOOL');
  });

  it('without haltOnInvalidCall the other calls go on', async () => {
    const { list, log, gate } = tools();
    gate.resolve();
    const calls = new EventChannel<unknown>();
    const handle = startRun(calls, { tools: list });
    calls.push({ _id: 'bad', _tool: 'nosuchtool' });
    calls.push({ _id: 'q', _tool: 'quick', n: 1 });
    calls.close();
    const result = await handle.result;
    expect(log).toEqual(['quick 1']);
    expect(result.calls.map((c) => c.status)).toEqual(['failed', 'succeeded']);
  });

  it('haltOnInvalidCall must be true or false', () => {
    expect(() => startRun([], { tools: [], haltOnInvalidCall: 'yes' as never })).toThrow(
      /Expected haltOnInvalidCall to be true or false/,
    );
  });
});
