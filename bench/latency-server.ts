/**
 * bench/latency-server: a Chat Completions server on 127.0.0.1 that plays a model at a set pace,
 * for bench:latency. Each conversation the bench plays is a session named by the request's
 * `model`; a session is a list of replies, served in order, one per request. A reply streams as
 * SSE `chat.completion.chunk`s, as OpenAI's API does: text as `content` deltas, native tool calls
 * as `tool_calls` deltas (id, name, then the arguments in pieces), then `finish_reason`, the
 * usage chunk and `data: [DONE]`.
 *
 * The pace is that of latency-timeline.ts: each chunk is sent at its own time after the
 * request, every timer set against those absolute times (a late timer sends everything due, so
 * lateness never adds up). A reply's parts each cost characters; a part's text is released in
 * proportion to the characters spent on it, so a native call can cost what the same call costs
 * in planmode's text while its arguments are the concrete values.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHARS_PER_TOKEN, chunkEnds, type ModelPace, msAtChars } from './latency-timeline.js';

/** A piece of a reply: text the model says, or one native tool call (its arguments as text). */
export type ReplyPart =
  | { readonly kind: 'content'; readonly text: string; readonly cost: number }
  | {
      readonly kind: 'call';
      readonly id: string;
      readonly name: string;
      readonly text: string;
      readonly cost: number;
    };

export interface Reply {
  readonly parts: readonly ReplyPart[];
}

/** What a session plays. */
export interface Session {
  readonly pace: ModelPace;
  readonly replies: readonly Reply[];
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>/v1`, the base URL for an OpenAI-compatible provider. */
  readonly baseURL: string;
  /** Plays `session` to the requests whose `model` is `name`. */
  play(name: string, session: Session): void;
  /** How many replies the session `name` has served; forgets it. */
  finish(name: string): number;
  close(): Promise<void>;
}

const BASE = { id: 'chatcmpl-bench', created: 1_726_000_000, system_fingerprint: 'fp_bench' };

export async function startModelServer(): Promise<ModelServer> {
  const sessions = new Map<string, { session: Session; served: number }>();
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const model = typeof body?.model === 'string' ? body.model : '';
      const playing = sessions.get(model);
      const reply = playing?.session.replies[playing.served];
      if (!playing || !reply) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            error: {
              message: `no reply left for model ${JSON.stringify(model)}`,
              type: 'invalid_request_error',
            },
          }),
        );
        return;
      }
      playing.served++;
      stream(reply, playing.session.pace, model, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    play: (name, session) => void sessions.set(name, { session, served: 0 }),
    finish: (name) => {
      const served = sessions.get(name)?.served ?? 0;
      sessions.delete(name);
      return served;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<{ model?: unknown } | undefined> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  try {
    return JSON.parse(Buffer.concat(parts).toString('utf8')) as { model?: unknown };
  } catch {
    return undefined;
  }
}

/** Sends `reply` on its schedule, from now. */
function stream(reply: Reply, pace: ModelPace, model: string, response: ServerResponse): void {
  const t0 = performance.now();
  const layout = layOut(reply.parts);
  const total = layout.at(-1)?.end ?? 0;
  const ends = chunkEnds(total, pace.chunkChars);
  const sent = new Array<number>(layout.length).fill(-1);
  let next = 0;
  let gone = false;
  response.on('close', () => (gone = true));
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const event = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({
      ...BASE,
      model,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    })}\n\n`;
  const step = () => {
    if (gone) return;
    const now = performance.now() - t0;
    let out = next === 0 ? event({ role: 'assistant', content: '' }) : '';
    // Everything due by now: a late timer catches up instead of shifting what follows.
    while (next < ends.length && msAtChars(pace, ends[next]!) <= now) {
      out += deltasAt(ends[next]!, layout, sent, event);
      next++;
    }
    if (next === ends.length) {
      const calls = reply.parts.some((p) => p.kind === 'call');
      const completion = Math.ceil(total / CHARS_PER_TOKEN);
      out += event({}, calls ? 'tool_calls' : 'stop');
      out += `data: ${JSON.stringify({
        ...BASE,
        model,
        object: 'chat.completion.chunk',
        choices: [],
        usage: { prompt_tokens: 100, completion_tokens: completion, total_tokens: 100 + completion },
      })}\n\n`;
      response.end(`${out}data: [DONE]\n\n`);
      return;
    }
    if (out !== '') response.write(out);
    setTimeout(step, Math.max(0, msAtChars(pace, ends[next]!) - (performance.now() - t0)));
  };
  // The first chunk (the role, and what the first chunk of text carries) at the first token.
  const first = () => {
    if (gone) return;
    if (performance.now() - t0 < msAtChars(pace, ends[0]!)) {
      setTimeout(first, msAtChars(pace, ends[0]!) - (performance.now() - t0));
      return;
    }
    step();
  };
  setTimeout(first, msAtChars(pace, ends[0]!));
}

interface PlacedPart {
  readonly part: ReplyPart;
  readonly start: number;
  readonly end: number;
  /** The call's position among the reply's tool calls. */
  readonly callIndex: number;
}

function layOut(parts: readonly ReplyPart[]): PlacedPart[] {
  let at = 0;
  let calls = 0;
  return parts.map((part) => {
    const placed = { part, start: at, end: at + part.cost, callIndex: part.kind === 'call' ? calls++ : -1 };
    at = placed.end;
    return placed;
  });
}

/** The deltas for what has become due at character position `x`: each part's text so far. */
function deltasAt(
  x: number,
  layout: readonly PlacedPart[],
  sent: number[],
  event: (delta: Record<string, unknown>) => string,
): string {
  let out = '';
  for (let i = 0; i < layout.length; i++) {
    const { part, start, end, callIndex } = layout[i]!;
    if (x <= start && !(start === end && x >= start)) continue;
    const due = x >= end ? part.text.length : Math.floor((part.text.length * (x - start)) / (end - start));
    const from = Math.max(0, sent[i]!);
    if (sent[i]! >= 0 && due <= from) continue;
    const piece = part.text.slice(from, due);
    if (part.kind === 'content') {
      if (piece !== '') out += event({ content: piece });
    } else {
      const first = sent[i]! < 0;
      out += event({
        tool_calls: [
          {
            index: callIndex,
            ...(first && { id: part.id, type: 'function' }),
            function: { ...(first && { name: part.name }), arguments: piece },
          },
        ],
      });
    }
    sent[i] = due;
  }
  return out;
}
