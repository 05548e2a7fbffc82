/**
 * A Chat Completions server on 127.0.0.1 that plays a model, well behaved or not: each request
 * gets the next play of the script (the last one repeats). It speaks the real wire protocol: a
 * request with `stream: true` gets SSE chunks and `data: [DONE]`, with the usage in a last chunk
 * without choices when `stream_options.include_usage` asks for it; one without gets a whole
 * `chat.completion` object with its usage.
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import {
  type FakeServer,
  type RecordedHttpRequest,
  sendEvent,
  startServer,
  startSse,
} from './providers/fake-server.js';

export type Play =
  /** Says `text` (streamed in pieces of `piece` characters), reporting these tokens. */
  | {
      readonly text: string;
      readonly piece?: number;
      readonly usage?: { prompt: number; completion: number };
      /** Streams the text up to `at`, then waits for `until` before the rest (streamed only). */
      readonly hold?: { readonly at: number; readonly until: Promise<unknown> };
    }
  /** Streams text deltas for as long as the client reads them. */
  | { readonly endless: true }
  /** Sends its headers and then nothing, until the client goes away. */
  | { readonly silent: true };

export interface ChatServer extends FakeServer {
  /** How many answers ended because the client closed the connection before the end. */
  readonly cut: () => number;
  /** Resolves once `count` answers have been cut by the client. */
  readonly cutAtLeast: (count: number) => Promise<void>;
}

const BASE = {
  id: 'chatcmpl-loop',
  created: 1_726_000_000,
  model: 'test-model',
  system_fingerprint: 'fp_test',
};
const USAGE = { prompt: 100, completion: 20 };

export async function chatServer(plays: readonly Play[] | ((index: number) => Play)): Promise<ChatServer> {
  let served = 0;
  let cut = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const next = (): Play =>
    typeof plays === 'function' ? plays(served++) : plays[Math.min(served++, plays.length - 1)]!;
  const server = await startServer(async (request, response, closed) => {
    let ended = false;
    void closed.then(() => {
      if (ended || response.writableFinished) return;
      cut++;
      for (const waiter of waiting) if (waiter.count <= cut) waiter.resolve();
    });
    await answer(next(), request, response, closed);
    ended = true;
  });
  return {
    ...server,
    cut: () => cut,
    cutAtLeast: (count) =>
      count <= cut ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
  };
}

async function answer(
  play: Play,
  request: RecordedHttpRequest,
  response: ServerResponse,
  closed: Promise<void>,
): Promise<void> {
  const body = request.body as { stream?: boolean; stream_options?: { include_usage?: boolean } };
  if ('silent' in play) {
    startSse(response);
    response.flushHeaders();
    await closed;
    return;
  }
  if ('endless' in play) {
    startSse(response);
    let gone = false;
    void closed.then(() => (gone = true));
    const piece = chunk({ content: 'x'.repeat(512) });
    while (!gone && !response.destroyed) {
      // Backpressure: wait for the client to read, or to go away.
      if (!writeEvent(response, piece)) await Promise.race([once(response, 'drain'), closed]);
    }
    return;
  }
  const usage = play.usage ?? USAGE;
  const totals = {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
  };
  if (body.stream !== true) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        ...BASE,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: play.text, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: totals,
      }),
    );
    return;
  }
  startSse(response);
  const size = play.piece ?? 64;
  sendEvent(response, chunk({ role: 'assistant', content: '' }));
  const holdAt = play.hold?.at ?? play.text.length;
  for (const [from, to] of [
    [0, holdAt],
    [holdAt, play.text.length],
  ] as const) {
    if (from > 0 && play.hold) await Promise.race([play.hold.until, closed]);
    for (let i = from; i < to; i += size) {
      if (!writeEvent(response, chunk({ content: play.text.slice(i, Math.min(i + size, to)) }))) {
        await Promise.race([once(response, 'drain'), closed]);
      }
      if (response.destroyed) return;
    }
  }
  sendEvent(response, chunk({}, 'stop'));
  if (body.stream_options?.include_usage) {
    sendEvent(response, { ...BASE, object: 'chat.completion.chunk', choices: [], usage: totals });
  }
  sendEvent(response, '[DONE]');
  response.end();
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return {
    ...BASE,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

function writeEvent(response: ServerResponse, data: unknown): boolean {
  if (response.destroyed) return true;
  return response.write(`data: ${JSON.stringify(data)}\n\n`);
}
