/**
 * A Chat Completions server on 127.0.0.1, in a process of its own so that its memory is not the
 * measured client's: every request is answered, over the real streaming wire protocol (SSE
 * chunks, `finish_reason: "tool_calls"`, `data: [DONE]`), with N tool calls to `read` that have
 * no arguments. It prints its port as its first line, then one line `request <bytes>` per
 * request body it read (and dropped), and it exits when its standard input closes.
 *
 *     node dist/bench/hostile-model-server.js <calls per turn>
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Tool calls per SSE chunk: few enough chunks to stream quickly, each small. */
const CALLS_PER_CHUNK = 1_000;

const callsPerTurn = Number(process.argv[2]);
if (!Number.isSafeInteger(callsPerTurn) || callsPerTurn < 1) {
  console.error('usage: node dist/bench/hostile-model-server.js <calls per turn>');
  process.exit(2);
}

const BASE = {
  id: 'chatcmpl-hostile',
  created: 1_726_000_000,
  model: 'hostile',
  object: 'chat.completion.chunk',
};

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ ...BASE, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
}

async function write(response: ServerResponse, text: string): Promise<void> {
  if (!response.write(text)) await once(response, 'drain');
}

let turn = 0;
async function answer(response: ServerResponse): Promise<void> {
  turn++;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  await write(response, chunk({ role: 'assistant', content: '' }));
  for (let start = 0; start < callsPerTurn; start += CALLS_PER_CHUNK) {
    const calls = [];
    for (let index = start; index < Math.min(callsPerTurn, start + CALLS_PER_CHUNK); index++) {
      calls.push({
        index,
        id: `t${turn}c${index}`,
        type: 'function',
        function: { name: 'read', arguments: '' },
      });
    }
    await write(response, chunk({ tool_calls: calls }));
  }
  await write(response, chunk({}, 'tool_calls'));
  response.end('data: [DONE]\n\n');
}

const server = createServer((request, response) => {
  let bytes = 0;
  request.on('data', (part: Buffer) => (bytes += part.length));
  request.on('end', () => {
    console.log(`request ${bytes}`);
    answer(response).catch(() => response.destroy());
  });
});
server.listen(0, '127.0.0.1', () => console.log(String((server.address() as AddressInfo).port)));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
