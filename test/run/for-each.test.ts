/** `_forEach` at run time: one tool run per element, results in element order, failures per element. */
import { describe, expect, it } from 'vitest';
import { compile, run, type RunEvent, type Tool } from '../../src/index.js';

/** A tool whose answers are released by the test, to see elements run at once and end out of order. */
function gatedTool(): { tool: Tool; started: number[]; release: (k: number, value?: unknown) => void } {
  const started: number[] = [];
  const waiting = new Map<number, (value: unknown) => void>();
  const startedAll: (() => void)[] = [];
  void startedAll;
  const tool: Tool = {
    name: 'fetch',
    inputSchema: {
      type: 'object',
      properties: { url: { type: 'string' }, n: { type: 'number' } },
      required: ['url'],
    },
    outputSchema: { type: 'string' },
    execute: (args) => {
      const n = args.n as number;
      started.push(n);
      return new Promise((resolve) => waiting.set(n, resolve));
    },
  };
  return {
    tool,
    started,
    release: (k, value) => waiting.get(k)!(value ?? `page ${k}`),
  };
}

const search: Tool = {
  name: 'search',
  outputSchema: {
    type: 'array',
    items: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  },
  execute: () => [{ url: 'a' }, { url: 'b' }, { url: 'c' }],
};

const fetchAll = (more: Record<string, unknown> = {}) => [
  { _tool: 'search', _outputPath: '†state.results' },
  {
    _tool: 'fetch',
    _id: 'pages',
    url: '†item.url',
    n: '†index',
    _forEach: '†state.results',
    _outputPath: '†state.pages',
    ...more,
  },
];

describe('_forEach at run time', () => {
  it('runs the elements in parallel and writes their results in element order', async () => {
    const gated = gatedTool();
    const events: RunEvent[] = [];
    const done = run(fetchAll(), { tools: [search, gated.tool], onEvent: (e) => events.push(e) });
    // All three started before any answered: they run at once.
    await vi_waitFor(() => gated.started.length === 3);
    gated.release(2);
    gated.release(0);
    gated.release(1);
    const result = await done;
    expect(result.status).toBe('succeeded');
    expect(result.state.pages).toEqual(['page 0', 'page 1', 'page 2']);
    const call = result.calls[1]!;
    expect(call.elements?.map((e) => e.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const elementEvents = events.filter((e) => e.type === 'call:element');
    expect(elementEvents.map((e) => e.type === 'call:element' && [e.call, e.index, e.status])).toEqual([
      ['pages', 2, 'succeeded'],
      ['pages', 0, 'succeeded'],
      ['pages', 1, 'succeeded'],
    ]);
  });

  it('holds no more elements in flight than the run concurrency', async () => {
    const gated = gatedTool();
    const done = run(fetchAll(), { tools: [search, gated.tool], concurrency: 2 });
    await vi_waitFor(() => gated.started.length === 2);
    expect(gated.started).toEqual([0, 1]);
    gated.release(1);
    await vi_waitFor(() => gated.started.length === 3);
    gated.release(0);
    gated.release(2);
    expect((await done).state.pages).toEqual(['page 0', 'page 1', 'page 2']);
  });

  it('writes [] for an empty array, without running the tool', async () => {
    let ran = 0;
    const tool: Tool = { name: 'fetch', execute: () => ran++ };
    const result = await run(
      [{ _tool: 'fetch', url: '†item', _forEach: '†input.urls', _outputPath: '†state.pages' }],
      { tools: [tool], input: { urls: [] } },
    );
    expect(result.status).toBe('succeeded');
    expect(result.state.pages).toEqual([]);
    expect(ran).toBe(0);
  });

  it('fails the call when one element fails, with each element status and error in its report', async () => {
    const tool: Tool = {
      name: 'fetch',
      execute: (args) => {
        if (args.url === 'b') throw Object.assign(new Error('404 for b'), { code: 'NOT_FOUND' });
        return `page ${String(args.url)}`;
      },
    };
    const result = await run(fetchAll(), { tools: [search, tool], concurrency: 1 });
    const call = result.calls[1]!;
    expect(call.status).toBe('failed');
    expect(call.error).toEqual({ message: '404 for b', code: 'NOT_FOUND' });
    expect(call.elements).toEqual([
      { status: 'succeeded', error: null },
      { status: 'failed', error: { message: '404 for b', code: 'NOT_FOUND' } },
      { status: 'not_run', error: null },
    ]);
    expect(result.state.pages).toBeUndefined();
  });

  it('gives a failed element error to the || error alternative, as a failed call would', async () => {
    const tool: Tool = {
      name: 'fetch',
      execute: (args) => {
        if (args.url === 'c') throw new Error('timeout on c');
        return 'ok';
      },
    };
    const result = await run(
      fetchAll({ _outputPath: '†state.pages || †state.fetchError', _onError: '†state.fetchError' }),
      { tools: [search, tool] },
    );
    expect(result.calls[1]!.status).toBe('failed');
    expect(result.calls[1]!.handled).toBe(true);
    expect(result.state.fetchError).toEqual({ message: 'timeout on c' });
    expect(result.status).toBe('succeeded');
  });

  it('fails the call with LIMIT naming maxForEach when the array is longer than the limit', async () => {
    let ran = 0;
    const tool: Tool = { name: 'fetch', execute: () => ran++ };
    const result = await run(
      [{ _tool: 'fetch', url: '†item', _forEach: '†input.urls', _outputPath: '†state.pages' }],
      { tools: [tool], input: { urls: ['a', 'b', 'c'] }, limits: { maxForEach: 2 } },
    );
    const call = result.calls[0]!;
    expect(call.status).toBe('failed');
    expect(call.error?.code).toBe('LIMIT');
    expect(call.error?.message).toContain('the limit is 2');
    expect(call.error?.message).toContain('maxForEach');
    expect(ran).toBe(0);
  });

  it('checks each element arguments against the tool inputSchema', async () => {
    const gated = gatedTool();
    const result = await run(
      [{ _tool: 'fetch', url: '†item', n: '†index', _forEach: '†input.urls', _outputPath: '†state.pages' }],
      { tools: [gated.tool], input: { urls: [1] } },
    );
    expect(result.calls[0]!.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.calls[0]!.error?.message).toContain('element 0');
  });

  it('runs after the call named in _after, and the compiled call depends on the array writer', () => {
    const compiled = compile(fetchAll({ _after: ['0'] }), { tools: [search, gatedTool().tool] });
    expect(compiled.ok).toBe(true);
    expect(compiled.plan!.calls[1]!.dependencies.map((d) => d.from)).toEqual([0]);
  });
});

/** Waits for the run's tools to reach a state, yielding to the event loop between looks. */
async function vi_waitFor(condition: () => boolean): Promise<void> {
  for (let k = 0; k < 1000 && !condition(); k++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}
