/**
 * AnthropicProvider against an in-process server that speaks the Messages API with its named
 * SSE events: the request the SDK sent, the streamed answer read back, and the failures.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { complete } from '../../../src/agent/complete.js';
import type { Message, ModelRequest, ModelStreamEvent } from '../../../src/agent/model.js';
import { AnthropicProvider, type AnthropicProviderOptions } from '../../../src/agent/providers/index.js';
import { ModelProviderError } from '../../../src/errors.js';
import {
  closedPort,
  type FakeServer,
  gate,
  type Handler,
  json,
  sendEvent,
  startServer,
  startSse,
} from './fake-server.js';

const KEY = 'sk-ant-api03-test-SECRET-0123456789';
const MODEL = 'claude-sonnet-4-6';

type Event = readonly [name: string, data: Record<string, unknown>];

const messageStart = (inputTokens: number): Event => [
  'message_start',
  {
    type: 'message_start',
    message: {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      content: [],
      model: MODEL,
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    },
  },
];
const ping: Event = ['ping', { type: 'ping' }];
const textStart = (index: number): Event => [
  'content_block_start',
  { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
];
const textDelta = (index: number, text: string): Event => [
  'content_block_delta',
  { type: 'content_block_delta', index, delta: { type: 'text_delta', text } },
];
const toolStart = (index: number, id: string, name: string): Event => [
  'content_block_start',
  { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } },
];
const jsonDelta = (index: number, partial: string): Event => [
  'content_block_delta',
  { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } },
];
const blockStop = (index: number): Event => ['content_block_stop', { type: 'content_block_stop', index }];
const messageDelta = (stopReason: string, outputTokens: number): Event => [
  'message_delta',
  {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  },
];
const messageStop: Event = ['message_stop', { type: 'message_stop' }];

/** A whole answer of text blocks' deltas. */
function textAnswer(...pieces: string[]): Event[] {
  return [
    messageStart(10),
    textStart(0),
    ping,
    ...pieces.map((piece) => textDelta(0, piece)),
    blockStop(0),
    messageDelta('end_turn', 5),
    messageStop,
  ];
}

function streamOf(events: readonly Event[]): Handler {
  return (_request, response) => {
    startSse(response);
    for (const [name, data] of events) sendEvent(response, data, name);
    response.end();
  };
}

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler): Promise<FakeServer> {
  server = await startServer(handler);
  return server;
}

function provider(url: string, options: Partial<AnthropicProviderOptions> = {}): AnthropicProvider {
  return new AnthropicProvider({ model: MODEL, apiKey: KEY, baseURL: url, maxRetries: 0, ...options });
}

const HELLO: ModelRequest = { messages: [{ role: 'user', content: 'Say hello' }], tools: [] };

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function failure(promise: Promise<unknown>): Promise<ModelProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelProviderError);
  return error as ModelProviderError;
}

function authorization(headers: Record<string, unknown>): unknown {
  return headers['x-api-key'] ?? headers.authorization;
}

describe('AnthropicProvider: the request', () => {
  it('maps system, tool calls and tool results (merged into one user message) the way the API requires', async () => {
    const { url, requests } = await serve(streamOf(textAnswer('{"ok":true}')));
    const messages: Message[] = [
      { role: 'system', content: 'You plan.' },
      { role: 'user', content: 'Weather in Paris and Oslo?' },
      {
        role: 'assistant',
        content: 'Looking both up.',
        toolCalls: [
          { id: 'toolu_1', name: 'weather', arguments: { city: 'Paris' } },
          {
            id: 'toolu_2',
            name: 'weather',
            arguments: {},
            argumentsText: '{bad',
            argumentsError: 'not JSON',
          },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_1', name: 'weather', content: '{"tempC":21}' },
      {
        role: 'tool',
        toolCallId: 'toolu_2',
        name: 'weather',
        content: 'the arguments are not JSON',
        isError: true,
      },
      { role: 'user', content: 'Answer as JSON.' },
      { role: 'system', content: 'Be brief.' },
    ];
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    await complete(
      provider(url, { maxTokens: 1024, body: { temperature: 0, max_tokens: 5, stream: false } }),
      {
        messages,
        tools: [
          {
            name: 'weather',
            description: 'Current weather',
            inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
          },
        ],
        responseFormat: { name: 'answer', schema },
      },
    );
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/messages');
    expect(authorization(request!.headers)).toContain(KEY);
    expect(request!.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request!.body).toEqual({
      temperature: 0,
      model: MODEL,
      max_tokens: 1024,
      stream: true,
      system: 'You plan.\n\nBe brief.',
      messages: [
        { role: 'user', content: 'Weather in Paris and Oslo?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking both up.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'weather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"tempC":21}' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              content: 'the arguments are not JSON',
              is_error: true,
            },
            { type: 'text', text: 'Answer as JSON.' },
          ],
        },
      ],
      tools: [
        {
          name: 'weather',
          description: 'Current weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      output_config: { format: { type: 'json_schema', schema } },
    });
  });

  it('sends no system, tools or output_config when there are none, and the default max_tokens', async () => {
    const { url, requests } = await serve(streamOf(textAnswer('hi')));
    await complete(provider(url), HELLO);
    expect(requests[0]!.body).toEqual({
      model: MODEL,
      max_tokens: 8192,
      stream: true,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
  });
});

describe('AnthropicProvider: the stream', () => {
  it('yields text deltas as they arrive, in order, before done, with the usage', async () => {
    const firstSeen = gate();
    const { url } = await serve(async (_request, response) => {
      startSse(response);
      for (const [name, data] of [messageStart(25), textStart(0), ping, textDelta(0, 'Hel')])
        sendEvent(response, data, name);
      // Held until the client has yielded 'Hel': a client that buffered the stream would hang here.
      await firstSeen.promise;
      for (const [name, data] of [
        textDelta(0, 'lo'),
        textDelta(0, '!'),
        blockStop(0),
        messageDelta('end_turn', 7),
        messageStop,
      ]) {
        sendEvent(response, data, name);
      }
      response.end();
    });
    const events: ModelStreamEvent[] = [];
    for await (const event of provider(url).stream(HELLO)) {
      events.push(event);
      if (event.type === 'text-delta' && event.text === 'Hel') firstSeen.open();
    }
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'text-delta', text: '!' },
      {
        type: 'done',
        turn: {
          message: { role: 'assistant', content: 'Hello!' },
          stopReason: 'end',
          usage: { inputTokens: 25, outputTokens: 7 },
          // What the API said of its reply, for traces (message_start's id and model, stop_reason).
          response: { id: 'msg_01XFDUDYJgAACzvnptvVoYEL', model: MODEL, finishReason: 'end_turn' },
        },
      },
    ]);
  }, 10_000);

  it('reassembles tool input from input_json_delta pieces and reports input that is not JSON', async () => {
    const { url } = await serve(
      streamOf([
        messageStart(50),
        textStart(0),
        textDelta(0, 'Two calls.'),
        blockStop(0),
        toolStart(1, 'toolu_A', 'search'),
        jsonDelta(1, ''),
        jsonDelta(1, '{"query": '),
        jsonDelta(1, '"plans", "limit"'),
        jsonDelta(1, ': 3}'),
        blockStop(1),
        toolStart(2, 'toolu_B', 'fetch'),
        jsonDelta(2, '{"url": '),
        jsonDelta(2, 'nope'),
        blockStop(2),
        toolStart(3, 'toolu_C', 'now'),
        blockStop(3),
        messageDelta('tool_use', 80),
        messageStop,
      ]),
    );
    const events = await collect(provider(url).stream(HELLO));
    const a = { id: 'toolu_A', name: 'search', arguments: { query: 'plans', limit: 3 } };
    const b = {
      id: 'toolu_B',
      name: 'fetch',
      arguments: {},
      argumentsText: '{"url": nope',
      argumentsError: expect.stringContaining('not valid JSON'),
    };
    const c = { id: 'toolu_C', name: 'now', arguments: {} };
    expect(events).toEqual([
      { type: 'text-delta', text: 'Two calls.' },
      { type: 'tool-call', call: a },
      { type: 'tool-call', call: b },
      { type: 'tool-call', call: c },
      {
        type: 'done',
        turn: {
          message: { role: 'assistant', content: 'Two calls.', toolCalls: [a, b, c] },
          stopReason: 'tool_calls',
          usage: { inputTokens: 50, outputTokens: 80 },
          response: { id: 'msg_01XFDUDYJgAACzvnptvVoYEL', model: MODEL, finishReason: 'tool_use' },
        },
      },
    ]);
  });

  it('maps max_tokens, and skips thinking blocks', async () => {
    const { url } = await serve(
      streamOf([
        messageStart(5),
        [
          'content_block_start',
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          },
        ],
        [
          'content_block_delta',
          { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
        ],
        [
          'content_block_delta',
          { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
        ],
        blockStop(0),
        textStart(1),
        textDelta(1, 'cut sh'),
        blockStop(1),
        messageDelta('max_tokens', 100),
        messageStop,
      ]),
    );
    const turn = await complete(provider(url), HELLO);
    expect(turn).toEqual({
      message: { role: 'assistant', content: 'cut sh' },
      stopReason: 'max_tokens',
      usage: { inputTokens: 5, outputTokens: 100 },
      response: { id: 'msg_01XFDUDYJgAACzvnptvVoYEL', model: MODEL, finishReason: 'max_tokens' },
    });
  });

  it('stops mid-stream when the signal aborts: the reason is thrown and the connection closed', async () => {
    let serverSawClose: Promise<void> | undefined;
    const { url } = await serve((_request, response, closed) => {
      serverSawClose = closed;
      startSse(response);
      for (const [name, data] of [messageStart(3), textStart(0), textDelta(0, 'partial')])
        sendEvent(response, data, name);
    });
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const seen: ModelStreamEvent[] = [];
    const run = (async () => {
      for await (const event of provider(url).stream({ ...HELLO, signal: controller.signal })) {
        seen.push(event);
        controller.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(seen).toEqual([{ type: 'text-delta', text: 'partial' }]);
    await serverSawClose;
  }, 10_000);
});

describe('AnthropicProvider: errors', () => {
  it('401: the status, the error type and the API message, never the key', async () => {
    const { url } = await serve((_request, response) =>
      json(response, 401, {
        type: 'error',
        error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` },
      }),
    );
    const error = await failure(complete(provider(url), HELLO));
    expect(error.status).toBe(401);
    expect(error.provider).toBe(`anthropic:${MODEL}`);
    expect(error.message).toBe(
      `anthropic:${MODEL}: the API answered 401 (authentication_error): invalid x-api-key ***`,
    );
    expect(inspect(error, { depth: 10 })).not.toContain(KEY);
  });

  it('429, 529 and a 500 that is not JSON keep their status', async () => {
    const { url } = await serve((request, response) => {
      const content = (request.body as { messages: { content: string }[] }).messages[0]!.content;
      if (content === '429')
        json(response, 429, {
          type: 'error',
          error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' },
        });
      else if (content === '529')
        json(response, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
      else {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('Internal Server Error');
      }
    });
    const ask = (content: string) =>
      complete(provider(url), { messages: [{ role: 'user', content }], tools: [] });
    const limited = await failure(ask('429'));
    expect([limited.status, limited.message]).toEqual([
      429,
      `anthropic:${MODEL}: the API answered 429 (rate_limit_error): Number of requests has exceeded your rate limit`,
    ]);
    const overloaded = await failure(ask('529'));
    expect([overloaded.status, overloaded.message]).toEqual([
      529,
      `anthropic:${MODEL}: the API answered 529 (overloaded_error): Overloaded`,
    ]);
    const broken = await failure(ask('500'));
    expect([broken.status, broken.message]).toEqual([
      500,
      `anthropic:${MODEL}: the API answered 500: Internal Server Error`,
    ]);
  });

  it('an error event, garbage, a stream cut short or ended early are ModelProviderErrors', async () => {
    const { url } = await serve((request, response) => {
      const mode = (request.body as { messages: { content: string }[] }).messages[0]!.content;
      startSse(response);
      for (const [name, data] of [messageStart(3), textStart(0), textDelta(0, 'so far')])
        sendEvent(response, data, name);
      if (mode === 'error')
        sendEvent(
          response,
          { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
          'error',
        );
      if (mode === 'garbage')
        sendEvent(response, '{"type": "content_block_delta", oops', 'content_block_delta');
      if (mode === 'cut') response.destroy();
      else response.end();
    });
    const ask = (content: string) =>
      complete(provider(url), { messages: [{ role: 'user', content }], tools: [] });
    const inStream = await failure(ask('error'));
    expect(inStream.message).toBe(`anthropic:${MODEL}: the API sent an error (overloaded_error): Overloaded`);
    expect(inStream.status).toBeUndefined();
    const garbage = await failure(ask('garbage'));
    expect(garbage.message).toMatch(new RegExp(`^anthropic:${MODEL}: could not read the answer: .*JSON`));
    const cut = await failure(ask('cut'));
    expect(cut.message).toMatch(new RegExp(`^anthropic:${MODEL}: the connection to ${url}/? failed: `));
    const early = await failure(ask('early'));
    expect(early.message).toBe(`anthropic:${MODEL}: the stream ended before the model finished its turn`);
  });

  it('a refused connection names the address and has no status', async () => {
    const url = await closedPort();
    const error = await failure(complete(provider(url), HELLO));
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(
      new RegExp(`^anthropic:${MODEL}: the connection to ${url}/? failed: .*ECONNREFUSED`),
    );
  });
});

describe('AnthropicProvider: keys and options', () => {
  it('reads ANTHROPIC_API_KEY from env, and says so when it is missing', async () => {
    const { url, requests } = await serve(streamOf(textAnswer('ok')));
    await complete(
      new AnthropicProvider({ model: MODEL, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url } }),
      HELLO,
    );
    expect(authorization(requests[0]!.headers)).toContain(KEY);
    expect(() => new AnthropicProvider({ model: MODEL, env: {} })).toThrow(
      `anthropic:${MODEL}: no API key: set ANTHROPIC_API_KEY, or pass apiKey`,
    );
  });

  it('never shows the key in String(), JSON or inspect()', () => {
    const p = new AnthropicProvider({ model: MODEL, apiKey: KEY });
    expect(String(p)).toBe(`anthropic:${MODEL}`);
    expect(JSON.stringify(p)).toBe(`{"name":"anthropic:${MODEL}","baseURL":"https://api.anthropic.com/"}`);
    expect(inspect(p, { depth: 10, showHidden: true })).not.toContain(KEY);
  });

  it('throws a TypeError naming the bad option and value', () => {
    const make = (options: unknown) => () => new AnthropicProvider(options as AnthropicProviderOptions);
    expect(make(null)).toThrow(new TypeError('AnthropicProvider: options must be an object, not null'));
    expect(make({ model: '', apiKey: KEY })).toThrow(/model must be a non-empty string, not ""/);
    expect(make({ model: MODEL, apiKey: KEY, maxTokens: 0 })).toThrow(
      /maxTokens must be a whole number >= 1, not 0/,
    );
    expect(make({ model: MODEL, apiKey: KEY, body: [] })).toThrow(/body must be an object, not an array/);
  });
});

describe('AnthropicProvider: a round trip', () => {
  it('sends a tool call and its result back: tool_result in a user message with the matching tool_use_id', async () => {
    let turn = 0;
    const { url, requests } = await serve((request, response) => {
      turn += 1;
      const events: Event[] =
        turn === 1
          ? [
              messageStart(20),
              toolStart(0, 'toolu_01A09q90qw90lq917835lq9', 'weather'),
              jsonDelta(0, '{"city": "Os'),
              jsonDelta(0, 'lo"}'),
              blockStop(0),
              messageDelta('tool_use', 30),
              messageStop,
            ]
          : textAnswer('It is 3 °C in Oslo.');
      return streamOf(events)(request, response, Promise.resolve());
    });
    const p = provider(url);
    const tools = [{ name: 'weather', description: 'Weather', inputSchema: { type: 'object' } }];
    const messages: Message[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    const first = await complete(p, { messages, tools });
    expect(first.stopReason).toBe('tool_calls');
    const call = first.message.toolCalls![0]!;
    messages.push(first.message, {
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: '{"tempC":3}',
    });
    const second = await complete(p, { messages, tools });
    expect(second.message.content).toBe('It is 3 °C in Oslo.');
    expect((requests[1]!.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '{"tempC":3}' },
        ],
      },
    ]);
  });
});
