/**
 * OpenAICompatibleProvider against an in-process server that speaks Chat Completions: the
 * request the SDK sent, the streamed answer read back, and every way the API can fail.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { complete } from '../../../src/agent/complete.js';
import type { Message, ModelRequest, ModelStreamEvent } from '../../../src/agent/model.js';
import {
  OpenAICompatibleProvider,
  type OpenAICompatibleProviderOptions,
} from '../../../src/agent/providers/index.js';
import { readChatStream } from '../../../src/agent/providers/openai-stream.js';
import { isModelProviderError, ModelProviderError } from '../../../src/errors.js';
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

const KEY = 'sk-test-0123456789-SECRET';

/** The fields every real chunk has. */
const BASE = {
  id: 'chatcmpl-9xYz',
  object: 'chat.completion.chunk',
  created: 1_726_000_000,
  model: 'gpt-4o-2024-08-06',
  system_fingerprint: 'fp_abc123',
};

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return { ...BASE, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
}

function usageChunk(prompt: number, completion: number): Record<string, unknown> {
  return {
    ...BASE,
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

function toolDelta(
  index: number,
  part: { id?: string; name?: string; arguments?: string },
): Record<string, unknown> {
  return {
    tool_calls: [
      {
        index,
        ...(part.id ? { id: part.id, type: 'function' } : {}),
        function: { ...(part.name ? { name: part.name } : {}), arguments: part.arguments ?? '' },
      },
    ],
  };
}

/** Writes the chunks as SSE and ends with `data: [DONE]`. */
function streamOf(...chunks: unknown[]): Handler {
  return (_request, response) => {
    startSse(response);
    for (const c of chunks) sendEvent(response, c);
    sendEvent(response, '[DONE]');
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

function provider(
  url: string,
  options: Partial<OpenAICompatibleProviderOptions> = {},
): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    model: 'gpt-4o',
    apiKey: KEY,
    baseURL: `${url}/v1`,
    maxRetries: 0,
    ...options,
  });
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

describe('OpenAICompatibleProvider: the request', () => {
  it('sends the messages, tools, response format and stream flags as Chat Completions wants them', async () => {
    const { url, requests } = await serve(
      streamOf(chunk({ role: 'assistant', content: '{}' }), chunk({}, 'stop')),
    );
    const messages: Message[] = [
      { role: 'system', content: 'You plan.' },
      { role: 'user', content: 'Find the weather in Paris.' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }],
      },
      { role: 'tool', toolCallId: 'call_1', name: 'weather', content: '{"tempC":21}' },
      {
        role: 'assistant',
        content: 'Checking again.',
        toolCalls: [
          {
            id: 'call_2',
            name: 'weather',
            arguments: {},
            argumentsText: '{oops',
            argumentsError: 'not JSON',
          },
        ],
      },
      { role: 'tool', toolCallId: 'call_2', name: 'weather', content: 'invalid arguments', isError: true },
      { role: 'assistant', content: 'It is 21 °C.' },
      { role: 'user', content: 'Now as JSON.' },
    ];
    const schema = { type: 'object', properties: { tempC: { type: 'number' } }, required: ['tempC'] };
    await complete(provider(url, { body: { temperature: 0.2, model: 'not-this-one', stream: false } }), {
      messages,
      tools: [
        {
          name: 'weather',
          description: 'Current weather of a city',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
      responseFormat: { name: 'answer', schema },
    });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.body).toEqual({
      temperature: 0.2,
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You plan.' },
        { role: 'user', content: 'Find the weather in Paris.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"tempC":21}' },
        {
          role: 'assistant',
          content: 'Checking again.',
          tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_2', content: 'invalid arguments' },
        { role: 'assistant', content: 'It is 21 °C.' },
        { role: 'user', content: 'Now as JSON.' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Current weather of a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
    });
  });

  it('leaves tools out when none are offered and sends strict only when asked', async () => {
    const { url, requests } = await serve(streamOf(chunk({ content: '{}' }), chunk({}, 'stop')));
    await complete(provider(url, { strict: true }), {
      ...HELLO,
      responseFormat: { name: 'answer', schema: { type: 'object' } },
    });
    const body = requests[0]!.body as Record<string, unknown>;
    expect('tools' in body).toBe(false);
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
    });
  });

  it('builds the request when stream() is called, so later changes to the messages do not leak in', async () => {
    const { url, requests } = await serve(streamOf(chunk({ content: 'ok' }), chunk({}, 'stop')));
    const messages: Message[] = [{ role: 'user', content: 'first' }];
    const events = provider(url).stream({ messages, tools: [] });
    messages.push({ role: 'user', content: 'added later' });
    await collect(events);
    expect((requests[0]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'first' },
    ]);
  });
});

describe('OpenAICompatibleProvider: the stream', () => {
  it('yields each text delta as it arrives, in order, before done, and reads the usage', async () => {
    const firstSeen = gate();
    const { url } = await serve(async (_request, response) => {
      startSse(response);
      sendEvent(response, chunk({ role: 'assistant', content: '' }));
      sendEvent(response, chunk({ content: 'Hel' }));
      // Held until the client has yielded 'Hel': a client that buffered the stream would hang here.
      await firstSeen.promise;
      sendEvent(response, chunk({ content: 'lo' }));
      sendEvent(response, chunk({ content: ', world' }));
      sendEvent(response, chunk({}, 'stop'));
      sendEvent(response, usageChunk(12, 3));
      sendEvent(response, '[DONE]');
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
      { type: 'text-delta', text: ', world' },
      {
        type: 'done',
        turn: {
          message: { role: 'assistant', content: 'Hello, world' },
          stopReason: 'end',
          usage: { inputTokens: 12, outputTokens: 3 },
          // What the API said of its reply, for traces (the chunks' id and model, its finish_reason).
          response: { id: 'chatcmpl-9xYz', model: 'gpt-4o-2024-08-06', finishReason: 'stop' },
        },
      },
    ]);
  }, 10_000);

  it('reassembles tool calls split over many chunks and reports arguments that are not JSON', async () => {
    const { url } = await serve(
      streamOf(
        chunk({ role: 'assistant', content: null }),
        chunk(toolDelta(0, { id: 'call_A', name: 'search' })),
        chunk(toolDelta(0, { arguments: '{"qu' })),
        chunk(toolDelta(0, { arguments: 'ery": "pl' })),
        chunk(toolDelta(0, { arguments: 'ans"}' })),
        chunk(toolDelta(1, { id: 'call_B', name: 'fetch' })),
        chunk(toolDelta(1, { arguments: '{"url": ' })),
        chunk(toolDelta(1, { arguments: 'http://x' })),
        chunk({}, 'tool_calls'),
        usageChunk(40, 22),
      ),
    );
    const events = await collect(provider(url).stream(HELLO));
    const callA = { id: 'call_A', name: 'search', arguments: { query: 'plans' } };
    const callB = {
      id: 'call_B',
      name: 'fetch',
      arguments: {},
      argumentsText: '{"url": http://x',
      argumentsError: expect.stringContaining('not valid JSON'),
    };
    expect(events).toEqual([
      { type: 'tool-call', call: callA },
      { type: 'tool-call', call: callB },
      {
        type: 'done',
        turn: {
          message: { role: 'assistant', content: '', toolCalls: [callA, callB] },
          stopReason: 'tool_calls',
          usage: { inputTokens: 40, outputTokens: 22 },
          response: { id: 'chatcmpl-9xYz', model: 'gpt-4o-2024-08-06', finishReason: 'tool_calls' },
        },
      },
    ]);
  });

  it('yields each tool call when the next one begins, and refuses a stream that goes back to an earlier call', async () => {
    async function* of(...chunks: unknown[]): AsyncGenerator<never> {
      for (const c of chunks) yield c as never;
    }
    // Each call is yielded before the chunks after it are even read.
    const read: string[] = [];
    async function* logged(): AsyncGenerator<never> {
      const chunks = [
        chunk(toolDelta(0, { id: 'a', name: 'one', arguments: '{"n":' })),
        chunk(toolDelta(0, { arguments: '1}' })),
        chunk(toolDelta(1, { id: 'b', name: 'two', arguments: '{}' })),
        chunk({}, 'tool_calls'),
      ];
      for (const [i, c] of chunks.entries()) {
        read.push(`chunk ${i}`);
        yield c as never;
      }
    }
    for await (const event of readChatStream(logged(), 'openai:test')) {
      read.push(event.type === 'tool-call' ? `call ${event.call.id}` : event.type);
    }
    expect(read).toEqual(['chunk 0', 'chunk 1', 'chunk 2', 'call a', 'chunk 3', 'call b', 'done']);
    // Call 0 was complete (and may have run) when call 1 began: more of it is refused, not merged.
    const back = await failure(
      collect(
        readChatStream(
          of(
            chunk(toolDelta(0, { id: 'a', name: 'one', arguments: '{' })),
            chunk(toolDelta(1, { id: 'b', name: 'two', arguments: '{}' })),
            chunk(toolDelta(0, { arguments: '}' })),
            chunk({}, 'tool_calls'),
          ),
          'openai:test',
        ),
      ),
    );
    expect(back.message).toMatch(/went back to tool call 0 after tool call 1 began/);
    // So is a piece for a call after finish_reason closed it.
    const after = await failure(
      collect(
        readChatStream(
          of(
            chunk(toolDelta(0, { id: 'a', name: 'one', arguments: '{}' }), 'tool_calls'),
            chunk(toolDelta(0, { arguments: ' ' })),
          ),
          'openai:test',
        ),
      ),
    );
    expect(after.message).toMatch(/went back to tool call 0/);
  });

  it('maps finish reasons, including `stop` with tool calls from servers that say so', async () => {
    async function* of(...chunks: unknown[]): AsyncGenerator<never> {
      for (const c of chunks) yield c as never;
    }
    const stopOf = async (...chunks: unknown[]) => {
      const events = await collect(readChatStream(of(...chunks), 'openai:test'));
      const done = events.at(-1);
      return done?.type === 'done' ? done.turn.stopReason : undefined;
    };
    expect(await stopOf(chunk({ content: 'a' }, 'stop'))).toBe('end');
    expect(await stopOf(chunk({ content: 'a' }, 'length'))).toBe('max_tokens');
    expect(await stopOf(chunk({ content: 'a' }, 'content_filter'))).toBe('other');
    expect(
      await stopOf(chunk(toolDelta(0, { id: 'c', name: 't', arguments: '{}' })), chunk({}, 'stop')),
    ).toBe('tool_calls');
    // vLLM's usage chunk has `choices: null`.
    const events = await collect(
      readChatStream(
        of(chunk({ content: 'a' }, 'stop'), { ...usageChunk(1, 2), choices: null }),
        'openai:test',
      ),
    );
    expect(events.at(-1)).toMatchObject({ turn: { usage: { inputTokens: 1, outputTokens: 2 } } });
  });

  it('stops mid-stream when the signal aborts: the reason is thrown and the connection closed', async () => {
    let serverSawClose: Promise<void> | undefined;
    const { url } = await serve((_request, response, closed) => {
      serverSawClose = closed;
      startSse(response);
      sendEvent(response, chunk({ content: 'partial' }));
      // Then nothing: only the client's abort ends this answer.
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

  it('sends nothing when the signal is already aborted', async () => {
    const { url, requests } = await serve(streamOf(chunk({}, 'stop')));
    const reason = new Error('already stopped');
    await expect(collect(provider(url).stream({ ...HELLO, signal: AbortSignal.abort(reason) }))).rejects.toBe(
      reason,
    );
    expect(requests).toHaveLength(0);
  });
});

describe('OpenAICompatibleProvider: errors', () => {
  it('401: the status and the API message, never the key (even when the server echoes it)', async () => {
    const { url } = await serve((_request, response) =>
      json(response, 401, {
        error: {
          message: `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      }),
    );
    const error = await failure(complete(provider(url), HELLO));
    expect(error.status).toBe(401);
    expect(error.provider).toBe('openai:gpt-4o');
    expect(error.message).toMatch(
      /^openai:gpt-4o: the API answered 401 \(invalid_request_error\): Incorrect API key provided: \*\*\*/,
    );
    expect(isModelProviderError(error)).toBe(true);
    expect(error.message).not.toContain(KEY);
    expect(inspect(error, { depth: 10 })).not.toContain(KEY);
  });

  it('429 and 500 keep their status; a body that is not JSON is the message', async () => {
    const { url } = await serve((request, response) => {
      if ((request.body as { messages: { content: string }[] }).messages[0]!.content === 'busy') {
        json(response, 429, {
          error: { message: 'Rate limit reached for gpt-4o', type: 'requests', code: 'rate_limit_exceeded' },
        });
      } else {
        response.writeHead(500, { 'content-type': 'text/html' });
        response.end('<html><body>upstream\n  exploded</body></html>');
      }
    });
    const busy = await failure(
      complete(provider(url), { messages: [{ role: 'user', content: 'busy' }], tools: [] }),
    );
    expect(busy.status).toBe(429);
    expect(busy.message).toContain('Rate limit reached for gpt-4o');
    const broken = await failure(complete(provider(url), HELLO));
    expect(broken.status).toBe(500);
    expect(broken.message).toBe(
      'openai:gpt-4o: the API answered 500: <html><body>upstream exploded</body></html>',
    );
  });

  it('retries as many times as maxRetries says', async () => {
    let calls = 0;
    const { url, requests } = await serve((request, response) => {
      calls += 1;
      if (calls === 1) return json(response, 500, { error: { message: 'flaky' } }, { 'retry-after-ms': '1' });
      return streamOf(chunk({ content: 'fine' }), chunk({}, 'stop'))(request, response, Promise.resolve());
    });
    const turn = await complete(provider(url, { maxRetries: 1 }), HELLO);
    expect(turn.message.content).toBe('fine');
    expect(requests).toHaveLength(2);
  });

  it('a garbage stream, an error in the stream, and a stream cut short are ModelProviderErrors', async () => {
    const { url } = await serve((request, response) => {
      const mode = (request.body as { messages: { content: string }[] }).messages[0]!.content;
      startSse(response);
      sendEvent(response, chunk({ content: 'so far' }));
      if (mode === 'garbage') sendEvent(response, '{"choices": [oops');
      if (mode === 'error')
        sendEvent(response, { error: { message: 'The server had an error', type: 'server_error' } });
      if (mode === 'cut') response.destroy();
      else response.end();
    });
    const ask = (content: string) =>
      complete(provider(url), { messages: [{ role: 'user', content }], tools: [] });
    const garbage = await failure(ask('garbage'));
    expect(garbage.message).toMatch(/^openai:gpt-4o: could not read the answer: .*JSON/);
    expect(garbage.status).toBeUndefined();
    const inStream = await failure(ask('error'));
    expect(inStream.message).toBe(
      'openai:gpt-4o: the API sent an error (server_error): The server had an error',
    );
    const cut = await failure(ask('cut'));
    expect(cut.message).toMatch(new RegExp(`^openai:gpt-4o: the connection to ${url}/v1 failed: `));
    // A clean end without a finish_reason is no whole turn either.
    const early = await failure(ask('early end'));
    expect(early.message).toBe('openai:gpt-4o: the stream ended before the model finished its turn');
  });

  it('a refused connection names the address and has no status', async () => {
    const url = await closedPort();
    const error = await failure(complete(provider(url), HELLO));
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(
      new RegExp(`^openai:gpt-4o: the connection to ${url}/v1 failed: .*ECONNREFUSED`),
    );
  });
});

describe('OpenAICompatibleProvider: keys and options', () => {
  it('reads OPENAI_API_KEY from env, and says so when it is missing', async () => {
    const { url, requests } = await serve(streamOf(chunk({ content: 'ok' }), chunk({}, 'stop')));
    const fromEnv = new OpenAICompatibleProvider({
      model: 'gpt-4o',
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${url}/v1` },
    });
    expect(fromEnv.baseURL).toBe(`${url}/v1`);
    await complete(fromEnv, HELLO);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(() => new OpenAICompatibleProvider({ model: 'gpt-4o', env: {} })).toThrow(
      /^openai:gpt-4o: no API key: set OPENAI_API_KEY/,
    );
  });

  it('needs no key for a local server (a baseURL option)', async () => {
    const { url, requests } = await serve(streamOf(chunk({ content: 'ok' }), chunk({}, 'stop')));
    const local = new OpenAICompatibleProvider({
      model: 'llama3.1',
      baseURL: `${url}/v1`,
      env: {},
      maxRetries: 0,
    });
    expect((await complete(local, HELLO)).message.content).toBe('ok');
    expect(requests[0]!.headers.authorization).toBe('Bearer no-key');
    expect(
      () =>
        new OpenAICompatibleProvider({
          model: 'llama3.1',
          baseURL: `${url}/v1`,
          env: {},
          requireApiKey: true,
        }),
    ).toThrow(/no API key/);
  });

  it('never shows the key in String(), JSON or inspect()', () => {
    const p = new OpenAICompatibleProvider({ model: 'gpt-4o', apiKey: KEY });
    expect(String(p)).toBe('openai:gpt-4o');
    expect(JSON.stringify(p)).toBe('{"name":"openai:gpt-4o","baseURL":"https://api.openai.com/v1"}');
    expect(inspect(p, { depth: 10, showHidden: true })).not.toContain(KEY);
  });

  it('throws a TypeError naming the bad option and value', () => {
    const make = (options: unknown) => () =>
      new OpenAICompatibleProvider(options as OpenAICompatibleProviderOptions);
    expect(make(undefined)).toThrow(
      new TypeError('OpenAICompatibleProvider: options must be an object, not undefined'),
    );
    expect(make({ apiKey: KEY })).toThrow(/model must be a non-empty string, not undefined/);
    expect(make({ model: 'm', apiKey: KEY, maxRetries: -1 })).toThrow(
      /maxRetries must be a whole number >= 0, not -1/,
    );
    expect(make({ model: 'm', apiKey: KEY, timeoutMs: 1.5 })).toThrow(
      /timeoutMs must be a whole number >= 1, not 1.5/,
    );
    expect(make({ model: 'm', apiKey: KEY, baseURL: 'localhost:8000' })).toThrow(
      /baseURL must be an http:\/\/ or https:\/\/ URL, not "localhost:8000"/,
    );
    expect(make({ model: 'm', apiKey: 42 })).toThrow(
      /apiKey must be a non-empty string, not a value of type number/,
    );
    expect(make({ model: 'm', apiKey: KEY, strict: 'yes' })).toThrow(
      /strict must be true or false, not "yes"/,
    );
  });
});

describe('OpenAICompatibleProvider: a round trip', () => {
  it('sends a tool call and its result back as the next request', async () => {
    let turn = 0;
    const { url, requests } = await serve((request, response) => {
      turn += 1;
      const answer =
        turn === 1
          ? streamOf(
              chunk({ role: 'assistant', content: 'Let me look.' }),
              chunk(toolDelta(0, { id: 'call_w1', name: 'weather', arguments: '{"city":' })),
              chunk(toolDelta(0, { arguments: '"Oslo"}' })),
              chunk({}, 'tool_calls'),
            )
          : streamOf(chunk({ content: 'It is 3 °C in Oslo.' }), chunk({}, 'stop'));
      return answer(request, response, Promise.resolve());
    });
    const p = provider(url);
    const tools = [{ name: 'weather', description: 'Weather', inputSchema: { type: 'object' } }];
    const messages: Message[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    const first = await complete(p, { messages, tools });
    expect(first.stopReason).toBe('tool_calls');
    messages.push(first.message, {
      role: 'tool',
      toolCallId: first.message.toolCalls![0]!.id,
      name: 'weather',
      content: '{"tempC":3}',
    });
    const second = await complete(p, { messages, tools });
    expect(second.message.content).toBe('It is 3 °C in Oslo.');
    expect((requests[1]!.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w1', content: '{"tempC":3}' },
    ]);
  });
});
