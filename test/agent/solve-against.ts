/**
 * solve() against the loopback Chat Completions server (chat-server.ts), with two tools: a
 * read-only lookup and a call that ends only when cancelled. Shared by the misbehaving-model
 * tests; the server of each test is closed after it.
 */
import { afterEach } from 'vitest';
import { OpenAICompatibleProvider } from '../../src/agent/providers/openai.js';
import { solve } from '../../src/agent/plan-loop/solve.js';
import type { SolveOptions } from '../../src/agent/plan-loop/solve-types.js';
import type { AgentEvent } from '../../src/agent/agent-events.js';
import type { Tool } from '../../src/index.js';
import { type ChatServer, chatServer, type Play } from './chat-server.js';

let server: ChatServer | undefined;

/** The server of the test running. */
export function currentServer(): ChatServer {
  return server!;
}
afterEach(async () => {
  await server?.close();
  server = undefined;
});

export function tools(log: string[] = []): Tool[] {
  return [
    {
      name: 'lookup',
      inputSchema: { type: 'object', properties: { symbol: { type: 'string' } }, required: ['symbol'] },
      annotations: { readOnlyHint: true },
      execute: ({ symbol }) => {
        log.push(`lookup ${String(symbol)}`);
        return symbol === 'ACME' ? 42 : 7;
      },
    },
    {
      name: 'hang',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      // Ends only when cancelled.
      execute: (_args, { abortSignal: signal }) =>
        new Promise((_resolve, reject) => {
          log.push('hang started');
          signal.addEventListener('abort', () => {
            log.push('hang cancelled');
            reject(signal.reason as Error);
          });
        }),
    },
  ];
}

export async function against(
  plays: readonly Play[] | ((index: number) => Play),
  options: SolveOptions = {},
  log: string[] = [],
) {
  server = await chatServer(plays);
  const provider = new OpenAICompatibleProvider({
    model: 'test-model',
    baseURL: `${server.url}/v1`,
    requireApiKey: false,
    maxRetries: 0,
  });
  const events: AgentEvent[] = [];
  const result = await solve({ symbol: 'ACME' }, options, {
    provider,
    tools: () => tools(log),
    emit: (event) => events.push(event),
  });
  return { result, requests: server.requests, events };
}

/** The last user message of request `index`: what the model was told. */
export function told(requests: ChatServer['requests'], index: number): string {
  const body = requests[index]!.body as { messages: { role: string; content: string }[] };
  return body.messages.filter((m) => m.role === 'user').at(-1)!.content;
}

export const lookup = (n: number) => ({
  _id: `l${n}`,
  _tool: 'lookup',
  symbol: '†input.symbol',
  _outputPath: `†state.p${n}`,
});
export const planOf = (calls: number) =>
  JSON.stringify({ calls: Array.from({ length: calls }, (_, n) => lookup(n)), output: null });
