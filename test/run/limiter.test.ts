/**
 * Quotas: a tool's `concurrency` and `rateLimit` hold across every call, `_forEach` element and
 * run that shares a limiter. Real timers: each start is read with performance.now(), and the
 * assertions are the limiter's own guarantees (a sliding window, a lower bound on the span),
 * which a slow machine cannot break.
 */
import { describe, expect, it, vi } from 'vitest';
import { createLimiter, run, startRun, type Tool, ToolRegistry, toolsFromManifest } from '../../src/index.js';
import { validator } from '../schemas/ajv.js';
import { deferred } from '../deferred.js';

/** The clock's granularity and the timers' rounding: a window may look this much shorter. */
const CLOCK_TOLERANCE_MS = 2;

/** The most starts in any window of `windowMs` (sliding: one window from each start). */
function mostStartsInWindow(starts: readonly number[], windowMs: number): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while (sorted[last]! - sorted[first]! >= windowMs - CLOCK_TOLERANCE_MS) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

function searchTool(starts: number[], quota: Partial<Tool> = {}): Tool {
  return {
    name: 'search',
    rateLimit: { limit: 5, intervalMs: 200 },
    ...quota,
    execute: (args) => {
      starts.push(performance.now());
      return { hit: args.q };
    },
  };
}

function searches(n: number, prefix = 's') {
  return Array.from({ length: n }, (_, k) => ({
    _id: `${prefix}${k}`,
    _tool: 'search',
    q: k,
    _outputPath: `†state.${prefix}${k}`,
  }));
}

describe('rate limits', () => {
  it('30 calls limited to 5 per 200 ms: never more than 5 start in any 200 ms window, and they span at least 1 s', async () => {
    const starts: number[] = [];
    const result = await run(searches(30), { tools: [searchTool(starts)], concurrency: Infinity });
    expect(result.status).toBe('succeeded');
    expect(starts).toHaveLength(30);
    expect(mostStartsInWindow(starts, 200)).toBeLessThanOrEqual(5);
    // 30 starts at 5 per window need 6 windows: the last starts at least 5 windows after the first.
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(1000 - CLOCK_TOLERANCE_MS);
  });

  it('two runs sharing one limiter never exceed it together', async () => {
    const starts: number[] = [];
    const limiter = createLimiter();
    const tools = [searchTool(starts)];
    const [a, b] = await Promise.all([
      run(searches(15, 'a'), { tools, limiter }),
      run(searches(15, 'b'), { tools, limiter }),
    ]);
    expect([a.status, b.status]).toEqual(['succeeded', 'succeeded']);
    expect(starts).toHaveLength(30);
    expect(mostStartsInWindow(starts, 200)).toBeLessThanOrEqual(5);
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(1000 - CLOCK_TOLERANCE_MS);
  });

  it("the elements of a _forEach call each count against the tool's rate", async () => {
    const starts: number[] = [];
    const plan = {
      type: 'plan',
      plan: [{ _id: 'all', _tool: 'search', _forEach: '†input.qs', q: '†item', _outputPath: '†state.all' }],
    };
    const result = await run(plan, {
      tools: [searchTool(starts, { rateLimit: { limit: 2, intervalMs: 100 } })],
      input: { qs: [1, 2, 3, 4, 5, 6] },
    });
    expect(result.status).toBe('succeeded');
    expect(starts).toHaveLength(6);
    expect(mostStartsInWindow(starts, 100)).toBeLessThanOrEqual(2);
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(200 - CLOCK_TOLERANCE_MS);
  });

  it("the limiter's own quota for a group limits a tool that declares none (what --rate sets)", async () => {
    const starts: number[] = [];
    const limiter = createLimiter({ quotas: { search: { rateLimit: { limit: 3, intervalMs: 100 } } } });
    const tool: Tool = { name: 'search', execute: (args) => (starts.push(performance.now()), args.q) };
    // On a clock only the timers move: a busy machine's pauses between the limiter's check and
    // the tool's own reading of the time cannot make two windows look like one.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    try {
      const pending = run(searches(9), { tools: [tool], limiter });
      await vi.runAllTimersAsync();
      const result = await pending;
      expect(result.status).toBe('succeeded');
    } finally {
      vi.useRealTimers();
    }
    expect(starts).toHaveLength(9);
    expect(mostStartsInWindow(starts, 100)).toBeLessThanOrEqual(3);
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(200 - CLOCK_TOLERANCE_MS);
  });
});

describe('concurrency quotas', () => {
  it('a tool limited to 3 at once never has more than 3 in flight, across two runs sharing a limiter', async () => {
    let inFlight = 0;
    let most = 0;
    const tool: Tool = {
      name: 'search',
      concurrency: 3,
      execute: async (args) => {
        inFlight++;
        most = Math.max(most, inFlight);
        // Several turns of the event loop, so that others could start meanwhile if allowed.
        for (let k = 0; k < 5; k++) await new Promise((r) => setImmediate(r));
        inFlight--;
        return args.q;
      },
    };
    const limiter = createLimiter();
    const [a, b] = await Promise.all([
      run(searches(20, 'a'), { tools: [tool], limiter, concurrency: Infinity }),
      run(searches(20, 'b'), { tools: [tool], limiter, concurrency: Infinity }),
    ]);
    expect([a.status, b.status]).toEqual(['succeeded', 'succeeded']);
    expect(most).toBe(3);
    expect(limiter.groups().search).toEqual({ quota: { concurrency: 3 }, running: 0, waiting: 0 });
  });

  it('calls of unlimited tools do not wait behind a limited tool', async () => {
    const gate = deferred();
    const log: string[] = [];
    const tools: Tool[] = [
      { name: 'slow', concurrency: 1, execute: async () => (log.push('slow'), await gate.promise, 'slow') },
      { name: 'quick', execute: (args) => (log.push(`quick ${String(args.n)}`), args.n) },
    ];
    const plan = [
      { _id: 's1', _tool: 'slow', _outputPath: '†state.s1' },
      { _id: 's2', _tool: 'slow', _outputPath: '†state.s2' },
      { _id: 'q1', _tool: 'quick', n: 1, _outputPath: '†state.q1' },
      { _id: 'q2', _tool: 'quick', n: 2, _outputPath: '†state.q2' },
    ];
    const done = run(plan, { tools });
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['slow', 'quick 1', 'quick 2']);
    gate.resolve();
    expect((await done).status).toBe('succeeded');
    expect(log).toEqual(['slow', 'quick 1', 'quick 2', 'slow']);
  });
});

describe('priority among the calls waiting for a quota', () => {
  it('the call with the longest chain after it starts first: the critical path goes first', async () => {
    const order: string[] = [];
    const gate = deferred();
    const tools: Tool[] = [
      {
        name: 'api',
        concurrency: 1,
        execute: async (args) => {
          order.push(String(args.name));
          if (args.name === 'blocker') await gate.promise;
          return args.name;
        },
      },
      { name: 'local', execute: (args) => args.v },
    ];
    // Waiting behind `blocker`, in array order: leafA, leafB, then `head` (the start of a chain
    // of three). With array order alone `head` would go last.
    const plan = [
      { _id: 'blocker', _tool: 'api', name: 'blocker', _outputPath: '†state.b' },
      { _id: 'leafA', _tool: 'api', name: 'leafA', _outputPath: '†state.la' },
      { _id: 'leafB', _tool: 'api', name: 'leafB', _outputPath: '†state.lb' },
      { _id: 'head', _tool: 'api', name: 'head', _outputPath: '†state.h' },
      { _id: 'mid', _tool: 'local', v: '†state.h', _outputPath: '†state.m' },
      { _id: 'tail', _tool: 'local', v: '†state.m', _outputPath: '†state.t' },
    ];
    const handle = startRun(plan, { tools });
    // Every api call is dispatched and waits in the queue behind blocker.
    for await (const event of handle.events) if (event.type === 'call:start' && event.call === 'head') break;
    gate.resolve();
    expect((await handle.result).status).toBe('succeeded');
    expect(order).toEqual(['blocker', 'head', 'leafA', 'leafB']);
  });
});

describe('pause() and resume()', () => {
  it('a paused run dispatches nothing; resume starts what got ready meanwhile', async () => {
    const log: string[] = [];
    const gate = deferred();
    const tools: Tool[] = [
      { name: 'first', execute: async () => (log.push('first'), await gate.promise, 1) },
      { name: 'next', execute: (args) => (log.push(`next ${String(args.v)}`), args.v) },
    ];
    const plan = [
      { _id: 'a', _tool: 'first', _outputPath: '†state.a' },
      { _id: 'b', _tool: 'next', v: '†state.a', _outputPath: '†state.b' },
      { _id: 'c', _tool: 'next', v: '†state.a', _outputPath: '†state.c' },
    ];
    const handle = startRun(plan, { tools });
    const seen: string[] = [];
    let resumed = false;
    for await (const event of handle.events) {
      if (event.type === 'call:start') seen.push(event.call);
      if (event.type === 'call:start' && event.call === 'a') {
        handle.pause();
        expect(handle.paused).toBe(true);
        gate.resolve();
      }
      // Both dependents got ready while paused: neither started.
      if (event.type === 'call:ready' && event.call === 'c') {
        expect(log).toEqual(['first']);
        await new Promise((r) => setImmediate(r));
        expect(log).toEqual(['first']);
        resumed = true;
        handle.resume();
        expect(handle.paused).toBe(false);
      }
    }
    expect(resumed).toBe(true);
    expect((await handle.result).status).toBe('succeeded');
    expect(log).toEqual(['first', 'next 1', 'next 1']);
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('halting a paused run ends the calls it held back cancelled', async () => {
    const gate = deferred();
    const started = deferred();
    const tools: Tool[] = [
      { name: 'first', execute: async () => (started.resolve(), await gate.promise, 1) },
      { name: 't', execute: (args) => args.v },
    ];
    const plan = [
      { _id: 'a', _tool: 'first', _outputPath: '†state.a' },
      { _id: 'b', _tool: 't', v: '†state.a' },
    ];
    const handle = startRun(plan, { tools });
    await started.promise;
    handle.pause();
    gate.resolve();
    await new Promise((r) => setImmediate(r));
    handle.halt();
    const result = await handle.result;
    expect(result.calls.map((c) => c.status)).toEqual(['succeeded', 'cancelled']);
  });
});

describe('quota definitions and options', () => {
  it('a bad quota is a ToolDefinitionError naming the tool, the field and the bound', async () => {
    const bad: Tool[] = [
      { name: 'a', concurrency: 0, execute: () => 1 },
      { name: 'b', rateLimit: { limit: 5, intervalMs: 0 }, execute: () => 1 },
      { name: 'c', rateLimit: { limit: 1.5, intervalMs: 100, per: 'x' } as never, execute: () => 1 },
    ];
    await expect(run([], { tools: bad })).rejects.toThrow(
      /tool 'a': "concurrency" must be a whole number from 1 to 10000, not 0[\s\S]*tool 'b': "rateLimit.intervalMs" must be a whole number of milliseconds from 1 to 86400000, not 0[\s\S]*tool 'c': "rateLimit" has an unknown key "per"[\s\S]*"rateLimit.limit" must be a whole number from 1 to 1000000, not 1.5/,
    );
  });

  it('two quotas for one group sharing a limiter: a TypeError saying how to fix it', async () => {
    const limiter = createLimiter();
    const tool = (concurrency: number): Tool => ({ name: 'search', concurrency, execute: () => 1 });
    await run([{ _tool: 'search' }], { tools: [tool(2)], limiter });
    await expect(run([{ _tool: 'search' }], { tools: [tool(3)], limiter })).rejects.toThrow(
      /group 'search': it holds concurrency 2 already, and a run declares concurrency 3; declare the same quota/,
    );
  });

  it('createLimiter and run check their values', async () => {
    expect(() => createLimiter({ quotas: { x: {} } })).toThrow(
      /group 'x': it sets neither concurrency nor rateLimit/,
    );
    expect(() => createLimiter({ quotas: { x: { concurrency: -1 } } })).toThrow(
      /"concurrency" must be a whole number from 1/,
    );
    await expect(run([], { tools: [], limiter: {} as never })).rejects.toThrow(
      /Expected limiter to be made by createLimiter\(\)/,
    );
  });
});

describe('quotas in a JSON manifest', () => {
  const manifest = {
    tools: [{ name: 'search', concurrency: 2, rateLimit: { limit: 5, intervalMs: 1000 } }],
  };

  it('the tool manifest schema admits them and the registry reads them', () => {
    const validate = validator('tool-manifest.schema.json');
    expect(validate(manifest)).toBe(true);
    expect(validate({ tools: [{ name: 'x', rateLimit: { limit: 0, intervalMs: 10 } }] })).toBe(false);
    const tool = new ToolRegistry(toolsFromManifest(manifest, 'tools.json')).get('search')!.tool;
    expect([tool.concurrency, tool.rateLimit]).toEqual([2, { limit: 5, intervalMs: 1000 }]);
  });
});
