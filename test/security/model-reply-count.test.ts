/**
 * A model that sends tool calls without arguments spends almost no reply bytes per call, so the
 * reply-size bound alone let 400k calls a turn through (2.9 GB over three turns). Tool calls per
 * turn and the conversation's size are bounded by count too, before the memory is spent: the
 * providers stop reading the reply at the call past `maxToolCallsPerTurn` (the server sees the
 * connection closed long before its stream's end), and a conversation past
 * `maxConversationBytes` is never sent. Against HTTP servers speaking the real wire protocols
 * (Chat Completions and Messages SSE); no size here is the attack's, only its shape.
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  AnthropicProvider,
  complete,
  isConversationTooLargeError,
  isTooManyToolCallsError,
  OpenAICompatibleProvider,
  PlanAgent,
  TooManyToolCallsError,
} from '../../src/agent/index.js';
import { isModelProviderError, type Tool } from '../../src/index.js';
import { type FakeServer, sendEvent, startServer, startSse } from '../agent/providers/fake-server.js';

/** How many argument-less calls a hostile stream would send: far more than it gets to. */
const FLOOD = 100_000;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What a streaming server wrote before the client went away. */
interface Flood {
  written: number;
  closedEarly: Promise<boolean>;
}

/**
 * Writes `events(i)` for i < FLOOD, waiting for the socket to drain as a real server does, and
 * stops when the client closes the connection.
 */
async function flood(
  response: ServerResponse,
  closed: Promise<void>,
  state: Flood,
  event: (i: number) => [data: unknown, name?: string],
): Promise<boolean> {
  let gone = false;
  void closed.then(() => (gone = true));
  for (let i = 0; i < FLOOD && !gone; i++) {
    const [data, name] = event(i);
    sendEvent(response, data, name);
    state.written++;
    if (response.writableNeedDrain) await Promise.race([once(response, 'drain'), closed]);
  }
  return gone;
}

const noop: Tool = { name: 'noop', inputSchema: { type: 'object' }, execute: () => 'ok' };

const CHUNK_BASE = { id: 'chatcmpl-flood', object: 'chat.completion.chunk', created: 1, model: 'm' };

/** The i-th argument-less tool call, as a Chat Completions chunk. */
function toolCallChunk(i: number): Record<string, unknown> {
  const call = { index: i, id: `call_${i}`, type: 'function', function: { name: 'noop', arguments: '' } };
  return { ...CHUNK_BASE, choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }] };
}

function openai(url: string): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    model: 'm',
    baseURL: `${url}/v1`,
    requireApiKey: false,
    maxRetries: 0,
  });
}

describe('tool calls per turn', () => {
  it('Chat Completions: the provider stops reading at the call past the bound, and none past it runs', async () => {
    const state: Flood = { written: 0, closedEarly: Promise.resolve(false) };
    server = await startServer((_request, response, closed) => {
      startSse(response);
      state.closedEarly = flood(response, closed, state, (i) => [toolCallChunk(i)]);
      void state.closedEarly.then((gone) => (gone ? undefined : response.end()));
    });
    let ran = 0;
    const reported: AgentEvent[] = [];
    const agent = new PlanAgent({
      provider: openai(server.url),
      tools: [{ ...noop, execute: () => String(++ran) }],
      maxToolCallsPerTurn: 5,
      onEvent: (event) => {
        if (event.type === 'turn-failed') reported.push(event);
      },
    });
    const error = await agent.execute([{ role: 'user', content: 'go' }]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isTooManyToolCallsError(error)).toBe(true);
    expect(isModelProviderError(error)).toBe(true);
    expect((error as TooManyToolCallsError).maxToolCalls).toBe(5);
    expect((error as Error).message).toMatch(/more than 5 tool calls \(maxToolCallsPerTurn\)/);
    // Each call starts as it arrives, so calls within the bound may have run before the one past
    // it arrived; none past the bound did, and the turn-failed event names exactly those that ran.
    expect(ran).toBeLessThanOrEqual(5);
    expect(reported).toHaveLength(1);
    const failed = reported[0]!;
    expect(failed.type === 'turn-failed' && failed.ran.length).toBe(ran);
    expect(failed.type === 'turn-failed' && failed.error).toBe(error);
    // The server saw the connection closed before its stream's end: nothing more was read.
    expect(await state.closedEarly).toBe(true);
    expect(state.written).toBeLessThan(FLOOD);
  }, 20_000);

  it('Messages API: the same, counted as each tool_use block starts', async () => {
    const state: Flood = { written: 0, closedEarly: Promise.resolve(false) };
    server = await startServer((_request, response, closed) => {
      startSse(response);
      sendEvent(
        response,
        {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            content: [],
            model: 'm',
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        },
        'message_start',
      );
      state.closedEarly = flood(response, closed, state, (i) =>
        i % 2 === 0
          ? [
              {
                type: 'content_block_start',
                index: i / 2,
                content_block: { type: 'tool_use', id: `toolu_${i}`, name: 'noop', input: {} },
              },
              'content_block_start',
            ]
          : [{ type: 'content_block_stop', index: (i - 1) / 2 }, 'content_block_stop'],
      );
      void state.closedEarly.then((gone) => (gone ? undefined : response.end()));
    });
    const provider = new AnthropicProvider({ model: 'm', apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const events: string[] = [];
    const error = await (async () => {
      for await (const event of provider.stream({
        messages: [{ role: 'user', content: 'go' }],
        tools: [],
        maxToolCalls: 3,
      }))
        events.push(event.type);
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isTooManyToolCallsError(error)).toBe(true);
    expect((error as Error).message).toMatch(/more than 3 tool calls \(maxToolCallsPerTurn\)/);
    // The three calls within the bound were read, the fourth was not.
    expect(events).toEqual(['tool-call', 'tool-call', 'tool-call']);
    expect(await state.closedEarly).toBe(true);
    expect(state.written).toBeLessThan(FLOOD);
  }, 20_000);

  it('complete() holds a provider that does not stop by itself to the bound as calls arrive', async () => {
    let yielded = 0;
    const provider = {
      name: 'endless',
      async *stream() {
        for (let i = 0; i < FLOOD; i++) {
          yielded++;
          yield { type: 'tool-call' as const, call: { id: `c${i}`, name: 'noop', arguments: {} } };
        }
      },
    };
    const error = await complete(provider, { messages: [], tools: [] }, { maxToolCallsPerTurn: 4 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isTooManyToolCallsError(error)).toBe(true);
    expect(yielded).toBe(5);
  });
});

describe("the conversation's size", () => {
  it('past maxConversationBytes the model is not asked again', async () => {
    // Every reply: ten argument-less calls, a few hundred bytes of conversation each turn.
    server = await startServer((_request, response) => {
      startSse(response);
      for (let i = 0; i < 10; i++) sendEvent(response, toolCallChunk(i));
      sendEvent(response, { ...CHUNK_BASE, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
      sendEvent(response, '[DONE]');
      response.end();
    });
    const agent = new PlanAgent({
      provider: openai(server.url),
      tools: [noop],
      maxTurns: 50,
      maxConversationBytes: 4_000,
    });
    const error = await agent.execute([{ role: 'user', content: 'go' }]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isConversationTooLargeError(error)).toBe(true);
    expect((error as Error).message).toMatch(/more than 4000 bytes \(maxConversationBytes\)/);
    // Each turn adds about 10 * (64 + 64) bytes of framing alone: a few turns, never fifty.
    expect(server.requests.length).toBeGreaterThan(1);
    expect(server.requests.length).toBeLessThan(6);
    // No request sent was over the bound by more than one turn's additions.
    const last = JSON.stringify(server.requests.at(-1)!.body);
    expect(last.length).toBeLessThan(4_000 + 10 * 200);
  }, 20_000);

  it('a bad bound is a TypeError naming it', () => {
    expect(
      () => new PlanAgent({ provider: openai('http://127.0.0.1:1'), tools: [], maxToolCallsPerTurn: 0 }),
    ).toThrow(/PlanAgent: maxToolCallsPerTurn must be a whole number >= 1, not 0/);
    expect(
      () => new PlanAgent({ provider: openai('http://127.0.0.1:1'), tools: [], maxConversationBytes: 1.5 }),
    ).toThrow(/PlanAgent: maxConversationBytes must be a whole number >= 1, not 1.5/);
  });
});
