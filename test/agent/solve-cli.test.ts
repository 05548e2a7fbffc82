/**
 * `plan agent` (the plan loop) against a misbehaving Chat Completions server on loopback: the
 * exit code says how the loop ended, and stderr says why: the last reply's diagnostics at their
 * line and column, the budget that ran out, or that the model repeated itself.
 */
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../cli/helpers.js';
import { expectOneLineUsageError, planInProcess } from '../cli/in-process.js';
import { type ChatServer, chatServer, type Play } from './chat-server.js';

const TOOLS = `
export const tools = [
  {
    name: 'lookup',
    inputSchema: { type: 'object', properties: { symbol: { type: 'string' } }, required: ['symbol'] },
    annotations: { readOnlyHint: true },
    execute: () => 42,
  },
];
`;
const temp = tempDir({ 'tools.mjs': TOOLS });
afterAll(() => temp.cleanup());

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function agent(plays: readonly Play[], ...flags: string[]) {
  server = await chatServer(plays);
  const args = ['agent', 'ACME', '--tools', join(temp.dir, 'tools.mjs'), '--model', 'openai:test-model'];
  return planInProcess([...args, '--base-url', `${server.url}/v1`, ...flags], '', { cwd: temp.dir, env: {} });
}

const plan = JSON.stringify({
  calls: [{ _tool: 'lookup', symbol: '†input.task', _outputPath: '†state.price' }],
  output: null,
});

describe('plan agent: why the plan loop gave up, on stderr and in the exit code', () => {
  it('a reply that never becomes a solution: exit 1, its diagnostics located in the reply', async () => {
    const r = await agent([{ text: '{"calls": [\n  nope' }]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^plan: error: the model's reply could not be used, even after repairs \(3 model turns\)/m,
    );
    expect(r.stderr).toMatch(/^reply:2:3: error E_JSON: invalid JSON/m);
    expect(server!.requests).toHaveLength(3);
  });

  it('--max-reply-bytes: a longer reply is cut, and the E_LIMIT says so', async () => {
    const r = await agent([{ text: plan.padEnd(4_000, ' ') }], '--max-reply-bytes', '1000');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^reply:1:1: error E_LIMIT: the reply is longer than 1000 bytes \(maxReplyBytes\)/m,
    );
  });

  it('the same plan from the same state: exit 6, stalled', async () => {
    const r = await agent([{ text: plan }]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /^plan: error: stalled: the model gave a plan that had already run from the same state/m,
    );
  });

  it('--budget maxWallMs: a silent server is stopped at the budget, exit 5, naming it', async () => {
    const r = await agent([{ silent: true }], '--budget', 'maxWallMs=300');
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^plan: error: the plan loop's budget maxWallMs \(300\) ran out after \d+ ms/m);
    expect(r.stderr).toMatch(/--budget maxWallMs=<n>/);
  });

  it('--json: the budget, what was spent and which ran out are in the object', async () => {
    const r = await agent([{ text: 'nope' }], '--budget', 'maxTurns=2', '--json');
    expect(r.code).toBe(5);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      status: 'budget_exceeded',
      budget: { exceeded: 'maxTurns', spent: { turns: 2 }, budget: { maxTurns: 2, maxCalls: 10_000 } },
      diagnostics: [{ code: 'E_JSON', line: 1, column: 1 }],
    });
  });

  it('--budget that is not name=value, an unknown name or a bad value: exit 2, one line', async () => {
    expectOneLineUsageError(await agent([], '--budget', 'maxTurns'), /--budget 'maxTurns' is not name=value/);
    expectOneLineUsageError(
      await agent([], '--budget', 'turns=3'),
      /unknown budget budget\.turns; the budgets are/,
    );
    expectOneLineUsageError(
      await agent([], '--budget', 'maxTurns=0'),
      /--budget maxTurns must be a whole number from 1/,
    );
    expectOneLineUsageError(
      await agent([], '--max-reply-bytes', '0'),
      /--max-reply-bytes must be a whole number >= 1/,
    );
  });
});
