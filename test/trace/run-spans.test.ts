/**
 * run() with tracing: spans from the real OpenTelemetry SDK (BasicTracerProvider and the
 * in-memory exporter): the run, each call as a GenAI `execute_tool` span, attempts, elements,
 * workflow sub-runs, links to the calls waited on, and no arguments or results unless asked.
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { run, type Tool } from '../../src/index.js';
import { callSpan, memoryProvider, named, parentOf } from './helpers.js';

const fetchPage: Tool = { name: 'fetch', execute: (args) => `page of ${String(args.url)}` };
const summarize: Tool = { name: 'summarize', execute: async (args) => `summary: ${String(args.text)}` };

const PLAN = [
  { _id: 'a', _tool: 'fetch', url: 'https://a', _outputPath: '†state.a' },
  { _id: 'b', _tool: 'fetch', url: 'https://b', _outputPath: '†state.b' },
  { _id: 's', _tool: 'summarize', text: '†state.a', more: '†state.b', _outputPath: '†state.s' },
];

afterEach(() => trace.disable());

describe('run() with a tracer provider', () => {
  it('makes a run span with an execute_tool span per call under it, carrying the GenAI attributes', async () => {
    const { provider, spans } = memoryProvider();
    const result = await run(PLAN, { tools: [fetchPage, summarize], tracing: { tracerProvider: provider } });
    expect(result.status).toBe('succeeded');
    const all = spans();
    const [root] = named(all, 'run plan');
    expect(root).toBeDefined();
    expect(root!.parentSpanContext).toBeUndefined();
    expect(root!.attributes).toMatchObject({ 'planmode.run.calls': 3, 'planmode.run.status': 'succeeded' });
    for (const id of ['a', 'b', 's']) {
      const span = callSpan(all, id);
      expect(parentOf(span, all)).toBe(root);
      expect(span.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.call.id': id,
        'planmode.call.status': 'succeeded',
      });
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
    }
    expect(callSpan(all, 's').name).toBe('execute_tool summarize');
    expect(callSpan(all, 's').attributes['gen_ai.tool.name']).toBe('summarize');
    // One attempt span under each call.
    expect(
      named(all, 'attempt 1')
        .map((s) => parentOf(s, all)?.attributes['gen_ai.tool.call.id'])
        .sort(),
    ).toEqual(['a', 'b', 's']);
  });

  it('links each call to the calls it waited on', async () => {
    const { provider, spans } = memoryProvider();
    await run(PLAN, { tools: [fetchPage, summarize], tracing: { tracerProvider: provider } });
    const all = spans();
    const s = callSpan(all, 's');
    const linked = s.links.map((l) => l.context.spanId).sort();
    expect(linked).toEqual(
      [callSpan(all, 'a').spanContext().spanId, callSpan(all, 'b').spanContext().spanId].sort(),
    );
    expect(s.links.map((l) => l.attributes?.['planmode.dependency.call']).sort()).toEqual(['a', 'b']);
    expect(callSpan(all, 'a').links).toEqual([]);
  });

  it('records neither arguments nor results by default, and both when asked', async () => {
    const secret: Tool = { name: 'login', execute: () => 'token-123' };
    const plan = [{ _id: 'l', _tool: 'login', password: 'hunter2', _outputPath: '†state.t' }];
    const off = memoryProvider();
    await run(plan, { tools: [secret], tracing: { tracerProvider: off.provider } });
    const text = JSON.stringify(off.spans().map((s) => [s.attributes, s.events, s.links]));
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('token-123');
    const on = memoryProvider();
    await run(plan, {
      tools: [secret],
      tracing: { tracerProvider: on.provider, recordArguments: true, recordResults: true },
    });
    const span = callSpan(on.spans(), 'l');
    expect(JSON.parse(span.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({
      password: 'hunter2',
    });
    expect(JSON.parse(span.attributes['gen_ai.tool.call.result'] as string)).toBe('token-123');
  });

  it('marks a failed call ERROR with error.type, and gives each retry its own attempt span', async () => {
    let tries = 0;
    const flaky: Tool = {
      name: 'flaky',
      retries: { limit: 2, delayMs: 0 },
      execute: () => {
        tries++;
        throw Object.assign(new Error(`down ${tries}`), { code: 'UNAVAILABLE' });
      },
    };
    const { provider, spans } = memoryProvider();
    const result = await run([{ _id: 'f', _tool: 'flaky', _outputPath: '†state.f' }], {
      tools: [flaky],
      tracing: { tracerProvider: provider },
    });
    expect(result.status).toBe('failed');
    const all = spans();
    const call = callSpan(all, 'f');
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toBe(result.calls[0]!.error!.code ?? '_OTHER');
    expect(call.attributes['planmode.call.attempts']).toBe(3);
    const attempts = all.filter((s) => parentOf(s, all) === call);
    expect(attempts.map((s) => s.name).sort()).toEqual(['attempt 1', 'attempt 2', 'attempt 3']);
    for (const attempt of attempts) expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
    const [root] = named(all, 'run plan');
    expect(root!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('gives each _forEach element a span under the call’s attempt', async () => {
    const { provider, spans } = memoryProvider();
    const list: Tool = { name: 'list', execute: () => ['x', 'y', 'z'] };
    await run(
      [
        { _id: 'l', _tool: 'list', _outputPath: '†state.urls' },
        { _id: 'f', _tool: 'fetch', _forEach: '†state.urls', url: '†item', _outputPath: '†state.pages' },
      ],
      { tools: [list, fetchPage], tracing: { tracerProvider: provider } },
    );
    const all = spans();
    const attempt = all.find((s) => s.name === 'attempt 1' && parentOf(s, all) === callSpan(all, 'f'));
    for (const k of [0, 1, 2]) {
      const element = callSpan(all, `f[${k}]`);
      expect(element.name).toBe('execute_tool fetch');
      expect(element.attributes).toMatchObject({
        'planmode.element.index': k,
        'planmode.element.status': 'succeeded',
      });
      expect(parentOf(element, all)).toBe(attempt);
    }
  });

  it('runs a workflow’s sub-plan under the workflow call’s span, with its own call spans', async () => {
    const { provider, spans } = memoryProvider();
    const digest: Tool = {
      name: 'digest',
      plan: [
        { _id: 'in', _tool: 'fetch', url: '†input.url', _outputPath: '†state.page' },
        { _id: 'sum', _tool: 'summarize', text: '†state.page', _outputPath: '†state.out' },
      ],
      output: '†state.out',
    };
    const result = await run([{ _id: 'w', _tool: 'digest', url: 'https://w', _outputPath: '†state.w' }], {
      tools: [fetchPage, summarize, digest],
      tracing: { tracerProvider: provider },
    });
    expect(result.status).toBe('succeeded');
    const all = spans();
    const workflowCall = callSpan(all, 'w');
    const [subRun] = named(all, 'run workflow digest');
    expect(subRun).toBeDefined();
    expect(parentOf(parentOf(subRun!, all)!, all)).toBe(workflowCall);
    expect(parentOf(callSpan(all, 'sum'), all)).toBe(subRun);
    expect(callSpan(all, 'sum').links.map((l) => l.context.spanId)).toEqual([
      callSpan(all, 'in').spanContext().spanId,
    ]);
    expect(all.every((s) => s.spanContext().traceId === workflowCall.spanContext().traceId)).toBe(true);
  });

  it('uses the global tracer provider when one is registered, and none with tracing: false', async () => {
    const { provider, spans } = memoryProvider();
    trace.setGlobalTracerProvider(provider);
    await run(PLAN, { tools: [fetchPage, summarize] });
    expect(named(spans(), 'run plan')).toHaveLength(1);
    await run(PLAN, { tools: [fetchPage, summarize], tracing: false });
    expect(named(spans(), 'run plan')).toHaveLength(1);
  });

  it('rejects a bad tracing option with a TypeError naming it', async () => {
    await expect(
      run(PLAN, { tools: [fetchPage, summarize], tracing: { tracerProvider: {} as never } }),
    ).rejects.toThrow(/tracing\.tracerProvider/);
    await expect(
      run(PLAN, { tools: [fetchPage, summarize], tracing: { recordArgs: true } as never }),
    ).rejects.toThrow(/Unknown tracing option "recordArgs"/);
  });
});
