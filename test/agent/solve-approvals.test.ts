/**
 * Modes and approval in the plan loop:
 * - a context whose plan message says lazy makes the loop lazy (solve(), PlanAgent), whatever
 *   the `mode` option says: the solution is put to `approve` as a plan before anything runs;
 * - a call of a tool that needs approval is put to `approve` by itself, when it is ready, with
 *   its resolved arguments, in lazy and eager loops alike;
 * - a call turned down ends the loop `rejected`: never `done`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/agent/model.js';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { OpenAICompatibleProvider } from '../../src/agent/providers/openai.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import { solve } from '../../src/agent/plan-loop/solve.js';
import type { SolveApprovalRequest } from '../../src/agent/plan-loop/solve-approvals.js';
import type { ApprovalResponse, Tool } from '../../src/index.js';
import { type ChatServer, chatServer } from './chat-server.js';

/** The refund desk: a quote (read-only) and a refund that needs approval; `log` is what ran. */
function desk() {
  const log: string[] = [];
  const tools: Tool[] = [
    {
      name: 'quoteRefund',
      inputSchema: {
        type: 'object',
        properties: { customerId: { type: 'string' } },
        required: ['customerId'],
      },
      annotations: { readOnlyHint: true },
      execute: ({ customerId }) => {
        log.push(`quote ${String(customerId)}`);
        return { amount: 50 };
      },
    },
    {
      name: 'issueRefund',
      needsApproval: true,
      inputSchema: {
        type: 'object',
        properties: { customerId: { type: 'string' }, amount: { type: 'number' } },
        required: ['customerId', 'amount'],
      },
      execute: (args) => {
        log.push(`refund ${JSON.stringify(args)}`);
        return { id: 'refund_1' };
      },
    },
  ];
  return { tools, log };
}

const json = (value: unknown) => ({ text: JSON.stringify(value) });
const input = { customerId: 'cust_123' };
/** The refund's amount comes from the quote: it is known only once the quote has run. */
const solution = {
  calls: [
    { _id: 'quote', _tool: 'quoteRefund', customerId: '†input.customerId', _outputPath: '†state.quote' },
    {
      _id: 'refund',
      _tool: 'issueRefund',
      customerId: '†input.customerId',
      amount: '†state.quote.amount',
      _outputPath: '†state.refund',
    },
  ],
  output: null,
};
const answered = json({ calls: [], output: 'Refunded 50.' });

/** A context as a person writes it: the plan message says lazy. */
const lazyContext = `[
  { "type": "input", "customerId": "cust_123" },
  { "type": "plan", "mode": "lazy", "plan": [] }
]`;

/** Records each request (and what had run when it came) and answers with `answer`. */
function recorder(log: string[], answer: (request: SolveApprovalRequest) => ApprovalResponse) {
  const asked: { kind: string; ranBefore: string[]; args?: unknown }[] = [];
  const approve = (request: SolveApprovalRequest) => {
    asked.push({
      kind: request.kind,
      ranBefore: [...log],
      ...(request.kind === 'call' && { args: request.args }),
    });
    return answer(request);
  };
  return { asked, approve };
}

describe('a context that says lazy makes the loop lazy', () => {
  it.each([
    ['no mode option', {}],
    ['mode: eager', { mode: 'eager' as const }],
  ])(
    'solve() (%s): the solution is asked about as a plan before any tool runs; a no runs nothing',
    async (_name, mode) => {
      const { tools, log } = desk();
      const provider = new ScriptedProvider({ turns: [json(solution)] });
      const { asked, approve } = recorder(log, () => false);
      const result = await solve(
        input,
        { ...mode, context: lazyContext, approve },
        {
          provider,
          tools: () => tools,
          emit: () => {},
        },
      );
      expect(result.status).toBe('rejected');
      expect(asked).toEqual([{ kind: 'plan', ranBefore: [] }]);
      expect(log).toEqual([]);
      // Lazy solutions are offered no _output: the schema the model was given is the lazy one.
      expect(JSON.stringify(provider.requests[0]!.responseFormat!.schema)).not.toContain('"_output"');
    },
  );

  it('PlanAgent.solve over the Chat Completions wire: lazy, approved first, then each call that needs approval', async () => {
    const { tools, log } = desk();
    server = await chatServer([{ text: JSON.stringify(solution) }, { text: answered.text }]);
    const provider = new OpenAICompatibleProvider({
      model: 'test-model',
      baseURL: `${server.url}/v1`,
      requireApiKey: false,
      maxRetries: 0,
    });
    const { asked, approve } = recorder(log, () => true);
    const result = await new PlanAgent({ provider, tools }).solve(input, {
      mode: 'eager',
      context: lazyContext,
      approve,
    });
    expect(result).toMatchObject({ status: 'done', output: 'Refunded 50.' });
    expect(asked).toEqual([
      { kind: 'plan', ranBefore: [] },
      { kind: 'call', ranBefore: ['quote cust_123'], args: { customerId: 'cust_123', amount: 50 } },
    ]);
    expect(log).toEqual(['quote cust_123', 'refund {"customerId":"cust_123","amount":50}']);
  });
});

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a call that needs approval is asked about by itself, resolved', () => {
  it('lazy: after the plan, with its arguments resolved (not the †state references)', async () => {
    const { tools, log } = desk();
    const provider = new ScriptedProvider({ turns: [json(solution), answered] });
    const { asked, approve } = recorder(log, () => true);
    const result = await new PlanAgent({ provider, tools }).solve(input, { mode: 'lazy', approve });
    expect(result.status).toBe('done');
    expect(asked).toEqual([
      { kind: 'plan', ranBefore: [] },
      { kind: 'call', ranBefore: ['quote cust_123'], args: { customerId: 'cust_123', amount: 50 } },
    ]);
    expect(log).toHaveLength(2);
  });

  it('eager: asked too, and the refund runs once approved', async () => {
    const { tools, log } = desk();
    const provider = new ScriptedProvider({ turns: [json(solution), answered] });
    const { asked, approve } = recorder(log, () => true);
    const result = await new PlanAgent({ provider, tools }).solve(input, { approve });
    expect(result.status).toBe('done');
    expect(asked).toEqual([
      { kind: 'call', ranBefore: ['quote cust_123'], args: { customerId: 'cust_123', amount: 50 } },
    ]);
    expect(result.state.refund).toEqual({ id: 'refund_1' });
  });

  it("PlanAgent: without solve()'s approve, the agent's approveTool answers call requests", async () => {
    const { tools, log } = desk();
    const provider = new ScriptedProvider({ turns: [json(solution), answered] });
    const calls: string[] = [];
    const agent = new PlanAgent({
      provider,
      tools,
      approveTool: (request) => (calls.push(`${request.call} ${JSON.stringify(request.args)}`), true),
    });
    const result = await agent.solve(input);
    expect(result.status).toBe('done');
    expect(calls).toEqual(['refund {"customerId":"cust_123","amount":50}']);
    expect(log).toHaveLength(2);
  });
});

describe('a call turned down ends the loop rejected', () => {
  it.each<[string, ApprovalResponse]>([
    ['a plain no', false],
    ['a no with feedback', { approved: false, feedback: 'only 20' }],
  ])(
    '%s: the call ends rejected, the loop ends rejected, the model is not asked again',
    async (_name, no) => {
      const { tools, log } = desk();
      const provider = new ScriptedProvider({ turns: [json(solution), answered] });
      const { approve } = recorder(log, () => no);
      const result = await new PlanAgent({ provider, tools }).solve(input, { approve });
      expect(result.status).toBe('rejected');
      expect(result.output).toBeNull();
      expect(provider.requests).toHaveLength(1);
      expect(log).toEqual(['quote cust_123']);
      const refund = result.runs[0]!.calls.find((c) => c.id === 'refund')!;
      expect(refund.status).toBe('rejected');
      if (typeof no === 'object') expect(refund.error?.message).toContain('only 20');
      // What ran before the no is kept.
      expect(result.state).toEqual({ quote: { amount: 50 } });
    },
  );

  it('no approver at all: the call is rejected (not run), and the loop does not end done', async () => {
    const { tools, log } = desk();
    const provider = new ScriptedProvider({ turns: [json(solution), answered] });
    const result = await solve(input, {}, { provider, tools: () => tools, emit: () => {} });
    expect(result.status).toBe('rejected');
    expect(log).toEqual(['quote cust_123']);
  });

  it('an output given with the calls does not make a loop with a rejected call done', async () => {
    const { tools } = desk();
    const claim = { ...solution, output: 'Refunded 50.' };
    const provider = new ScriptedProvider({ turns: [json(claim)] });
    const result = await new PlanAgent({ provider, tools }).solve(input, { approve: () => false });
    expect(result).toMatchObject({ status: 'rejected', output: null });
  });
});

describe('PlanAgent.execute: a model’s call of a tool that needs approval', () => {
  const turns = [
    { toolCalls: [{ id: 'c1', name: 'issueRefund', arguments: { customerId: 'cust_123', amount: 50 } }] },
    { text: 'Done.' },
  ];

  it('is asked about though the policy allows every tool', async () => {
    const { tools, log } = desk();
    const asked: unknown[] = [];
    const agent = new PlanAgent({
      provider: new ScriptedProvider({ turns }),
      tools,
      approveTool: (request) => (
        asked.push([request.call, request.tool, request.args, request.reason]),
        true
      ),
    });
    const messages: Message[] = [{ role: 'user', content: 'refund cust_123' }];
    await agent.execute(messages);
    expect(asked).toEqual([
      ['c1', 'issueRefund', { customerId: 'cust_123', amount: 50 }, "tool 'issueRefund' needs approval"],
    ]);
    expect(log).toEqual(['refund {"customerId":"cust_123","amount":50}']);
  });

  it('is refused, with a result the model can read, when no one can approve it', async () => {
    const { tools, log } = desk();
    const provider = new ScriptedProvider({ turns });
    const messages: Message[] = [{ role: 'user', content: 'refund cust_123' }];
    await new PlanAgent({ provider, tools }).execute(messages);
    expect(log).toEqual([]);
    const result = messages.find((m) => m.role === 'tool')!;
    expect(result.content).toMatch(/needs approval, and no one is available to approve 'issueRefund'/);
  });
});
