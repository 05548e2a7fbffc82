/**
 * `_forEach` over a workflow: the delegated loop. Each element runs the workflow's sub-plan, the
 * elements at once within the run's concurrency, the output in element order; an element whose
 * sub-plan fails fails the call, with its status and error in the call's report.
 */
import { describe, expect, it } from 'vitest';
import { run, type RunEvent, type Tool } from '../../src/index.js';

/** A fetch whose answers the test releases, so elements are seen in flight and end out of order. */
function gatedFetch(): { tool: Tool; started: number[]; release: (n: number) => void } {
  const started: number[] = [];
  const waiting = new Map<number, (value: unknown) => void>();
  const tool: Tool = {
    name: 'fetch',
    inputSchema: {
      type: 'object',
      properties: { url: { type: 'string' }, n: { type: 'integer' } },
      required: ['url', 'n'],
    },
    outputSchema: { type: 'string' },
    execute: (args) => {
      const n = args.n as number;
      started.push(n);
      if (args.url === 'broken') throw Object.assign(new Error('404 for broken'), { code: 'NOT_FOUND' });
      return new Promise((resolve) => waiting.set(n, resolve));
    },
  };
  return { tool, started, release: (n) => waiting.get(n)!(`page ${n}`) };
}

const shout: Tool = {
  name: 'shout',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  outputSchema: { type: 'string' },
  execute: ({ text }) => String(text).toUpperCase(),
};

/** The workflow each element runs: fetch the page, then shout it. */
const readPage: Tool = {
  name: 'readPage',
  inputSchema: {
    type: 'object',
    properties: { url: { type: 'string' }, n: { type: 'integer' } },
    required: ['url', 'n'],
  },
  plan: [
    { _id: 'fetch', _tool: 'fetch', url: '†input.url', n: '†input.n', _outputPath: '†state.page' },
    { _id: 'shout', _tool: 'shout', text: '†state.page', _outputPath: '†state.loud' },
  ],
  output: { n: '†input.n', text: '†state.loud' },
};

const readAll = () =>
  [
    {
      _id: 'read',
      _tool: 'readPage',
      url: '†item',
      n: '†index',
      _forEach: '†input.urls',
      _outputPath: '†state.pages',
    },
  ] as const;

async function until(condition: () => boolean): Promise<void> {
  for (let k = 0; k < 1000 && !condition(); k++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

describe('_forEach over a workflow', () => {
  it('runs one sub-plan per element, at once, and writes their outputs in element order', async () => {
    const fetch = gatedFetch();
    const events: RunEvent[] = [];
    const done = run(readAll() as never, {
      tools: [fetch.tool, shout, readPage],
      input: { urls: ['a', 'b', 'c'] },
      onEvent: (event) => events.push(event),
    });
    // Every element's sub-plan reached its fetch before any fetch answered.
    await until(() => fetch.started.length === 3);
    fetch.release(2);
    fetch.release(0);
    fetch.release(1);
    const result = await done;
    expect(result.status).toBe('succeeded');
    expect(result.state.pages).toEqual([
      { n: 0, text: 'PAGE 0' },
      { n: 1, text: 'PAGE 1' },
      { n: 2, text: 'PAGE 2' },
    ]);
    expect(result.calls[0]!.elements?.map((e) => e.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    // Each sub-plan ran both its calls, as calls of the workflow call `read`.
    const parents = events
      .filter((e) => e.type === 'call:end')
      .map((e) => (e as { parentCall?: string }).parentCall)
      .filter((parent) => parent !== undefined);
    expect(parents.length).toBe(6);
    expect(new Set(parents.map((parent) => parent.split('[')[0]))).toEqual(new Set(['read']));
  });

  it('holds no more elements in flight than the run concurrency', async () => {
    const fetch = gatedFetch();
    const done = run(readAll() as never, {
      tools: [fetch.tool, shout, readPage],
      input: { urls: ['a', 'b', 'c'] },
      concurrency: 2,
    });
    await until(() => fetch.started.length === 2);
    // Give the run every chance to start a third element too soon.
    for (let k = 0; k < 50; k++) await new Promise((resolve) => setImmediate(resolve));
    expect(fetch.started).toEqual([0, 1]);
    fetch.release(1);
    await until(() => fetch.started.length === 3);
    fetch.release(0);
    fetch.release(2);
    const result = await done;
    expect(result.status).toBe('succeeded');
    expect((result.state.pages as { n: number }[]).map((page) => page.n)).toEqual([0, 1, 2]);
  });

  it('fails the call when one element’s sub-plan fails, with that element’s status and error', async () => {
    const fetch = gatedFetch();
    const done = run(readAll() as never, {
      tools: [fetch.tool, shout, readPage],
      input: { urls: ['a', 'broken', 'c'] },
      concurrency: 1,
    });
    await until(() => fetch.started.length === 1);
    fetch.release(0);
    const result = await done;
    expect(result.status).toBe('failed');
    const call = result.calls[0]!;
    expect(call.status).toBe('failed');
    expect(call.elements?.map((e) => e.status)).toEqual(['succeeded', 'failed', 'not_run']);
    const error = call.elements![1]!.error!;
    expect(error.message).toContain('readPage');
    expect(error.message).toContain('404 for broken');
    expect(call.error).toEqual(error);
    expect(result.state.pages).toBeUndefined();
    // The element after the failed one never started its sub-plan.
    expect(fetch.started).toEqual([0, 1]);
  });
});
