import { describe, expect, it } from 'vitest';
import { complete } from '../../../src/agent/complete.js';
import type { Message, ModelRequest, ModelStreamEvent } from '../../../src/agent/model.js';
import { ScriptedProvider, type ScriptedProviderOptions } from '../../../src/agent/providers/index.js';
import { isModelProviderError, ModelProviderError } from '../../../src/errors.js';

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const ask = (content: string): ModelRequest => ({ messages: [{ role: 'user', content }], tools: [] });

describe('ScriptedProvider', () => {
  it('streams a reply as one delta per word, then its tool calls, then done', async () => {
    const provider = new ScriptedProvider({
      turns: [
        {
          text: 'Let me  check that.',
          toolCalls: [
            { name: 'search', arguments: { q: 'plans' } },
            { id: 'mine', name: 'fetch' },
          ],
          usage: { inputTokens: 3, outputTokens: 4 },
        },
      ],
    });
    const calls = [
      { id: 'call_1_1', name: 'search', arguments: { q: 'plans' } },
      { id: 'mine', name: 'fetch', arguments: {} },
    ];
    expect(await collect(provider.stream(ask('hi')))).toEqual([
      { type: 'text-delta', text: 'Let ' },
      { type: 'text-delta', text: 'me  ' },
      { type: 'text-delta', text: 'check ' },
      { type: 'text-delta', text: 'that.' },
      { type: 'tool-call', call: calls[0] },
      { type: 'tool-call', call: calls[1] },
      {
        type: 'done',
        turn: {
          message: { role: 'assistant', content: 'Let me  check that.', toolCalls: calls },
          stopReason: 'tool_calls',
          usage: { inputTokens: 3, outputTokens: 4 },
        },
      },
    ]);
    expect(provider.name).toBe('scripted:script');
  });

  it('parses arguments given as text the way a real provider does', async () => {
    const provider = new ScriptedProvider({
      turns: [
        {
          toolCalls: [
            { name: 'a', arguments: '{"x":1}' },
            { name: 'b', arguments: '[1,2]' },
          ],
        },
      ],
    });
    const turn = await complete(provider, ask('go'));
    expect(turn.message.toolCalls).toEqual([
      { id: 'call_1_1', name: 'a', arguments: { x: 1 } },
      {
        id: 'call_1_2',
        name: 'b',
        arguments: {},
        argumentsText: '[1,2]',
        argumentsError: 'the arguments must be a JSON object, not an array',
      },
    ]);
    expect(turn.message.content).toBe('');
  });

  it('records deep copies of the requests, so later changes to the caller’s arrays do not show', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'one' }, { text: 'two' }] });
    const messages: Message[] = [{ role: 'user', content: 'first' }];
    const tools = [{ name: 't', description: 'd', inputSchema: { type: 'object', properties: {} } }];
    const first = await complete(provider, {
      messages,
      tools,
      responseFormat: { name: 'r', schema: { type: 'object' } },
    });
    messages.push(first.message, { role: 'user', content: 'second' });
    (tools[0]!.inputSchema.properties as Record<string, unknown>).added = { type: 'string' };
    await complete(provider, { messages, tools: [] });
    expect(provider.requests).toEqual([
      {
        messages: [{ role: 'user', content: 'first' }],
        tools: [{ name: 't', description: 'd', inputSchema: { type: 'object', properties: {} } }],
        responseFormat: { name: 'r', schema: { type: 'object' } },
        // complete() sends its bound on tool calls with every request.
        maxToolCalls: 256,
      },
      {
        maxToolCalls: 256,
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'one' },
          { role: 'user', content: 'second' },
        ],
        tools: [],
      },
    ]);
    expect(provider.remaining).toBe(0);
  });

  it('throws a ModelProviderError when the script runs out', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'only' }], model: 'demo' });
    await complete(provider, ask('1'));
    const error = await complete(provider, ask('2')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelProviderError);
    expect(isModelProviderError(error)).toBe(true);
    expect((error as ModelProviderError).message).toBe(
      'scripted:demo: the script has 1 turn, and request 2 has no answer',
    );
    expect((error as ModelProviderError).provider).toBe('scripted:demo');
  });

  it('answers from a function of the request, and passes on what it throws', async () => {
    const boom = new ModelProviderError('scripted:script: the API answered 500: boom', {
      provider: 'x',
      status: 500,
    });
    const provider = new ScriptedProvider({
      turns: [
        (request, turn) => ({ text: `turn ${turn} saw ${request.messages.length} message(s)` }),
        async () => [{ type: 'text-delta', text: 'raw' }],
        () => {
          throw boom;
        },
      ],
    });
    expect((await complete(provider, ask('a'))).message.content).toBe('turn 1 saw 1 message(s)');
    // Raw events are streamed as given: here without `done`, which complete() reports.
    await expect(complete(provider, ask('b'))).rejects.toThrow(
      'scripted:script: the stream ended without a whole turn',
    );
    await expect(complete(provider, ask('c'))).rejects.toBe(boom);
  });

  it('stops with the signal’s reason when aborted mid-stream', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'a b c d e f' }], delayMs: 5 });
    const controller = new AbortController();
    const reason = new Error('stop');
    const seen: ModelStreamEvent[] = [];
    const run = (async () => {
      for await (const event of provider.stream({ ...ask('x'), signal: controller.signal })) {
        seen.push(event);
        if (seen.length === 2) controller.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(seen).toHaveLength(2);
  });

  it('rejects a malformed script when it is built, naming the place', () => {
    const make = (options: unknown) => () => new ScriptedProvider(options as ScriptedProviderOptions);
    expect(make({})).toThrow(new TypeError('ScriptedProvider: turns must be an array, not undefined'));
    expect(make({ turns: [42] })).toThrow(
      /turns\[0\] must be a reply object, an array of events or a function, not 42/,
    );
    expect(make({ turns: [{ toolCalls: [{ arguments: {} }] }] })).toThrow(
      /turns\[0\]\.toolCalls\[0\] must be an object with a non-empty name/,
    );
    expect(make({ turns: [[{ type: 'delta' }]] })).toThrow(
      /turns\[0\]\[0\] must be a text-delta, tool-call or done event/,
    );
    expect(make({ turns: [{ stopReason: 'finished' }] })).toThrow(
      /stopReason must be one of end, tool_calls, max_tokens, other, not "finished"/,
    );
    expect(make({ turns: [], delayMs: -5 })).toThrow(/delayMs must be a whole number >= 0, not -5/);
  });
});
