/**
 * The plan loop's budget and reply bound as options: checked by name, laid over PlanAgent's,
 * held for whole turns (a provider that streams nothing), and for lazy mode's latent answers.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET } from '../../src/agent/plan-loop/budget.js';
import { complete } from '../../src/agent/complete.js';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import { boundedFetch, isReplyTooLargeError } from '../../src/agent/providers/reply-bytes.js';
import { solve } from '../../src/agent/plan-loop/solve.js';
import type { Tool } from '../../src/index.js';
import { chatServer } from './chat-server.js';

const tools: Tool[] = [
  {
    name: 'lookup',
    inputSchema: { type: 'object', properties: { symbol: { type: 'string' } }, required: ['symbol'] },
    annotations: { readOnlyHint: true },
    execute: () => 42,
  },
  {
    name: 'guess',
    latent: true,
    inputSchema: { type: 'object', properties: {} },
    outputSchema: { type: 'number' },
  },
];
const json = (value: unknown) => ({ text: JSON.stringify(value) });
const deps = (provider: ScriptedProvider) => ({ provider, tools: () => tools, emit: () => undefined });
const step = (n: number) => ({ _tool: 'lookup', symbol: 'ACME', _outputPath: `†state.p${n}` });

describe('budget and maxReplyBytes options', () => {
  it.each([
    [
      { budget: { maxCalls: 0 } },
      /PlanAgent\.solve: budget\.maxCalls must be a whole number from 1 to \d+, not number 0/,
    ],
    [{ budget: { maxWallMs: 2 ** 31 } }, /budget\.maxWallMs must be a whole number from 1 to 2147483647/],
    [
      { budget: { maxTurn: 3 } },
      /unknown budget budget\.maxTurn; the budgets are maxCallsPerPlan, maxCalls, maxTurns/,
    ],
    [{ budget: 5 }, /budget must be an object of budgets, not number 5/],
    [{ maxReplyBytes: 0 }, /maxReplyBytes must be a whole number >= 1, not number 0/],
    [{ maxRepairs: -1 }, /maxRepairs must be a whole number >= 0, not number -1/],
  ])('%j is a TypeError naming the field', async (options, message) => {
    const provider = new ScriptedProvider({ turns: [] });
    await expect(solve('x', options as never, deps(provider))).rejects.toThrow(TypeError);
    await expect(solve('x', options as never, deps(provider))).rejects.toThrow(message);
    expect(provider.requests).toHaveLength(0);
  });

  it("PlanAgent's budget is checked when it is built, and solve()'s own budget is laid over it field by field", async () => {
    expect(
      () => new PlanAgent({ provider: new ScriptedProvider({ turns: [] }), tools, budget: { maxTurns: 0 } }),
    ).toThrow(/PlanAgent: budget\.maxTurns must be a whole number/);
    const provider = new ScriptedProvider({
      turns: [json({ calls: [step(0)], output: null }), json({ calls: [step(1)], output: null })],
    });
    const agent = new PlanAgent({ provider, tools, budget: { maxTurns: 1, maxCalls: 7 } });
    const first = await agent.solve('x');
    expect(first).toMatchObject({ status: 'budget_exceeded', budget: { exceeded: 'maxTurns' } });
    expect(first.budget.budget).toEqual({ ...DEFAULT_BUDGET, maxTurns: 1, maxCalls: 7 });
    const second = await new PlanAgent({
      provider: new ScriptedProvider({ turns: [json({ calls: [], output: 'ok' })] }),
      tools,
      budget: { maxTurns: 1, maxCalls: 7 },
    }).solve('x', { budget: { maxTurns: 3 } });
    expect(second.status).toBe('done');
    expect(second.budget.budget).toEqual({ ...DEFAULT_BUDGET, maxTurns: 3, maxCalls: 7 });
  });

  it('a whole turn over maxReplyBytes is cut too: E_LIMIT for the model, nothing parsed', async () => {
    const long = { calls: [step(0)], output: 'y'.repeat(5_000) };
    // Events without text deltas: the provider hands over the whole turn at once.
    const whole = [
      {
        type: 'done' as const,
        turn: {
          message: { role: 'assistant' as const, content: JSON.stringify(long) },
          stopReason: 'end' as const,
        },
      },
    ];
    const provider = new ScriptedProvider({ turns: [whole, json({ calls: [], output: 'short' })] });
    const result = await solve('x', { maxReplyBytes: 1_000 }, deps(provider));
    expect(result).toMatchObject({ status: 'done', output: 'short', runs: [] });
    const repair = provider.requests[1]!.messages.at(-1)!.content;
    expect(repair).toMatch(/E_LIMIT: the reply is longer than 1000 bytes \(maxReplyBytes\)/);
    // The cut reply is not in the conversation.
    expect(provider.requests[1]!.messages.some((m) => m.role === 'assistant')).toBe(false);
  });

  it('complete() counts bytes, not characters, as the deltas arrive', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'é'.repeat(600) }] });
    const error = await complete(provider, { messages: [], tools: [] }, { maxReplyBytes: 1_000 }).catch(
      (e: unknown) => e,
    );
    expect(isReplyTooLargeError(error)).toBe(true);
    expect(error).toMatchObject({ maxBytes: 1_000, provider: provider.name });
  });

  it('lazy mode: each latent answer is a model turn of the budget; the one past maxTurns fails its call and ends the loop', async () => {
    const plan = {
      calls: [
        { _tool: 'guess', _outputPath: '†state.a' },
        { _tool: 'guess', _outputPath: '†state.b' },
      ],
      output: null,
    };
    const provider = new ScriptedProvider({ turns: [json(plan), json({ value: 1 }), json({ value: 2 })] });
    const result = await solve(
      'x',
      { mode: 'lazy', approve: () => true, budget: { maxTurns: 2 }, concurrency: 1 },
      deps(provider),
    );
    expect(result).toMatchObject({
      status: 'budget_exceeded',
      budget: { exceeded: 'maxTurns', spent: { turns: 2 } },
    });
    expect(result.state).toEqual({ a: 1 });
    expect(provider.requests).toHaveLength(2);
  });

  it('the HTTP bound holds for a whole JSON body as for a stream', async () => {
    const server = await chatServer([{ text: 'z'.repeat(50_000) }]);
    try {
      const fetchBounded = boundedFetch(10_000, 'test');
      const response = await fetchBounded(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [], stream: false }),
      });
      expect(response.headers.get('content-type')).toBe('application/json');
      const error = await response.text().catch((e: unknown) => e);
      expect(isReplyTooLargeError(error)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
