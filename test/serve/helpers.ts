/** A plan server on 127.0.0.1 port 0 for a test, and small clients of its API (node's fetch). */
import { afterEach } from 'vitest';
import { type PlanServer, type ServeOptions, startServer } from '../../src/serve/index.js';
import type { Tool } from '../../src/tools/index.js';

/** A JSON answer read loosely: each test's expectations say what it must hold. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the server, checked by the expectations
export type Json = any;

const started: PlanServer[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

/** A weather lookup, a branch on it, and a refund that needs approval. */
export const TOOLS: Tool[] = [
  {
    name: 'weather',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    outputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, sunny: { type: 'boolean' } },
      required: ['city', 'sunny'],
    },
    execute: (args) => ({ city: (args as { city: string }).city, sunny: true }),
  },
  {
    name: 'greet',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    outputSchema: { type: 'string' },
    execute: (args) => `hello ${(args as { name: string }).name}`,
  },
  {
    name: 'refund',
    needsApproval: true,
    description: 'Pays money back.',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    outputSchema: { type: 'object', properties: { refunded: { type: 'number' } } },
    execute: (args) => ({ refunded: (args as { amount: number }).amount }),
  },
];

/** A two-call plan: the weather in Paris, then a greeting to its city. */
export const PLAN = [
  { _id: 'w', _tool: 'weather', city: 'Paris', _outputPath: '†state.weather' },
  { _id: 'g', _tool: 'greet', name: '†state.weather.city', _outputPath: '†state.greeting' },
];

export async function serve(options: Partial<ServeOptions> = {}): Promise<PlanServer> {
  const server = await startServer({ tools: TOOLS, ...options });
  started.push(server);
  return server;
}

export interface Answer {
  readonly status: number;
  readonly body: Json;
  readonly headers: Headers;
}

/** One request; a JSON body is sent as application/json. */
export async function call(
  server: PlanServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // HTML or an event stream: the text as is.
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

export interface SseMessage {
  readonly id?: string;
  readonly event: string;
  readonly data: Json;
}

/** Reads an event stream to its end (the server ends it), every message parsed. */
export async function readEvents(
  server: PlanServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<SseMessage[]> {
  const response = await fetch(`${server.url}${path}`, { headers });
  return parseSse(await response.text());
}

export function parseSse(text: string): SseMessage[] {
  const messages: SseMessage[] = [];
  for (const block of text.split('\n\n')) {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    const id = /^id: (.*)$/m.exec(block)?.[1];
    if (event !== undefined && data !== undefined)
      messages.push({ event, data: JSON.parse(data), ...(id !== undefined && { id }) });
  }
  return messages;
}

/**
 * Waits until `GET /api/approvals` lists `count` requests, reading the server's change feed:
 * each change announced makes it look again (no polling, no sleeps).
 */
export async function approvalsWhenPending(
  server: PlanServer,
  count = 1,
  headers: Record<string, string> = {},
): Promise<Json[]> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/events`, { headers, signal: controller.signal });
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const listed = (await call(server, 'GET', '/api/approvals', undefined, headers)).body
        .approvals as Json[];
      if (listed.length >= count) return listed;
      const chunk = await reader.read();
      if (chunk.done) throw new Error('the change feed ended before the approvals came');
    }
  } finally {
    controller.abort();
  }
}

/** Waits for a run to end by reading its event stream to its end; then its detail. */
export async function runWhenEnded(
  server: PlanServer,
  id: string,
  headers: Record<string, string> = {},
): Promise<Json> {
  await readEvents(server, `/api/runs/${id}/events`, headers);
  return (await call(server, 'GET', `/api/runs/${id}`, undefined, headers)).body;
}
