/**
 * Turns with tool calls as the two wire protocols stream them (Chat Completions chunks, Messages
 * API events), cut into parts that a loopback server sends with waits in between: a test holds
 * the rest of a turn back until something happened on the agent's side.
 */
import type { ServerResponse } from 'node:http';
import { AnthropicProvider, type ModelProvider, OpenAICompatibleProvider } from '../../src/agent/index.js';
import { sendEvent, startSse } from './providers/fake-server.js';

/** One SSE event: its data, and its name on the Messages API. */
export type SseEvent = readonly [data: unknown, name?: string];

export interface WireCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export interface Wire {
  readonly name: 'openai' | 'anthropic';
  provider(url: string): ModelProvider;
  /**
   * The events of a turn that makes `calls`, cut so that each part but the last ends just as
   * the call at each of `cuts` is complete (on Chat Completions: the next call's first chunk
   * has been sent). `cuts` are counted from 1, in increasing order.
   */
  toolTurn(calls: readonly WireCall[], cuts: readonly number[]): SseEvent[][];
  /** A whole turn that says `text`. */
  textTurn(text: string): SseEvent[];
}

const CHUNK = { id: 'chatcmpl-eager', object: 'chat.completion.chunk', created: 1, model: 'm' };

function chunk(delta: Record<string, unknown>, finish: string | null = null): SseEvent {
  return [{ ...CHUNK, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }];
}

function toolChunk(index: number, part: { id?: string; name?: string; args: string }): SseEvent {
  const call = {
    index,
    ...(part.id && { id: part.id, type: 'function' }),
    function: { ...(part.name && { name: part.name }), arguments: part.args },
  };
  return chunk({ tool_calls: [call] });
}

export const openaiWire: Wire = {
  name: 'openai',
  provider: (url) =>
    new OpenAICompatibleProvider({ model: 'm', baseURL: `${url}/v1`, requireApiKey: false, maxRetries: 0 }),
  toolTurn(calls, cuts) {
    const parts: SseEvent[][] = [[chunk({ role: 'assistant', content: null })]];
    calls.forEach((call, i) => {
      const text = JSON.stringify(call.arguments);
      const half = Math.floor(text.length / 2);
      // A call's first chunk completes the one before it: a cut after call i ends here.
      parts.at(-1)!.push(toolChunk(i, { id: call.id, name: call.name, args: text.slice(0, half) }));
      if (cuts.includes(i)) parts.push([]);
      parts.at(-1)!.push(toolChunk(i, { args: text.slice(half) }));
    });
    parts.at(-1)!.push(chunk({}, 'tool_calls'), ['[DONE]']);
    return parts;
  },
  textTurn: (text) => [chunk({ role: 'assistant', content: text }), chunk({}, 'stop'), ['[DONE]']],
};

const messageStart: SseEvent = [
  {
    type: 'message_start',
    message: {
      id: 'msg_eager',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'm',
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  },
  'message_start',
];

function messageEnd(stop: string): SseEvent[] {
  return [
    [
      {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: 5 },
      },
      'message_delta',
    ],
    [{ type: 'message_stop' }, 'message_stop'],
  ];
}

export const anthropicWire: Wire = {
  name: 'anthropic',
  provider: (url) => new AnthropicProvider({ model: 'm', apiKey: 'k', baseURL: url, maxRetries: 0 }),
  toolTurn(calls, cuts) {
    const parts: SseEvent[][] = [[messageStart]];
    calls.forEach((call, i) => {
      const text = JSON.stringify(call.arguments);
      const half = Math.floor(text.length / 2);
      parts.at(-1)!.push(
        [
          {
            type: 'content_block_start',
            index: i,
            content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
          },
          'content_block_start',
        ],
        ...[text.slice(0, half), text.slice(half)].map((partial): SseEvent => [
          {
            type: 'content_block_delta',
            index: i,
            delta: { type: 'input_json_delta', partial_json: partial },
          },
          'content_block_delta',
        ]),
        [{ type: 'content_block_stop', index: i }, 'content_block_stop'],
      );
      // The block's stop completes the call: a cut after call i + 1 ends here.
      if (cuts.includes(i + 1)) parts.push([]);
    });
    parts.at(-1)!.push(...messageEnd('tool_use'));
    return parts;
  },
  textTurn: (text) => [
    messageStart,
    [
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      'content_block_start',
    ],
    [{ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta'],
    [{ type: 'content_block_stop', index: 0 }, 'content_block_stop'],
    ...messageEnd('end_turn'),
  ],
};

export const WIRES: readonly Wire[] = [openaiWire, anthropicWire];

/**
 * Sends `parts` as SSE, waiting for `waits[i]` after part i (while the client is still there),
 * and ends the response unless the client went away.
 */
export async function sendParts(
  response: ServerResponse,
  closed: Promise<void>,
  parts: readonly (readonly SseEvent[])[],
  waits: readonly Promise<unknown>[],
): Promise<void> {
  let gone = false;
  void closed.then(() => (gone = true));
  startSse(response);
  for (const [i, part] of parts.entries()) {
    if (gone) return;
    for (const [data, name] of part) sendEvent(response, data, name);
    const wait = waits[i];
    if (wait) await Promise.race([wait, closed]);
  }
  if (!gone) response.end();
}
