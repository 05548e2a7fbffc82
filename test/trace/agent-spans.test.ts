/**
 * PlanAgent with tracing, against the loopback Chat Completions server (the real wire protocol)
 * and the real OpenTelemetry SDK with the in-memory exporter: an `invoke_agent` span per
 * solve(), plan() or execute(), a `chat` span per model turn under it with the GenAI attributes,
 * the runs of the plans it wrote under it too; failures marked ERROR; no messages recorded
 * unless asked; nothing made with tracing off.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import {
  OpenAICompatibleProvider,
  PlanAgent,
  type PlanAgentOptions,
  planTodos,
} from '../../src/agent/index.js';
import type { Tool } from '../../src/index.js';
import { type ChatServer, chatServer, type Play } from '../agent/chat-server.js';
import { type FakeServer, startServer } from '../agent/providers/fake-server.js';
import { callSpan, memoryProvider, named, parentOf } from './helpers.js';

const lookup: Tool = {
  name: 'lookup',
  inputSchema: { type: 'object', properties: { symbol: { type: 'string' } }, required: ['symbol'] },
  annotations: { readOnlyHint: true },
  execute: ({ symbol }) => (symbol === 'ACME' ? 42 : 7),
};

/** A reply that names a tool that does not exist: the loop sends it back for repair. */
const UNKNOWN_TOOL = JSON.stringify({
  calls: [{ _id: 'x', _tool: 'nope', _outputPath: '†state.x' }],
  output: null,
});
/** A plan with one call and its answer: it runs, and the loop ends with the answer. */
const LOOKUP_AND_ANSWER = JSON.stringify({
  calls: [{ _id: 'l0', _tool: 'lookup', symbol: '†input.symbol', _outputPath: '†state.price' }],
  output: 'the price of ACME',
});

let server: ChatServer | FakeServer | undefined;
afterEach(async () => {
  trace.disable();
  await server?.close();
  server = undefined;
});

async function agentAgainst(plays: readonly Play[], options: Partial<PlanAgentOptions> = {}) {
  const chat = await chatServer(plays);
  server = chat;
  return new PlanAgent({ provider: providerAt(chat.url), tools: [lookup], ...options });
}

function providerAt(url: string): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    model: 'test-model',
    baseURL: `${url}/v1`,
    requireApiKey: false,
    maxRetries: 0,
  });
}

function agentSpan(spans: readonly ReadableSpan[]): ReadableSpan {
  const found = named(spans, 'invoke_agent PlanAgent');
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('PlanAgent with a tracer provider', () => {
  it('gives solve() an invoke_agent span with a chat span per turn (a repair included) and the run under it', async () => {
    const { provider, spans } = memoryProvider();
    const agent = await agentAgainst([{ text: UNKNOWN_TOOL }, { text: LOOKUP_AND_ANSWER }], {
      tracing: { tracerProvider: provider },
    });
    const result = await agent.solve({ symbol: 'ACME' });
    expect(result.status).toBe('done');
    const all = spans();
    const root = agentSpan(all);
    expect(root.parentSpanContext).toBeUndefined();
    expect(root.kind).toBe(SpanKind.INTERNAL);
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'PlanAgent',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-model',
      'planmode.agent.phase': 'solve',
      'planmode.agent.status': 'done',
      'planmode.agent.turns': 2,
      'gen_ai.usage.input_tokens': 200,
      'gen_ai.usage.output_tokens': 40,
    });
    expect(root.status.code).toBe(SpanStatusCode.UNSET);

    const chats = named(all, 'chat test-model');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(parentOf(chat, all)).toBe(root);
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.status.code).toBe(SpanStatusCode.UNSET);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'test-model',
        'gen_ai.output.type': 'json',
        'gen_ai.response.model': 'test-model',
        'gen_ai.response.id': 'chatcmpl-loop',
        'gen_ai.response.finish_reasons': ['stop'],
        'gen_ai.usage.input_tokens': 100,
        'gen_ai.usage.output_tokens': 20,
      });
    }
    expect(chats.map((c) => c.attributes['planmode.agent.turn']).sort()).toEqual([1, 2]);

    // Both replies ran as they streamed (the first one's run was halted when it turned out
    // unusable): each run under the agent's span, the second plan's call under its run.
    const runs = named(all, 'run plan');
    expect(runs.map((r) => parentOf(r, all))).toEqual([root, root]);
    expect(runs).toContain(parentOf(callSpan(all, 'l0'), all));
    expect(all.every((s) => s.spanContext().traceId === root.spanContext().traceId)).toBe(true);
  });

  it('puts each turn and each run of a longer solve() under the one agent span', async () => {
    const { provider, spans } = memoryProvider();
    const planOnly = JSON.stringify({
      calls: [{ _id: 'l0', _tool: 'lookup', symbol: '†input.symbol', _outputPath: '†state.price' }],
      output: null,
    });
    const agent = await agentAgainst(
      [{ text: planOnly }, { text: JSON.stringify({ calls: [], output: 42 }) }],
      {
        tracing: { tracerProvider: provider },
      },
    );
    const result = await agent.solve({ symbol: 'ACME' });
    expect(result).toMatchObject({ status: 'done', output: 42, iterations: 2 });
    const all = spans();
    const root = agentSpan(all);
    expect(named(all, 'chat test-model').map((s) => parentOf(s, all))).toEqual([root, root]);
    expect(named(all, 'run plan').map((s) => parentOf(s, all))).toEqual([root]);
  });

  it('marks a turn whose request fails, and the agent span, ERROR with error.type', async () => {
    const { provider, spans } = memoryProvider();
    server = await startServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }));
    });
    const agent = new PlanAgent({
      provider: providerAt(server.url),
      tools: [lookup],
      tracing: { tracerProvider: provider },
    });
    await expect(agent.solve({ symbol: 'ACME' })).rejects.toThrow();
    const all = spans();
    const root = agentSpan(all);
    const [chat] = named(all, 'chat test-model');
    expect(parentOf(chat!, all)).toBe(root);
    for (const span of [chat!, root]) {
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('503');
    }
    expect(root.attributes['planmode.agent.status']).toBeUndefined();
  });

  it('marks a turn whose reply the agent stopped reading (past maxReplyBytes) ERROR incomplete', async () => {
    const { provider, spans } = memoryProvider();
    const agent = await agentAgainst(
      [{ text: LOOKUP_AND_ANSWER.padEnd(4096, ' ') }, { text: LOOKUP_AND_ANSWER }],
      {
        tracing: { tracerProvider: provider },
      },
    );
    const result = await agent.solve({ symbol: 'ACME' }, { maxReplyBytes: 1024 });
    expect(result.status).toBe('done');
    const [cut, repaired] = named(spans(), 'chat test-model');
    expect(cut!.status.code).toBe(SpanStatusCode.ERROR);
    expect(cut!.attributes['error.type']).toBe('incomplete');
    expect(cut!.attributes['gen_ai.response.finish_reasons']).toBeUndefined();
    expect(repaired!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records no messages by default, and the request and reply when the tracing option asks', async () => {
    const secretTask = { symbol: 'ACME', password: 'hunter2' };
    const off = memoryProvider();
    const agent = await agentAgainst([{ text: LOOKUP_AND_ANSWER }], {
      tracing: { tracerProvider: off.provider },
    });
    await agent.solve(secretTask);
    const text = JSON.stringify(off.spans().map((s) => [s.attributes, s.events, s.links]));
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('the price of ACME');
    for (const span of off.spans()) {
      expect(span.attributes['gen_ai.input.messages']).toBeUndefined();
      expect(span.attributes['gen_ai.output.messages']).toBeUndefined();
    }
    await server?.close();

    const on = memoryProvider();
    const recording = await agentAgainst([{ text: LOOKUP_AND_ANSWER }], {
      tracing: { tracerProvider: on.provider, recordArguments: true, recordResults: true },
    });
    await recording.solve(secretTask);
    const [chat] = named(on.spans(), 'chat test-model');
    const input = JSON.parse(chat!.attributes['gen_ai.input.messages'] as string) as {
      role: string;
      parts: { type: string; content: string }[];
    }[];
    expect(input.map((m) => m.role)).toEqual(['system', 'user']);
    expect(input[1]!.parts[0]!.type).toBe('text');
    expect(input[1]!.parts[0]!.content).toContain('hunter2');
    expect(JSON.parse(chat!.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: LOOKUP_AND_ANSWER }], finish_reason: 'stop' },
    ]);
    // The same option records the run's calls' arguments and results.
    expect(callSpan(on.spans(), 'l0').attributes['gen_ai.tool.call.result']).toBe('42');
  });

  it('gives plan() and execute() their own invoke_agent span with their turns', async () => {
    const { provider, spans } = memoryProvider();
    const agent = await agentAgainst([{ text: 'Plan: look up ACME.' }, { text: 'ACME costs 42.' }], {
      tracing: { tracerProvider: provider },
    });
    const messages = [{ role: 'user' as const, content: 'What does ACME cost?' }];
    expect((await agent.plan(messages)).status).toBe('planned');
    expect((await agent.execute(messages)).status).toBe('answered');
    const all = spans();
    const agents = named(all, 'invoke_agent PlanAgent');
    expect(
      agents.map((s) => [s.attributes['planmode.agent.phase'], s.attributes['planmode.agent.status']]),
    ).toEqual([
      ['plan', 'planned'],
      ['execute', 'answered'],
    ]);
    const chats = named(all, 'chat test-model');
    expect(chats.map((s) => parentOf(s, all))).toEqual(agents);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.output.type': 'text',
      'gen_ai.response.finish_reasons': ['stop'],
    });
  });

  it('gives a todo plan an invoke_agent TodoPlan span for planTodos() and for execute(), a chat span per turn', async () => {
    const { provider, spans } = memoryProvider();
    const todoList = { todos: [{ id: 'price', description: 'look up ACME', intent: 'to answer' }] };
    const chat = await chatServer([
      { text: JSON.stringify(todoList) },
      { text: 'ACME costs 42.' },
      { text: JSON.stringify({ action: 'finish', changes: [], result: 'ACME costs 42' }) },
    ]);
    server = chat;
    const options = {
      provider: providerAt(chat.url),
      tools: [lookup],
      tracing: { tracerProvider: provider },
    };
    const plan = await planTodos('Find the price of ACME', options);
    expect((await plan.execute()).state).toBe('completed');
    const all = spans();
    const agents = named(all, 'invoke_agent TodoPlan');
    expect(
      agents.map((s) => [
        s.attributes['gen_ai.agent.name'],
        s.attributes['planmode.agent.phase'],
        s.attributes['planmode.agent.status'],
        s.attributes['planmode.agent.turns'],
      ]),
    ).toEqual([
      ['TodoPlan', 'plan', 'created', 1],
      ['TodoPlan', 'execute', 'completed', 2],
    ]);
    const chats = named(all, 'chat test-model');
    expect(chats.map((s) => parentOf(s, all))).toEqual([agents[0], agents[1], agents[1]]);
    expect(chats.map((s) => s.attributes['gen_ai.output.type'])).toEqual(['json', 'text', 'json']);
  });

  it('traces under a global tracer provider, and makes no span at all with tracing: false', async () => {
    const { provider, spans } = memoryProvider();
    trace.setGlobalTracerProvider(provider);
    const traced = await agentAgainst([{ text: LOOKUP_AND_ANSWER }]);
    await traced.solve({ symbol: 'ACME' });
    const root = agentSpan(spans());
    expect(named(spans(), 'run plan').map((s) => parentOf(s, spans()))).toEqual([root]);
    await server?.close();

    const before = spans().length;
    const untraced = await agentAgainst([{ text: LOOKUP_AND_ANSWER }], { tracing: false });
    const result = await untraced.solve({ symbol: 'ACME' });
    expect(result.status).toBe('done');
    // Neither the agent nor the runs it started (which would trace under the global provider).
    expect(spans()).toHaveLength(before);
  });

  it('runs untraced when the tracer provider fails: spans are best effort', async () => {
    const broken = {
      getTracer: () => {
        throw new Error('no tracer today');
      },
    };
    const agent = await agentAgainst([{ text: LOOKUP_AND_ANSWER }], { tracing: { tracerProvider: broken } });
    expect((await agent.solve({ symbol: 'ACME' })).status).toBe('done');
  });

  it('rejects a bad tracing option with a TypeError naming it', () => {
    expect(
      () =>
        new PlanAgent({
          provider: providerAt('http://127.0.0.1:9'),
          tools: [lookup],
          tracing: { recordArgs: true } as never,
        }),
    ).toThrow(/Unknown tracing option "recordArgs"/);
  });
});
