/**
 * The plan loop against a model that misbehaves on purpose, over the real Chat Completions wire
 * protocol (a loopback server): garbage, JSON that is not a solution, huge and deep replies, the
 * same plan every turn, a server that never answers, a stream that never ends (the huge reply's
 * peak memory is measured in a file of its own: solve-huge-reply.test.ts). Each ends with a
 * status that says what happened, diagnostics that say where, and within the budget.
 */
import { describe, expect, it } from 'vitest';
import { complete } from '../../src/agent/complete.js';
import { OpenAICompatibleProvider } from '../../src/agent/providers/openai.js';
import { chatServer } from './chat-server.js';
import { against, currentServer, lookup, planOf, told } from './solve-against.js';

describe('every reply that cannot be used is explained', () => {
  it('garbage: E_JSON with its line and column, sent back maxRepairs times, then invalid with it', async () => {
    const { result, requests } = await against([{ text: '{"calls": [\n  oops' }], { maxRepairs: 2 });
    expect(requests).toHaveLength(3);
    expect(result.status).toBe('invalid');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'E_JSON', line: 2, column: 3 }),
    ]);
    expect(told(requests, 1)).toMatch(/^Your answer is not JSON\./);
    expect(told(requests, 1)).toMatch(/- 2:3 E_JSON: /);
    // Every request was a turn, and its usage (from the final chunk) was counted.
    expect(result.budget.spent).toMatchObject({ turns: 3, tokens: 360, calls: 0 });
    expect(result.budget.exceeded).toBeNull();
  });

  it('JSON that is not a solution: E_SHAPE, in the repair turn and in the result', async () => {
    const { result, requests } = await against(
      [{ text: '{"answer": 42}' }, { text: '{"calls": [], "output": null}' }],
      {
        maxRepairs: 1,
      },
    );
    expect(result.status).toBe('invalid');
    expect(told(requests, 1)).toMatch(/^Your answer is not a solution\./);
    expect(told(requests, 1)).toMatch(/E_SHAPE: expected a plan document but found an object/);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'E_SHAPE',
        pointer: '/output',
        message: expect.stringMatching(/no calls and no output/),
      }),
    ]);
  });

  it('a plan over budget.maxCallsPerPlan is E_LIMIT, told to the model, and nothing of it runs', async () => {
    const log: string[] = [];
    const { result, requests } = await against(
      [{ text: planOf(30) }, { text: planOf(2) }, { text: JSON.stringify({ calls: [], output: 42 }) }],
      // Read whole (streamed, the calls up to the bound run first: solve-streamed.test.ts).
      { budget: { maxCallsPerPlan: 10 }, streamCalls: false },
      log,
    );
    expect(result).toMatchObject({ status: 'done', output: 42 });
    expect(told(requests, 1)).toMatch(
      /E_LIMIT: the plan has 30 calls; the limit is 10 \(budget.maxCallsPerPlan\)/,
    );
    expect(told(requests, 1)).toMatch(/write at most 10 calls in one plan/);
    expect(log).toEqual(['lookup ACME', 'lookup ACME']);
    expect(result.budget.spent.calls).toBe(2);
  });

  it('deep: a reply nested 100,000 levels is E_LIMIT at its place, not a stack overflow', async () => {
    const deep = `{"calls": [{"_tool": "lookup", "symbol": ${'['.repeat(100_000)}${']'.repeat(100_000)}}], "output": null}`;
    const { result } = await against([{ text: deep, piece: 4096 }], { maxRepairs: 0 });
    expect(result.status).toBe('invalid');
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'E_LIMIT',
        message: 'arguments nest deeper than 64 levels',
        line: 1,
        column: 105,
      }),
    );
  });
});

describe('replies are bounded in bytes before they are read', () => {
  it('an endless stream is cut at maxReplyBytes: the connection is closed each time', async () => {
    const { result, requests } = await against([{ endless: true }], { maxReplyBytes: 65_536, maxRepairs: 1 });
    expect(result.status).toBe('invalid');
    expect(requests).toHaveLength(2);
    expect(result.diagnostics[0]).toMatchObject({
      code: 'E_LIMIT',
      message: expect.stringMatching(/65536 bytes/),
    });
    // The server sees both answers cut (a hang here would be a connection left open).
    await currentServer().cutAtLeast(2);
    expect(currentServer().cut()).toBe(2);
  });

  it("the provider's maxResponseBytes cuts the HTTP body itself, SSE framing included", async () => {
    const server = await chatServer([{ endless: true }]);
    try {
      const provider = new OpenAICompatibleProvider({
        model: 'test-model',
        baseURL: `${server.url}/v1`,
        requireApiKey: false,
        maxRetries: 0,
        maxResponseBytes: 100_000,
      });
      const error = await complete(provider, {
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'ReplyTooLargeError',
        maxBytes: 100_000,
        message: expect.stringMatching(/HTTP response is longer than 100000 bytes \(maxResponseBytes\)/),
      });
    } finally {
      await server.close();
    }
  });
});

describe('no progress, no rerun', () => {
  it('the same plan every turn: run while the state changes, then one warning, then stalled', async () => {
    const log: string[] = [];
    const { result, requests } = await against([{ text: planOf(1) }], {}, log);
    expect(result.status).toBe('stalled');
    // Turn 1 from {}, turn 2 from {p0: 42}; turn 3 repeats turn 2 (warned), turn 4 again: stalled.
    expect(result.runs).toHaveLength(2);
    expect(log).toEqual(['lookup ACME', 'lookup ACME']);
    expect(requests).toHaveLength(4);
    expect(told(requests, 3)).toMatch(/repeats a plan that already ran from this same state/);
    expect(told(requests, 2)).not.toMatch(/repeats a plan/);
    expect(result.state).toEqual({ p0: 42 });
  });

  it('a lazy plan turned down with feedback did not run: given again unchanged, it is asked about again', async () => {
    const log: string[] = [];
    let asked = 0;
    const approve = () => (asked++ === 0 ? { approved: false, feedback: 'are you sure?' } : true);
    const { result } = await against(
      [{ text: planOf(1) }, { text: planOf(1) }, { text: '{"calls": [], "output": "ok"}' }],
      { mode: 'lazy', approve },
      log,
    );
    expect(result).toMatchObject({ status: 'done', output: 'ok' });
    expect(asked).toBe(2);
    expect(log).toEqual(['lookup ACME']);
  });

  it('the same calls with their keys in another order are the same plan', async () => {
    const a = JSON.stringify({ calls: [lookup(0)], output: null });
    const b = JSON.stringify({
      output: null,
      calls: [{ _outputPath: '†state.p0', symbol: '†input.symbol', _tool: 'lookup', _id: 'l0' }],
    });
    const { result } = await against([{ text: a }, { text: a }, { text: b }, { text: b }]);
    expect(result.status).toBe('stalled');
    expect(result.runs).toHaveLength(2);
  });
});

describe('budgets', () => {
  it('slow: a server that never answers is stopped by maxWallMs, the request cancelled', async () => {
    const { result, requests } = await against([{ silent: true }], { budget: { maxWallMs: 300 } });
    expect(result.status).toBe('budget_exceeded');
    expect(result.budget.exceeded).toBe('maxWallMs');
    expect(result.budget.spent.wallMs).toBeGreaterThanOrEqual(300);
    expect(requests).toHaveLength(1);
    await currentServer().cutAtLeast(1);
    expect(currentServer().cut()).toBe(1);
  });

  it('maxWallMs during a run: the running calls are cancelled and the state already written is kept', async () => {
    const log: string[] = [];
    const plan = {
      calls: [lookup(0), { _id: 'wait', _tool: 'hang', _outputPath: '†state.never' }],
      output: null,
    };
    const { result } = await against([{ text: JSON.stringify(plan) }], { budget: { maxWallMs: 2_500 } }, log);
    expect(result.status).toBe('budget_exceeded');
    expect(result.budget.exceeded).toBe('maxWallMs');
    // The budget leaves time for the request; it runs out while the run waits on 'hang'.
    expect([...log].sort()).toEqual(['hang cancelled', 'hang started', 'lookup ACME']);
    expect(result.state).toEqual({ p0: 42 });
    expect(result.runs[0]!.status).toBe('cancelled');
  });

  it('maxTurns counts every request, repairs included; the last reply is still explained', async () => {
    const { result, requests } = await against([{ text: 'nope' }], {
      budget: { maxTurns: 2 },
      maxRepairs: 5,
    });
    expect(requests).toHaveLength(2);
    expect(result).toMatchObject({
      status: 'budget_exceeded',
      budget: { exceeded: 'maxTurns', spent: { turns: 2 } },
    });
    expect(result.diagnostics[0]).toMatchObject({ code: 'E_JSON', line: 1, column: 1 });
  });

  it("maxTokens: the provider's usage is counted; the turn that passes it ends the loop", async () => {
    const log: string[] = [];
    const usage = { prompt: 900, completion: 100 };
    const { result } = await against(
      [
        { text: planOf(1), usage },
        { text: planOf(2), usage },
        { text: '{"calls": [], "output": 1}', usage },
      ],
      // Read whole: a streamed reply's calls start before its usage arrives with its end.
      { budget: { maxTokens: 1_500 }, streamCalls: false },
      log,
    );
    expect(result).toMatchObject({
      status: 'budget_exceeded',
      budget: { exceeded: 'maxTokens', spent: { tokens: 2_000 } },
    });
    // The second plan came with the tokens that passed the budget: it did not run.
    expect(log).toEqual(['lookup ACME']);
  });

  it('maxCalls: a plan that could take the calls run past it does not run', async () => {
    const log: string[] = [];
    const { result } = await against(
      [{ text: planOf(3) }, { text: planOf(4) }],
      // Read whole (streamed, the budget holds call by call: solve-streamed.test.ts).
      { budget: { maxCalls: 5 }, streamCalls: false },
      log,
    );
    expect(result).toMatchObject({
      status: 'budget_exceeded',
      budget: { exceeded: 'maxCalls', spent: { calls: 3 } },
    });
    expect(log).toHaveLength(3);
    expect(result.state).toEqual({ p0: 42, p1: 42, p2: 42 });
  });

  it('the result reports the budget and what was spent against it when nothing ran out', async () => {
    const { result } = await against([{ text: planOf(2) }, { text: '{"calls": [], "output": "ok"}' }]);
    expect(result.status).toBe('done');
    expect(result.budget).toEqual({
      budget: {
        maxCallsPerPlan: 1_000,
        maxCalls: 10_000,
        maxTurns: 100,
        maxTokens: 2_000_000,
        maxWallMs: 3_600_000,
      },
      spent: { calls: 2, turns: 2, tokens: 240, wallMs: expect.any(Number), largestPlan: 2 },
      exceeded: null,
    });
  });
});
