/**
 * Only JSON crosses a call boundary, within the limits: what a tool (or the model, or a plan's
 * _output) hands the run is copied as JSON data or the call fails with the path of the bad part.
 */
import { describe, expect, it } from 'vitest';
import { branch, compile, PlanValidationError, type RunResult, run, type Tool } from '../../src/index.js';

function returning(value: () => unknown, extra: Partial<Tool> = {}): Tool {
  return { name: 'make', execute: () => value(), ...extra };
}

async function runOne(tool: Tool, limits = {}): Promise<RunResult> {
  return run(
    [
      { _tool: tool.name, _outputPath: '†state.out' },
      { _tool: 'use', v: '†state.out' },
    ],
    {
      tools: [tool, { name: 'use', execute: (a) => a.v }],
      limits,
    },
  );
}

function cyclic(): unknown {
  const a: Record<string, unknown> = { name: 'a', list: [] };
  (a.list as unknown[]).push(a);
  return a;
}

/** A record whose `balance` is an own, enumerable getter (JSON.stringify would call it). */
class Account {
  id = 7;
  constructor() {
    Object.defineProperty(this, 'balance', {
      enumerable: true,
      get() {
        throw new Error('locked');
      },
    });
  }
}

describe('results that JSON cannot carry fail the call with INVALID_OUTPUT and the path', () => {
  it.each([
    ['a cycle', cyclic, '/list/0', /cycle/],
    ['a nested BigInt', () => ({ total: { cents: 10n } }), '/total/cents', /BigInt/],
    ['a function', () => ({ cb: () => 1 }), '/cb', /function/],
    ['a symbol', () => [Symbol('s')], '/0', /symbol/],
    ['a Map', () => ({ m: new Map() }), '/m', /Map/],
    ['a getter that throws', () => new Account(), '/balance', /locked/],
    [
      'a revoked Proxy',
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return { p: proxy };
      },
      '/p',
      /cannot be read/,
    ],
  ])('%s', async (_name, make, pointer, message) => {
    const result = await runOne(returning(make));
    const [made, used] = result.calls;
    expect(made!.status).toBe('failed');
    expect(made!.error!.code).toBe('INVALID_OUTPUT');
    if (pointer !== '') expect(made!.error!.message).toContain(`result at ${pointer}`);
    expect(made!.error!.message).toMatch(message);
    expect(used!.status).toBe('upstream_failed');
    expect(result.status).toBe('failed');
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('NaN becomes null as in JSON, and then meets the output schema', async () => {
    const loose = await runOne(returning(() => ({ n: Number.NaN })));
    expect(loose.state.out).toEqual({ n: null });
    const typed = await runOne(
      returning(() => ({ n: Number.NaN }), {
        outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      }),
    );
    expect(typed.calls[0]!.status).toBe('failed');
    expect(typed.calls[0]!.error!.code).toBe('INVALID_OUTPUT');
  });

  it('a Date and a class instance without traps are stored as JSON would write them', async () => {
    class Point {
      x = 1;
      y = 2;
    }
    const result = await runOne(returning(() => ({ at: new Date(0), p: new Point() })));
    expect(result.state.out).toEqual({ at: '1970-01-01T00:00:00.000Z', p: { x: 1, y: 2 } });
  });

  it('the branch value of a tool is unwrapped and its value copied', async () => {
    const result = await run([{ _tool: 'b', _outputPath: '†state.ok || †state.err' }], {
      tools: [{ name: 'b', execute: () => branch(1, { why: 10n }) }],
    });
    expect(result.calls[0]!.error!.code).toBe('INVALID_OUTPUT');
    expect(result.calls[0]!.error!.message).toContain('result at /why');
  });
});

describe('results over the limits fail the call with LIMIT', () => {
  it('a result nested deeper than maxDepth, counting the output path', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const result = await runOne(returning(() => deep));
    expect(result.calls[0]!.error!.code).toBe('LIMIT');
    // †state.out is one level: the result may nest maxDepth - 1 deep under it.
    let fits: unknown = 1;
    for (let i = 0; i < 3; i++) fits = [fits];
    expect(
      (
        await runOne(
          returning(() => fits),
          { maxDepth: 4 },
        )
      ).status,
    ).toBe('succeeded');
    expect(
      (
        await runOne(
          returning(() => fits),
          { maxDepth: 3 },
        )
      ).calls[0]!.error!.code,
    ).toBe('LIMIT');
  });

  it('a result larger than maxTextLength, and a state that would grow past it', async () => {
    const big = await runOne(
      returning(() => 'x'.repeat(2_000)),
      { maxTextLength: 1_000 },
    );
    expect(big.calls[0]!.error!.code).toBe('LIMIT');
    // Each result fits; together they do not.
    const calls = Array.from({ length: 5 }, (_, i) => ({ _tool: 'make', _outputPath: `†state.k${i}` }));
    const grown = await run(calls, {
      tools: [returning(() => 'y'.repeat(300))],
      limits: { maxTextLength: 1_000 },
    });
    expect(grown.calls.map((c) => c.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'failed',
      'failed',
    ]);
    expect(grown.calls[3]!.error!.code).toBe('LIMIT');
    expect(JSON.stringify(grown.state).length).toBeLessThanOrEqual(1_000);
  });

  it('a huge sparse array is refused before its holes are walked', async () => {
    const result = await runOne(
      returning(() => {
        const list: unknown[] = [];
        list.length = 2 ** 32 - 1;
        return list;
      }),
    );
    expect(result.calls[0]!.error!.code).toBe('LIMIT');
  });

  it('the model’s own _output is held to the same limits as a tool’s result', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = { d: deep };
    const text = JSON.stringify([{ _tool: 'think', _output: deep, _outputPath: '†state.t' }]);
    const compiled = compile(text, { tools: [{ name: 'think', latent: true }] });
    expect(compiled.ok).toBe(false);
    expect(compiled.diagnostics.map((d) => d.code)).toContain('E_LIMIT');
    // Within the limit at compile time, but too deep once written at a long path.
    let within: unknown = 1;
    for (let i = 0; i < 62; i++) within = { d: within };
    const long = '†state.a.b.c.d.e';
    const result = await run(JSON.stringify([{ _tool: 'think', _output: within, _outputPath: long }]), {
      tools: [{ name: 'think', latent: true }],
    });
    expect(result.calls[0]!.error!.code).toBe('LIMIT');
  });
});

describe('an index far past an array’s end is refused before it can amplify', () => {
  it.each(['99999999', '4294967294', '4294967295', '1000000000000000000000'])(
    '†state.a[%s] is E_LIMIT at compile time',
    (index) => {
      const text = `[{"_tool": "t", "_outputPath": "†state.a[${index}]"}, {"_tool": "t", "v": "†state.a"}]`;
      const result = compile(text, { tools: [{ name: 't' }] });
      expect(result.ok).toBe(false);
      const limit = result.diagnostics.find((d) => d.code === 'E_LIMIT')!;
      expect(limit.message).toMatch(/largest index allowed/);
      expect(limit.pointer).toBe('/0/_outputPath');
      expect(limit.column).toBeGreaterThan(1);
    },
  );

  it('within maxArrayIndex, the holes still count against the state’s size', async () => {
    const result = await run([{ _tool: 't', _outputPath: '†state.a[900000]' }], {
      tools: [{ name: 't', execute: () => 1 }],
      limits: { maxTextLength: 100_000 },
    });
    expect(result.calls[0]!.status).toBe('failed');
    expect(result.calls[0]!.error!.code).toBe('LIMIT');
    expect(result.state).toEqual({});
  });
});

describe('thrown values of any type become {message, code?}', () => {
  it.each([
    ['a string', () => 'plain text', /plain text/],
    ['null', () => null, /threw null/],
    ['undefined', () => undefined, /threw undefined/],
    ['a BigInt', () => 10n, /threw 10n/],
    ['a cyclic object', cyclic, /cannot hold/],
    ['a plain object with a message and a code', () => ({ message: 'declined', code: 'CARD' }), /declined/],
    [
      'an Error whose message getter throws',
      () => {
        const e = new Error('x');
        Object.defineProperty(e, 'message', {
          get() {
            throw new Error('trap');
          },
        });
        return e;
      },
      /cannot be read/,
    ],
    ['a megabyte of text', () => 'e'.repeat(1_000_000), /more characters/],
  ])('%s', async (_name, thrown, message) => {
    const result = await run([{ _tool: 'boom' }], {
      tools: [
        {
          name: 'boom',
          execute: () => {
            throw thrown();
          },
        },
      ],
    });
    const error = result.calls[0]!.error!;
    expect(error.message).toMatch(message);
    expect(error.message.length).toBeLessThan(20_000);
    expect(() => JSON.stringify(result)).not.toThrow();
    if (_name.includes('code')) expect(error.code).toBe('CARD');
  });
});

describe('run options and initial values are checked', () => {
  it.each([
    [{ concurrency: 'x' }, /concurrency/],
    [{ concurrency: 0 }, /concurrency/],
    [{ timeoutMs: Infinity }, /timeoutMs/],
    [{ timeoutMs: -1 }, /timeoutMs/],
    [{ failFast: 'yes' }, /failFast/],
    [{ onEvent: 1 }, /onEvent/],
    [{ signal: {} }, /signal/],
    [{ limits: { maxDepth: 5000 } }, /maxDepth/],
    [{ limits: { maxDepht: 3 } }, /Unknown limit/],
    [{ state: [] }, /state/],
  ])('%j is a TypeError naming the option', async (options, message) => {
    const tools = [{ name: 't', execute: () => 1 }];
    await expect(run([{ _tool: 't' }], { tools, ...(options as object) })).rejects.toThrow(TypeError);
    await expect(run([{ _tool: 't' }], { tools, ...(options as object) })).rejects.toThrow(message);
  });

  it('an initial state over the limits is a PlanValidationError (E_LIMIT); one JSON cannot hold, a TypeError', async () => {
    const tools = [{ name: 't', execute: () => 1 }];
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) deep = { d: deep };
    await expect(run([{ _tool: 't' }], { tools, state: deep })).rejects.toThrow(PlanValidationError);
    await expect(run([{ _tool: 't' }], { tools, state: { f: () => 1 } as never })).rejects.toThrow(TypeError);
  });
});

describe('what a call reads is frozen and shared, never a per-call copy', () => {
  it('every reader of a value gets the same frozen value; a tool that changes it fails, and nothing changes', async () => {
    const seen: unknown[] = [];
    const tools: Tool[] = [
      { name: 'make', execute: () => ({ list: [1, 2], nested: { k: 'v' } }) },
      {
        name: 'look',
        execute: (args) => {
          seen.push(args.v);
          return 1;
        },
      },
      {
        name: 'change',
        execute: (args) => {
          (args.v as { list: number[] }).list.push(3);
          return 1;
        },
      },
    ];
    const result = await run(
      [
        { _tool: 'make', _outputPath: '†state.big' },
        { _tool: 'look', v: '†state.big' },
        { _tool: 'look', v: '†state.big' },
        { _tool: 'change', v: '†state.big' },
      ],
      { tools },
    );
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(result.calls[3]!.status).toBe('failed');
    expect(result.calls[3]!.error!.message).toMatch(/not extensible|read only|frozen/);
    expect(result.state.big).toEqual({ list: [1, 2], nested: { k: 'v' } });
  });

  it('the caller’s initial state and input are read through frozen copies and left as they were', async () => {
    const state = { shared: { n: 1 } };
    const input = { q: { text: 'x' } };
    let got: Record<string, unknown> = {};
    await run([{ _tool: 'look', s: '†state.shared', q: '†input.q', _outputPath: '†state.shared.m' }], {
      tools: [
        {
          name: 'look',
          execute: (args) => {
            got = args;
            return 2;
          },
        },
      ],
      state,
      input,
    });
    expect(Object.isFrozen(got.s) && Object.isFrozen(got.q)).toBe(true);
    expect(Object.isFrozen(state.shared) || Object.isFrozen(input.q)).toBe(false);
    expect(state).toEqual({ shared: { n: 1 } });
    // The arguments object itself is the call's own.
    expect(Object.isFrozen(got)).toBe(false);
  });
});
