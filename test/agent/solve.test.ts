import { describe, expect, it } from 'vitest';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import type { Tool } from '../../src/index.js';

/** A refund desk (seeds/004): billing history is read-only, a refund is not. */
function desk(options: { refundFails?: boolean } = {}) {
  const refunds: unknown[] = [];
  const tools: Tool[] = [
    {
      name: 'checkBillingHistory',
      inputSchema: {
        type: 'object',
        properties: { customerId: { type: 'string' } },
        required: ['customerId'],
      },
      outputSchema: { type: 'object', properties: { orders: { type: 'integer' } }, required: ['orders'] },
      execute: () => ({ orders: 5 }),
    },
    {
      name: 'issueRefund',
      inputSchema: {
        type: 'object',
        properties: { customerId: { type: 'string' }, amount: { type: 'number' } },
        required: ['customerId', 'amount'],
      },
      execute: (args) => {
        if (options.refundFails)
          throw Object.assign(new Error('the card was declined'), { code: 'declined' });
        refunds.push(args);
        return { id: 'refund_1' };
      },
    },
    {
      name: 'summarize',
      latent: true,
      inputSchema: { type: 'object', properties: { text: {} } },
      outputSchema: { type: 'string' },
    },
  ];
  return { tools, refunds };
}

const input = { customerId: 'cust_123', amount: 50 };
const json = (value: unknown) => ({ text: JSON.stringify(value) });
const firstPlan = {
  calls: [
    {
      _id: 'history',
      _tool: 'checkBillingHistory',
      customerId: '†input.customerId',
      _outputPath: '†state.history',
    },
    {
      _id: 'refund',
      _tool: 'issueRefund',
      customerId: '†input.customerId',
      amount: '†input.amount',
      _outputPath: '†state.refund',
    },
  ],
  output: null,
};

/** The JSON context of an iteration's user message, as the model was shown it. */
function shownContext(provider: ScriptedProvider, request: number): unknown[] {
  const user = provider.requests[request]!.messages.find((m) => m.role === 'user')!.content;
  const m = /^Context \(JSON\):\n([\s\S]*?)(\n\n|$)/.exec(user);
  expect(m, 'context block').not.toBeNull();
  return JSON.parse(m![1]!) as unknown[];
}

describe('PlanAgent.solve (seeds/004 loop)', () => {
  it('runs the solution, asks again with the state and the plan as context, and stops on an output', async () => {
    const { tools, refunds } = desk();
    const provider = new ScriptedProvider({
      turns: [json(firstPlan), json({ calls: [], output: { message: 'Refunded.' } })],
    });
    const agent = new PlanAgent({ provider, tools });
    const result = await agent.solve(input);

    expect(result).toMatchObject({ status: 'done', output: { message: 'Refunded.' }, iterations: 2 });
    expect(result.state).toEqual({ history: { orders: 5 }, refund: { id: 'refund_1' } });
    expect(refunds).toEqual([{ customerId: 'cust_123', amount: 50 }]);
    // The structured-output format lists each tool with its arguments.
    const format = provider.requests[0]!.responseFormat!;
    expect(format.name).toBe('solution');
    expect(JSON.stringify(format.schema)).toContain('"const":"issueRefund"');
    expect(provider.requests[0]!.tools).toEqual([]);
    // The second request shows the input, the state the run produced and the plan that ran.
    expect(shownContext(provider, 1)).toEqual([
      { type: 'input', ...input },
      { type: 'state', history: { orders: 5 }, refund: { id: 'refund_1' } },
      { type: 'plan', plan: firstPlan.calls },
    ]);
  });

  it('sends compile diagnostics back for a repair, with positions in its own answer', async () => {
    const { tools } = desk();
    const wrong = { calls: [{ _tool: 'issueRefnd', customerId: '†input.customerId' }], output: null };
    const provider = new ScriptedProvider({
      turns: [json(wrong), json(firstPlan), json({ calls: [], output: 'ok' })],
    });
    const result = await new PlanAgent({ provider, tools }).solve(input);
    expect(result.status).toBe('done');
    const repair = provider.requests[1]!.messages;
    expect(repair.at(-2)).toEqual({ role: 'assistant', content: JSON.stringify(wrong) });
    expect(repair.at(-1)!.content).toMatch(/^Your solution does not compile/);
    expect(repair.at(-1)!.content).toMatch(/1:\d+ \(call 0\) E_UNKNOWN_TOOL: /);
  });

  it('gives up as invalid after maxRepairs, with the diagnostics', async () => {
    const { tools } = desk();
    const bad = { text: 'not json at all' };
    const provider = new ScriptedProvider({ turns: [bad, bad] });
    const result = await new PlanAgent({ provider, tools }).solve(input, { maxRepairs: 1 });
    expect(result.status).toBe('invalid');
    expect(provider.requests[1]!.messages.at(-1)!.content).toMatch(/^Your answer is not JSON/);
  });

  it('sends failed calls back as {call, tool, status, error} records, not as data', async () => {
    const { tools } = desk({ refundFails: true });
    const provider = new ScriptedProvider({
      turns: [json(firstPlan), json({ calls: [], output: { message: 'Could not refund.' } })],
    });
    const result = await new PlanAgent({ provider, tools }).solve(input);
    expect(result.status).toBe('done');
    expect(result.runs[0]!.status).toBe('failed');
    const user = provider.requests[1]!.messages.find((m) => m.role === 'user')!.content;
    const m = /did not succeed \(JSON\):\n([\s\S]*)$/.exec(user);
    expect(JSON.parse(m![1]!)).toEqual([
      {
        call: 'refund',
        tool: 'issueRefund',
        status: 'failed',
        error: { message: 'the card was declined', code: 'declined' },
      },
    ]);
    // The failure is not in the state pretending to be a result.
    expect(result.state).toEqual({ history: { orders: 5 } });
  });

  it('does not accept an output given with calls that failed: it asks again', async () => {
    const { tools } = desk({ refundFails: true });
    const claim = { ...firstPlan, output: { message: 'Refunded.' } };
    const provider = new ScriptedProvider({ turns: [json(claim), json({ calls: [], output: 'sorry' })] });
    const result = await new PlanAgent({ provider, tools }).solve(input);
    expect(result).toMatchObject({ status: 'done', output: 'sorry', iterations: 2 });
  });

  it('stops at maxIterations', async () => {
    const { tools } = desk();
    const again = json({ calls: [firstPlan.calls[0]], output: null });
    const provider = new ScriptedProvider({ turns: [again, again] });
    const result = await new PlanAgent({ provider, tools }).solve(input, { maxIterations: 2 });
    expect(result).toMatchObject({ status: 'max_iterations', iterations: 2, output: null });
    expect(result.runs).toHaveLength(2);
  });

  it('lazy: shows the dry run to the approver; a plain no runs nothing', async () => {
    const { tools, refunds } = desk();
    const provider = new ScriptedProvider({ turns: [json(firstPlan)] });
    const seen: number[] = [];
    const result = await new PlanAgent({ provider, tools }).solve(input, {
      mode: 'lazy',
      approve: ({ simulation }) => {
        seen.push(simulation.scenarios.length);
        return false;
      },
    });
    expect(result.status).toBe('rejected');
    expect(seen).toEqual([1]);
    expect(refunds).toEqual([]);
  });

  it('lazy: a no with feedback goes back to the model; an approved plan runs, latent tools answered by the model', async () => {
    const { tools, refunds } = desk();
    const withSummary = {
      calls: [
        ...firstPlan.calls,
        { _id: 'note', _tool: 'summarize', text: '†state.refund', _outputPath: '†state.note' },
      ],
      output: null,
    };
    const provider = new ScriptedProvider({
      turns: [
        json(firstPlan),
        json(withSummary),
        // The latent call's result, asked of the model in the tool's output schema.
        json({ value: 'Refund refund_1 issued.' }),
        json({ calls: [], output: '†state.note was written' }),
      ],
    });
    const answers = [{ approved: false, feedback: 'add a note for the customer' }, true];
    const result = await new PlanAgent({ provider, tools }).solve(input, {
      mode: 'lazy',
      approve: () => answers.shift()!,
    });
    expect(result.status).toBe('done');
    expect(refunds).toHaveLength(1);
    expect(result.state.note).toBe('Refund refund_1 issued.');
    expect(provider.requests[1]!.messages[1]!.content).toContain(
      'Their feedback: add a note for the customer',
    );
    expect(provider.requests[2]!.responseFormat!.name).toBe('latent_result');
  });

  it('while the latch is planning, mutating tools are not offered and a solution using them does not compile', async () => {
    const { tools, refunds } = desk();
    const provider = new ScriptedProvider({ turns: [json(firstPlan), json(firstPlan)] });
    const agent = new PlanAgent({
      provider,
      tools,
      permissions: { readOnly: ['checkBillingHistory', 'summarize'] },
    });
    agent.latch.enter();
    const result = await agent.solve(input, { maxRepairs: 1 });
    expect(result.status).toBe('invalid');
    expect(result.diagnostics.map((d) => d.code)).toContain('E_UNKNOWN_TOOL');
    expect(JSON.stringify(provider.requests[0]!.responseFormat!.schema)).not.toContain('issueRefund');
    expect(refunds).toEqual([]);
  });
});
