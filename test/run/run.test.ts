import { describe, expect, it } from 'vitest';
import {
  branch,
  compile,
  isRunCancelledError,
  isToolTimeoutError,
  PlanValidationError,
  type RunEvent,
  type RunOptions,
  type RunResult,
  run,
  startRun,
  type Tool,
} from '../../src/index.js';

type Args = Record<string, unknown>;

/** A tool that records every call it gets and returns `fn(args)`. */
function tool(name: string, fn: (args: Args) => unknown = () => name, extra: Partial<Tool> = {}) {
  const calls: Args[] = [];
  const definition: Tool = {
    name,
    execute: async (args: Args) => {
      calls.push(args);
      return fn(args);
    },
    ...extra,
  };
  return Object.assign(definition, { calls });
}

function statuses(result: RunResult): Record<string, string> {
  return Object.fromEntries(result.calls.map((c) => [c.id, c.status]));
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holds each call until `limit` calls run at once, so a peak of `limit` shows the bound however
 * slowly the machine starts them. A limiter that allows fewer never fills the gate: each call
 * then goes on after `fallbackMs`, and the peak stays under `limit`.
 */
function concurrencyGate(limit: number, fallbackMs = 2_000) {
  let running = 0;
  let peak = 0;
  const waiting: (() => void)[] = [];
  return {
    get peak() {
      return peak;
    },
    async hold(): Promise<void> {
      peak = Math.max(peak, ++running);
      if (running >= limit) {
        for (const release of waiting.splice(0)) release();
      } else {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, fallbackMs);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      // A turn of the event loop with `limit` running: a limiter that lets one more start now shows it.
      await new Promise((resolve) => setImmediate(resolve));
      running--;
    },
  };
}

describe('SPEC 6: when a call runs', () => {
  it('†a: runs with the value; a missing value skips the call, transitively', async () => {
    const echo = tool('echo', (a) => a.v);
    // `nope` is declared by the state schema, so it compiles and is simply missing at run time.
    const result = await run(
      [
        { type: 'state', schema: { type: 'object', properties: { nope: { type: 'number' } } }, a: 1 },
        {
          type: 'plan',
          plan: [
            { _id: 'has', _tool: 'echo', v: '†state.a', _outputPath: '†state.out' },
            { _id: 'lacks', _tool: 'echo', v: '†state.nope', _outputPath: '†state.out2' },
            { _id: 'later', _tool: 'echo', v: '†state.out2', _outputPath: '†state.out3' },
          ],
        },
      ],
      { tools: [echo] },
    );
    expect(statuses(result)).toEqual({ has: 'succeeded', lacks: 'skipped', later: 'skipped' });
    expect(result.state).toEqual({ a: 1, out: 1 });
    expect(result.status).toBe('succeeded');
    expect(echo.calls).toEqual([{ v: 1 }]);
  });

  it('†a || †b: the first that exists; null, false, 0 and "" exist', async () => {
    const echo = tool('echo', (a) => a.v);
    const plan = compile(
      [
        { type: 'state', schema: { properties: { gone: {} } }, zero: 0, nul: null, no: false, empty: '' },
        {
          type: 'plan',
          plan: [
            { _id: 'never', _tool: 'echo', v: '†state.gone', _outputPath: '†state.missing' },
            { _id: 'r1', _tool: 'echo', v: '†state.missing || †state.zero', _outputPath: '†state.r1' },
            { _id: 'r2', _tool: 'echo', v: '†state.nul || †state.zero', _outputPath: '†state.r2' },
            { _id: 'r3', _tool: 'echo', v: '†state.no || †state.empty', _outputPath: '†state.r3' },
          ],
        },
      ],
      { tools: [echo] },
    );
    expect(plan.ok).toBe(true);
    const r = await run(plan.plan!, { tools: [echo] });
    expect(statuses(r)).toEqual({ never: 'skipped', r1: 'succeeded', r2: 'succeeded', r3: 'succeeded' });
    expect([r.state.r1, r.state.r2, r.state.r3]).toEqual([0, null, false]);
  });

  it('†a && †b: the last, once all exist; a missing one skips', async () => {
    const echo = tool('echo', (a) => a.v);
    const plan = compile(
      [
        { type: 'state', schema: { properties: { gone: {} } }, a: 1, b: 2 },
        {
          type: 'plan',
          plan: [
            { _id: 'both', _tool: 'echo', v: '†state.a && †state.b', _outputPath: '†state.x' },
            { _id: 'one', _tool: 'echo', v: '†state.a && †state.gone', _outputPath: '†state.y' },
          ],
        },
      ],
      { tools: [echo] },
    );
    const r = await run(plan.plan!, { tools: [echo] });
    expect(statuses(r)).toEqual({ both: 'succeeded', one: 'skipped' });
    expect(r.state.x).toBe(2);
  });

  it('[*] reads resolve to every element', async () => {
    const echo = tool('echo', (a) => a.ids);
    const r = await run([{ _tool: 'echo', ids: '†state.items[*].id', _outputPath: '†state.ids' }], {
      tools: [echo],
      state: { items: [{ id: 'a' }, { id: 'b' }] },
    });
    expect(r.state.ids).toEqual(['a', 'b']);
  });

  it('†† literals lose one † at run time; references nested in arguments resolve', async () => {
    const echo = tool('echo', (a) => a);
    const r = await run(
      [{ _tool: 'echo', text: '††state.x', nested: { list: ['†input.n', 2] }, _outputPath: '†state.out' }],
      { tools: [echo], input: { n: 1 } },
    );
    expect(r.state.out).toEqual({ text: '†state.x', nested: { list: [1, 2] } });
  });
});

describe('SPEC 5: output paths and branches', () => {
  it('a plain value goes to the first alternative; branch() by index or path picks another', async () => {
    const pick = tool('pick', (a) =>
      a.how === 'plain' ? 'p' : a.how === 'index' ? branch(1, 'i') : branch('†state.c', 'c'),
    );
    const r = await run(
      [
        { _id: 'plain', _tool: 'pick', how: 'plain', _outputPath: '†state.a || †state.b || †state.c' },
        { _id: 'index', _tool: 'pick', how: 'index', _outputPath: '†state.d || †state.e' },
        { _id: 'path', _tool: 'pick', how: 'path', _outputPath: '†state.f || †state.c' },
      ],
      { tools: [pick] },
    );
    expect(r.state).toEqual({ a: 'p', e: 'i', c: 'c' });
    expect(r.calls.map((c) => c.branch)).toEqual([0, 1, 1]);
  });

  it('a branch value naming no alternative fails the call', async () => {
    const pick = tool('pick', () => branch(5, 'x'));
    const r = await run([{ _tool: 'pick', _outputPath: '†state.a || †state.b' }], { tools: [pick] });
    expect(r.calls[0]).toMatchObject({ status: 'failed', error: { code: 'BAD_BRANCH' } });
  });

  it('a throw of a tool that declares errorBranch goes to the last alternative as {message, code}: failed, handled, run succeeded', async () => {
    // The tool declares its errors as an outcome (the default, false, would fail the run).
    const pay = tool(
      'pay',
      () => {
        throw Object.assign(new Error('Your card was declined.'), { code: 'card_declined' });
      },
      { errorBranch: true },
    );
    const confirm = tool('confirm');
    const report = tool('report', (a) => a.error);
    const r = await run(
      [
        { _id: 'pay', _tool: 'pay', _outputPath: '†state.receipt || †state.error' },
        { _id: 'confirm', _tool: 'confirm', receipt: '†state.receipt' },
        { _id: 'report', _tool: 'report', error: '†state.error', _outputPath: '†state.reported' },
      ],
      { tools: [pay, confirm, report] },
    );
    expect(r.state.error).toEqual({ message: 'Your card was declined.', code: 'card_declined' });
    expect(r.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 1 });
    expect(statuses(r)).toEqual({ pay: 'failed', confirm: 'skipped', report: 'succeeded' });
    expect(r.status).toBe('succeeded');
  });

  it('errorBranch: false opts out: the call simply fails and readers are upstream_failed', async () => {
    const pay = tool(
      'pay',
      () => {
        throw new Error('boom');
      },
      { errorBranch: false },
    );
    const report = tool('report');
    const r = await run(
      [
        { _id: 'pay', _tool: 'pay', _outputPath: '†state.receipt || †state.error' },
        { _id: 'report', _tool: 'report', error: '†state.error', _outputPath: '†state.x' },
      ],
      { tools: [pay, report] },
    );
    expect(statuses(r)).toEqual({ pay: 'failed', report: 'upstream_failed' });
    expect(r.calls[0]!.handled).toBe(false);
    expect(r.status).toBe('failed');
  });

  it('&& fan-out writes the same value at every path (as separate copies)', async () => {
    const make = tool('make', () => ({ n: 1 }));
    const r = await run([{ _tool: 'make', _outputPath: '†state.a && †state.b.c' }], { tools: [make] });
    expect(r.state).toEqual({ a: { n: 1 }, b: { c: { n: 1 } } });
    expect(r.state.a).not.toBe((r.state.b as Args).c);
  });

  it('the weather join: exclusive branches write one path, the join reads it either way', async () => {
    for (const [city, expected] of [
      ['Nice', 'park'],
      ['Brest', 'movie'],
    ] as const) {
      const weather = tool('weather', (a) => (a.city === 'Nice' ? { sun: 1 } : branch(1, { rain: 1 })));
      const park = tool('park', () => 'park');
      const movie = tool('movie', () => 'movie');
      const present = tool('present', (a) => a.s);
      const r = await run(
        [
          { _id: 'w', _tool: 'weather', city: '†input.city', _outputPath: '†state.sunny || †state.notSunny' },
          { _id: 'p', _tool: 'park', w: '†state.sunny', _outputPath: '†state.suggestion' },
          { _id: 'm', _tool: 'movie', w: '†state.notSunny', _outputPath: '†state.suggestion' },
          { _id: 'j', _tool: 'present', s: '†state.suggestion', _outputPath: '†state.final' },
        ],
        { tools: [weather, park, movie, present], input: { city } },
      );
      expect(r.state.final).toBe(expected);
      expect(r.status).toBe('succeeded');
      expect(statuses(r)).toEqual(
        expected === 'park'
          ? { w: 'succeeded', p: 'succeeded', m: 'skipped', j: 'succeeded' }
          : { w: 'succeeded', p: 'skipped', m: 'succeeded', j: 'succeeded' },
      );
    }
  });

  it('a join reading †a || †b runs when either side landed', async () => {
    const a = tool('a', () => 'from a');
    const join = tool('join', (x) => x.v);
    const plan = compile(
      [
        { type: 'state', schema: { properties: { never: {} } } },
        {
          type: 'plan',
          plan: [
            { _id: 'a', _tool: 'a', _outputPath: '†state.a' },
            { _id: 'b', _tool: 'a', x: '†state.never', _outputPath: '†state.b' },
            { _id: 'join', _tool: 'join', v: '†state.a || †state.b', _outputPath: '†state.out' },
          ],
        },
      ],
      { tools: [a, join] },
    );
    const r = await run(plan.plan!, { tools: [a, join] });
    expect(statuses(r)).toEqual({ a: 'succeeded', b: 'skipped', join: 'succeeded' });
    expect(r.state.out).toBe('from a');
  });

  it('a diamond with a branch: the skipped side cascades, the other side joins', async () => {
    const start = tool('start', () => branch(0, 1));
    const inc = tool('inc', (a) => (a.v as number) + 1);
    const r = await run(
      [
        { _id: 's', _tool: 'start', _outputPath: '†state.left || †state.right' },
        { _id: 'l', _tool: 'inc', v: '†state.left', _outputPath: '†state.l2' },
        { _id: 'r', _tool: 'inc', v: '†state.right', _outputPath: '†state.r2' },
        { _id: 'r3', _tool: 'inc', v: '†state.r2', _outputPath: '†state.r3' },
        { _id: 'j', _tool: 'inc', v: '†state.l2 || †state.r3', _outputPath: '†state.out' },
      ],
      { tools: [start, inc] },
    );
    expect(statuses(r)).toEqual({
      s: 'succeeded',
      l: 'succeeded',
      r: 'skipped',
      r3: 'skipped',
      j: 'succeeded',
    });
    expect(r.state.out).toBe(3);
  });
});

describe('SPEC 7: terminal states and the run status', () => {
  it('failure cascades as upstream_failed, transitively; independent work continues', async () => {
    const boom = tool('boom', () => {
      throw new Error('no');
    });
    const inc = tool('inc', (a) => a.v);
    const r = await run(
      [
        { _id: 'f', _tool: 'boom', _outputPath: '†state.a' },
        { _id: 'u1', _tool: 'inc', v: '†state.a', _outputPath: '†state.b' },
        { _id: 'u2', _tool: 'inc', v: '†state.b', _outputPath: '†state.c' },
        { _id: 'free', _tool: 'inc', v: 1, _outputPath: '†state.d' },
      ],
      { tools: [boom, inc] },
    );
    expect(statuses(r)).toEqual({
      f: 'failed',
      u1: 'upstream_failed',
      u2: 'upstream_failed',
      free: 'succeeded',
    });
    expect(r.status).toBe('failed');
    expect(r.calls[0]!.error).toEqual({ message: 'no' });
    expect(r.calls[1]).toMatchObject({ attempts: 0, startedAt: null, endedAt: null });
  });

  it('a failed writer followed by a skipped writer of the same path: readers are upstream_failed', async () => {
    const boom = tool('boom', () => {
      throw new Error('no');
    });
    const echo = tool('echo', (a) => a.v);
    const plan = compile(
      [
        { type: 'state', schema: { properties: { gone: {} } } },
        {
          type: 'plan',
          plan: [
            { _id: 'f', _tool: 'boom', _outputPath: '†state.x' },
            { _id: 's', _tool: 'echo', v: '†state.gone', _outputPath: '†state.x' },
            { _id: 'r', _tool: 'echo', v: '†state.x', _outputPath: '†state.y' },
          ],
        },
      ],
      { tools: [boom, echo] },
    );
    const r = await run(plan.plan!, { tools: [boom, echo] });
    expect(statuses(r)).toEqual({ f: 'failed', s: 'skipped', r: 'upstream_failed' });
  });

  it('a later successful write of the path clears an earlier failure', async () => {
    const boom = tool('boom', () => {
      throw new Error('no');
    });
    const echo = tool('echo', (a) => a.v);
    const r = await run(
      [
        { _id: 'f', _tool: 'boom', _outputPath: '†state.x' },
        { _id: 'ok', _tool: 'echo', v: 2, _outputPath: '†state.x' },
        { _id: 'r', _tool: 'echo', v: '†state.x', _outputPath: '†state.y' },
      ],
      { tools: [boom, echo] },
    );
    expect(statuses(r)).toEqual({ f: 'failed', ok: 'succeeded', r: 'succeeded' });
    expect(r.state.y).toBe(2);
  });

  it('every call is in the result, in array order, with ISO times for those that started', async () => {
    const echo = tool('echo', (a) => a.v);
    const r = await run(
      [
        { _id: 'b', _tool: 'echo', v: '†state.a', _outputPath: '†state.b' },
        { _id: 'a', _tool: 'echo', v: 1, _outputPath: '†state.a' },
      ],
      { tools: [echo] },
    );
    expect(r.calls.map((c) => c.id)).toEqual(['b', 'a']);
    for (const c of r.calls) {
      expect(new Date(c.startedAt!).toISOString()).toBe(c.startedAt);
      expect(c.attempts).toBe(1);
    }
    expect(r.state.b).toBe(1);
  });

  it('multiple writers land in array order whatever the timing (deterministic final state)', async () => {
    const slow = tool('slow', async (a) => {
      await wait(a.ms as number);
      return a.v;
    });
    for (let k = 0; k < 3; k++) {
      const r = await run(
        [
          { _tool: 'slow', ms: 30, v: 'first', _outputPath: '†state.x' },
          { _tool: 'slow', ms: 1, v: 'second', _outputPath: '†state.x' },
          { _tool: 'slow', ms: 10, v: { y: 'third' }, _outputPath: '†state.x.deep' },
        ],
        { tools: [slow], concurrency: 8 },
      );
      expect(r.state).toEqual({ x: { deep: { y: 'third' } } });
    }
  });
});

describe('each call: schemas, timeouts, retries, pollution', () => {
  it('resolved arguments are checked before execute: the tool is not called, the message names the argument', async () => {
    const make = tool('make', () => 'five');
    const add = tool('add', (a) => a.n, {
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    });
    const r = await run(
      [
        { _tool: 'make', _outputPath: '†state.n' },
        { _tool: 'add', n: '†state.n', _outputPath: '†state.out' },
      ],
      { tools: [make, add] },
    );
    expect(add.calls).toEqual([]);
    expect(r.calls[1]!.status).toBe('failed');
    expect(r.calls[1]!.error!.code).toBe('INVALID_ARGUMENTS');
    expect(r.calls[1]!.error!.message).toContain("argument 'n'");
  });

  it('outputs are checked against outputSchema', async () => {
    const bad = tool('bad', () => 'not a number', { outputSchema: { type: 'number' } });
    const r = await run([{ _tool: 'bad', _outputPath: '†state.x' }], { tools: [bad] });
    expect(r.calls[0]).toMatchObject({ status: 'failed', error: { code: 'INVALID_OUTPUT' } });
    expect(r.state).toEqual({});
  });

  it('a timeout aborts the tool signal and discards a late result', async () => {
    let aborted = false;
    let reason: unknown;
    const slow: Tool = {
      name: 'slow',
      timeoutMs: 20,
      execute: async (_args, ctx) => {
        ctx.abortSignal.addEventListener('abort', () => {
          aborted = true;
          reason = ctx.abortSignal.reason;
        });
        await wait(80);
        return 'late';
      },
    };
    const r = await run([{ _tool: 'slow', _outputPath: '†state.x' }], { tools: [slow] });
    expect(r.calls[0]).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' } });
    expect(aborted).toBe(true);
    // The tool can tell a timeout from a cancellation by the reason it was aborted with.
    expect(isToolTimeoutError(reason)).toBe(true);
    expect(reason).toMatchObject({ call: r.calls[0]!.id, tool: 'slow', code: 'TIMEOUT', timeoutMs: 20 });
    await wait(100);
    expect(r.state).toEqual({});
  });

  it('the run default timeout applies to tools without their own', async () => {
    const slow = tool('slow', () => wait(200).then(() => 'x'));
    const r = await run([{ _tool: 'slow' }], { tools: [slow], timeoutMs: 10 });
    expect(r.calls[0]!.error!.code).toBe('TIMEOUT');
  });

  it('retries with backoff only where the tool allows them, and reports each retry', async () => {
    let n = 0;
    const flaky = tool(
      'flaky',
      () => {
        if (++n < 3) throw new Error(`try ${n}`);
        return n;
      },
      { retries: { limit: 3, delayMs: 5, factor: 2 } },
    );
    const events: RunEvent[] = [];
    const r = await run([{ _tool: 'flaky', _outputPath: '†state.x' }], {
      tools: [flaky],
      onEvent: (e) => events.push(e),
    });
    expect(r.state.x).toBe(3);
    expect(r.calls[0]!.attempts).toBe(3);
    const retries = events.filter((e) => e.type === 'call:retry');
    expect(retries.map((e) => (e as { delayMs: number }).delayMs)).toEqual([5, 10]);

    let m = 0;
    const once = tool('once', () => {
      m++;
      throw new Error('always');
    });
    const r2 = await run([{ _tool: 'once' }], { tools: [once] });
    expect(m).toBe(1);
    expect(r2.calls[0]!.attempts).toBe(1);
  });

  it('a tool returning {"__proto__": ...} changes nothing outside the state', async () => {
    const evil = tool('evil', () => JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}'));
    const r = await run([{ _tool: 'evil', _outputPath: '†state.x' }], { tools: [evil] });
    expect(({} as Args).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect((r.state.x as Args).ok).toBe(1);
  });

  it('the initial state passed in is never mutated', async () => {
    const make = tool('make', () => 2);
    const state = { a: { b: 1 } };
    await run([{ _tool: 'make', _outputPath: '†state.a.c' }], { tools: [make], state });
    expect(state).toEqual({ a: { b: 1 } });
  });
});

describe('cancellation and fail-fast', () => {
  it('signal aborts running calls and ends pending ones cancelled', async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const hang: Tool = {
      name: 'hang',
      execute: (_a, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.abortSignal.addEventListener('abort', () => {
            sawAbort = isRunCancelledError(ctx.abortSignal.reason);
            reject(new Error('aborted'));
          });
        }),
    };
    const next = tool('next');
    const pending = run(
      [
        { _id: 'h', _tool: 'hang', _outputPath: '†state.x' },
        { _id: 'n', _tool: 'next', v: '†state.x' },
      ],
      {
        tools: [hang, next],
        signal: controller.signal,
        // Once h is running (its start is announced as its tool is called).
        onEvent: (e) => e.type === 'call:start' && setImmediate(() => controller.abort()),
      },
    );
    const r = await pending;
    expect(sawAbort).toBe(true);
    expect(statuses(r)).toEqual({ h: 'cancelled', n: 'cancelled' });
    expect(r.status).toBe('cancelled');
    expect(next.calls).toEqual([]);
  });

  it('failFast stops scheduling after the first unhandled failure', async () => {
    const boom = tool('boom', () => {
      throw new Error('no');
    });
    const later = tool('later');
    const r = await run(
      [
        { _id: 'f', _tool: 'boom' },
        { _id: 'w', _tool: 'later', _outputPath: '†state.a' },
        { _id: 'x', _tool: 'later', v: '†state.a' },
      ],
      { tools: [boom, later], failFast: true, concurrency: 1 },
    );
    expect(statuses(r)).toEqual({ f: 'failed', w: 'cancelled', x: 'cancelled' });
    // The failure is the cause; the cancellations are its consequence.
    expect(r.status).toBe('failed');
    expect(later.calls).toEqual([]);
  });
});

describe('modes and approval', () => {
  it('eager: a latent call with _output is written without running anything', async () => {
    const summarize = tool('summarize', () => 'ran', { latent: true });
    const r = await run([{ _tool: 'summarize', _output: 'written by the model', _outputPath: '†state.s' }], {
      tools: [summarize],
    });
    expect(r.state.s).toBe('written by the model');
    expect(summarize.calls).toEqual([]);
  });

  it('lazy: nothing runs until approve resolves true; rejection calls no tool', async () => {
    const t = tool('t', () => 1);
    const doc = { type: 'plan', mode: 'lazy', plan: [{ _tool: 't', _outputPath: '†state.x' }] };
    const rejected = await run(doc, { tools: [t], approve: async () => false });
    expect(rejected.status).toBe('rejected');
    expect(rejected.calls[0]!.status).toBe('rejected');
    expect(t.calls).toEqual([]);
    const none = await run(doc, { tools: [t] });
    expect(none.status).toBe('rejected');
    const approved = await run(doc, { tools: [t], approve: async (req) => req.kind === 'plan' });
    expect(approved.state.x).toBe(1);
  });

  it('eager: a latent call without _output does not compile, so the latent function is never asked', async () => {
    const asked: string[] = [];
    const think: Tool = { name: 'think', latent: true };
    const latent = ({ call }: { call: string }) => {
      asked.push(call);
      return 'asked';
    };
    const plan = [{ _tool: 'think', _outputPath: '†state.a' }];
    await expect(run(plan, { tools: [think], latent })).rejects.toMatchObject({
      diagnostics: [expect.objectContaining({ code: 'E_NO_OUTPUT' })],
    });
    // Compiled without its tools, nothing knew the tool was latent: the run refuses the call itself.
    const compiled = compile(plan).plan!;
    const r = await run(compiled, { tools: [think], latent });
    expect(r.calls[0]!.error).toMatchObject({ code: 'NO_MODEL', message: expect.stringContaining('eager') });
    expect(asked).toEqual([]);
  });

  it('a || read runs with the first alternative that exists; one never set is simply absent', async () => {
    const greet = tool('greet', (a) => `hi ${String(a.name)}`);
    const plan = [{ _tool: 'greet', name: '†input.nickname || †input.name', _outputPath: '†state.g' }];
    const r = await run(plan, { tools: [greet], input: { name: 'Ada' } });
    expect(r.status).toBe('succeeded');
    expect(r.state).toEqual({ g: 'hi Ada' });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['W_UNRESOLVED_ALTERNATIVE']);
  });

  it('lazy: latent tools run through the latent function; without one they fail clearly', async () => {
    const think: Tool = { name: 'think', latent: true };
    const doc = { type: 'plan', mode: 'lazy', plan: [{ _tool: 'think', q: 'why', _outputPath: '†state.a' }] };
    const r = await run(doc, {
      tools: [think],
      approve: () => true,
      latent: ({ args }) => `because ${args.q}`,
    });
    expect(r.state.a).toBe('because why');
    const r2 = await run(doc, { tools: [think], approve: () => true });
    expect(r2.calls[0]!.error).toMatchObject({ code: 'NO_MODEL' });
  });

  it('needsApproval tools are approved one by one when they become ready', async () => {
    const asked: string[] = [];
    const send = tool('send', (a) => a.to, { needsApproval: true });
    const r = await run(
      [
        { _id: 'yes', _tool: 'send', to: 'alice', _outputPath: '†state.a' },
        { _id: 'no', _tool: 'send', to: 'bob', _outputPath: '†state.b' },
        { _id: 'after', _tool: 'send', to: '†state.b', _outputPath: '†state.c' },
      ],
      {
        tools: [send],
        approve: (req) => {
          if (req.kind !== 'call') return true;
          asked.push(`${req.call}:${String(req.args.to)}`);
          return req.args.to === 'alice';
        },
      },
    );
    expect(asked).toEqual(['yes:alice', 'no:bob']);
    expect(statuses(r)).toEqual({ yes: 'succeeded', no: 'rejected', after: 'skipped' });
    expect(r.status).toBe('rejected');
  });
});

describe('events', () => {
  it('typed events through onEvent and the async iterator, in a sensible order', async () => {
    const t = tool('t', (a) => a.v);
    const seen: RunEvent[] = [];
    const handle = startRun(
      [
        { _id: 'a', _tool: 't', v: 1, _outputPath: '†state.a' },
        { _id: 'b', _tool: 't', v: '†state.a', _outputPath: '†state.b' },
      ],
      { tools: [t], onEvent: (e) => seen.push(e) },
    );
    const iterated: string[] = [];
    for await (const event of handle.events) iterated.push(event.type);
    const result = await handle.result;
    expect(result.status).toBe('succeeded');
    expect(iterated).toEqual(seen.map((e) => e.type));
    expect(iterated).toEqual([
      'run:start',
      'call:ready',
      'call:start',
      'state:write',
      'call:end',
      'call:ready',
      'call:start',
      'state:write',
      'call:end',
      'run:end',
    ]);
    const end = seen.find((e) => e.type === 'call:end' && e.call === 'b');
    expect(end).toMatchObject({ status: 'succeeded', branch: null, attempts: 1, output: 1 });
  });

  it('an observer that throws does not break the run', async () => {
    const t = tool('t');
    const r = await run([{ _tool: 't', _outputPath: '†state.x' }], {
      tools: [t],
      onEvent: () => {
        throw new Error('observer bug');
      },
    });
    expect(r.status).toBe('succeeded');
  });
});

describe('scale and inputs', () => {
  it('a 100,000-call cascade of skips uses no stack', async () => {
    const plan = [];
    plan.push({ _tool: 'echo', v: '†state.gone', _outputPath: '†state.v0' });
    for (let i = 1; i < 100_000; i++)
      plan.push({ _tool: 'echo', v: `†state.v${i - 1}`, _outputPath: `†state.v${i}` });
    const echo: Tool = { name: 'echo', execute: (a) => a.v };
    const compiled = compile(
      [
        { type: 'state', schema: { properties: { gone: {} } } },
        { type: 'plan', plan },
      ],
      {
        tools: [echo],
      },
    );
    const r = await run(compiled.plan!, { tools: [echo] });
    expect(r.calls.every((c) => c.status === 'skipped')).toBe(true);
  });

  it('an invalid plan throws PlanValidationError with the diagnostics', async () => {
    const error = await run([{ _tool: 'nope' }], { tools: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanValidationError);
    expect((error as PlanValidationError).diagnostics[0]!.code).toBe('E_UNKNOWN_TOOL');
  });

  it('rejects bad options with a TypeError naming the value', async () => {
    const opts = (o: Partial<RunOptions>) => ({ tools: [tool('t')], ...o });
    await expect(run([{ _tool: 't' }], opts({ concurrency: 0 }))).rejects.toThrow(/concurrency.*0/);
    await expect(run([{ _tool: 't' }], opts({ timeoutMs: -1 }))).rejects.toThrow(/timeoutMs.*-1/);
  });

  it('concurrency bounds how many tools run at once', async () => {
    const gate = concurrencyGate(3);
    const t: Tool = {
      name: 't',
      execute: async () => {
        await gate.hold();
        return 1;
      },
    };
    await run(
      Array.from({ length: 20 }, (_, i) => ({ _tool: 't', _outputPath: `†state.x${i}` })),
      { tools: [t], concurrency: 3 },
    );
    expect(gate.peak).toBe(3);
  });

  it('synchronous tools between asynchronous ones do not let more than `concurrency` run at once', async () => {
    const gate = concurrencyGate(2);
    const slow: Tool = {
      name: 'slow',
      execute: async () => {
        await gate.hold();
        return 1;
      },
    };
    let syncCalls = 0;
    const quick: Tool = { name: 'quick', execute: () => ++syncCalls };
    const plan = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? { _tool: 'quick', _outputPath: `†state.q${i}` }
        : { _tool: 'slow', _outputPath: `†state.s${i}` },
    );
    const r = await run(plan, { tools: [slow, quick], concurrency: 2 });
    expect(r.status).toBe('succeeded');
    expect(syncCalls).toBe(10);
    expect(gate.peak).toBe(2);
  });

  it('a long run of synchronous tools still lets a timer abort it', async () => {
    const step: Tool = { name: 'step', execute: (args) => (args.n as number) + 1 };
    const n = 20_000;
    const plan = Array.from({ length: n }, (_, i) =>
      i === 0
        ? { _tool: 'step', n: 0, _outputPath: '†state.v0' }
        : { _tool: 'step', n: `†state.v${i - 1}`, _outputPath: `†state.v${i}` },
    );
    const compiled = compile(plan, { tools: [step] });
    const controller = new AbortController();
    // setImmediate runs only when the run yields to the event loop: without the yields every
    // call would end before this abort, all of them succeeded.
    setImmediate(() => controller.abort());
    const r = await run(compiled.plan!, { tools: [step], signal: controller.signal });
    const succeeded = r.calls.filter((c) => c.status === 'succeeded').length;
    expect(r.status).toBe('cancelled');
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThan(n);
    expect(r.calls.filter((c) => c.status === 'cancelled').length).toBe(n - succeeded);
  });
});

describe('fail-fast and retries together', () => {
  it('a retry after fail-fast began does not cancel the other running calls', async () => {
    let tries = 0;
    const flaky: Tool = {
      name: 'flaky',
      retries: { limit: 2, delayMs: 5 },
      execute: async () => {
        tries++;
        await wait(5);
        throw new Error(`try ${tries}`);
      },
    };
    const boom: Tool = {
      name: 'boom',
      execute: () => {
        throw new Error('first failure');
      },
    };
    let sawAbort = false;
    const slow: Tool = {
      name: 'slow',
      execute: async (_args, ctx) => {
        ctx.abortSignal.addEventListener('abort', () => (sawAbort = true));
        await wait(60);
        return 'finished';
      },
    };
    const r = await run(
      [
        { _id: 'slow', _tool: 'slow', _outputPath: '†state.s' },
        { _id: 'flaky', _tool: 'flaky' },
        { _id: 'boom', _tool: 'boom' },
      ],
      { tools: [slow, flaky, boom], failFast: true, concurrency: 4 },
    );
    expect(sawAbort).toBe(false);
    expect(r.calls[0]).toMatchObject({ status: 'succeeded' });
    expect(r.state.s).toBe('finished');
    expect(r.status).toBe('failed');
  });
});
