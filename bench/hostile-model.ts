/**
 * The model attack of the second hostile-input round: a model that answers every turn with N
 * tool calls without arguments, which the reply's byte bound does not count. PlanAgent plans
 * through the OpenAI-compatible provider against a loopback server (hostile-model-server.ts, in
 * a process of its own), for three turns; the outcome names the largest request the client sent.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Attack, count, scaled } from './hostile-attack.js';

const SERVER = fileURLToPath(new URL('./hostile-model-server.js', import.meta.url));
const TURNS = 3;

const readTool = {
  name: 'read',
  description: 'Reads nothing.',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
  execute: () => 'ok',
};

export const argumentlessToolCalls: Attack = {
  name: 'model-tool-calls',
  title: `a model: ${TURNS} turns of N argument-less tool calls`,
  size: (scale) => `${count(scaled(400_000, scale))} calls a turn`,
  prepare: async (build, scale) => {
    const server = spawn(process.execPath, [SERVER, String(scaled(400_000, scale))], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: server.stdout });
    const [port] = (await once(lines, 'line')) as [string];
    let largestRequest = 0;
    lines.on('line', (line) => {
      const bytes = Number(line.replace(/^request /, ''));
      if (bytes > largestRequest) largestRequest = bytes;
    });
    const { PlanAgent, OpenAICompatibleProvider } = await build.agent();
    const provider = new OpenAICompatibleProvider({
      model: 'hostile',
      baseURL: `http://127.0.0.1:${port}/v1`,
      requireApiKey: false,
      maxRetries: 0,
    });
    const agent = new PlanAgent({
      provider,
      tools: [readTool],
      permissions: { readOnly: ['read'] },
      maxTurns: TURNS,
    });
    return async () => {
      try {
        const outcome = await agent.plan([{ role: 'user', content: 'read everything' }]);
        return `${outcome.status}, largest request ${(largestRequest / 1e6).toFixed(0)} MB`;
      } finally {
        server.stdin.end();
      }
    };
  },
};
