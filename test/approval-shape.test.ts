/**
 * One approval shape: the same callback, typed `Approve`, answers run() (the lazy plan and a
 * needsApproval call), PlanAgent (its plan and a tool call its policy asks about) and solve()
 * (a lazy solution, and each needsApproval call of a solution), and each request says what is
 * asked and why.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../src/agent/model.js';
import { PlanAgent } from '../src/agent/plan-agent.js';
import { ScriptedProvider } from '../src/agent/providers/scripted.js';
import type { ApprovalRequest, ApprovalResponse, Approve, Tool } from '../src/index.js';
import { run } from '../src/run/index.js';

/** One callback for everything: it records each request and answers with `answer`. */
function recorder(answer: (request: ApprovalRequest) => ApprovalResponse = () => true) {
  const asked: ApprovalRequest[] = [];
  const approve: Approve = (request) => {
    asked.push(request);
    return answer(request);
  };
  return { approve, asked };
}

/** A deploy tool that needs approval, and a read-only lookup. */
function deskTools() {
  const deployed: unknown[] = [];
  const deploy: Tool = {
    name: 'deploy',
    needsApproval: true,
    inputSchema: { type: 'object', properties: { env: { type: 'string' } }, required: ['env'] },
    execute: (args) => {
      deployed.push(args);
      return 'deployed';
    },
  };
  const lookup: Tool = {
    name: 'lookup',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: { env: { type: 'string' } } },
    execute: () => ({ healthy: true }),
  };
  return { deploy, lookup, deployed };
}

const lazyPlan = {
  type: 'plan',
  mode: 'lazy',
  plan: [
    { _id: 'check', _tool: 'lookup', env: 'prod', _outputPath: '†state.health' },
    { _id: 'ship', _tool: 'deploy', env: 'prod', _outputPath: '†state.result' },
  ],
};

describe('run(): the plan and each needsApproval call', () => {
  it('asks { kind: plan, plan, reason }, then { kind: call, call, tool, args, reason, definition, plan }', async () => {
    const { deploy, lookup, deployed } = deskTools();
    const { approve, asked } = recorder();
    const result = await run(lazyPlan, { tools: [deploy, lookup], approve });
    expect(result.status).toBe('succeeded');
    expect(deployed).toEqual([{ env: 'prod' }]);
    expect(asked.map((request) => request.kind)).toEqual(['plan', 'call']);
    const [plan, call] = asked as [
      Extract<ApprovalRequest, { kind: 'plan' }>,
      Extract<ApprovalRequest, { kind: 'call' }>,
    ];
    expect(typeof plan.plan === 'string' ? null : plan.plan.calls.map((c) => c.id)).toEqual([
      'check',
      'ship',
    ]);
    expect(plan.reason).toBe('a lazy plan runs only once approved');
    expect(call).toMatchObject({
      kind: 'call',
      call: 'ship',
      tool: 'deploy',
      args: { env: 'prod' },
      reason: "tool 'deploy' needs approval",
    });
    expect(call.definition.name).toBe('deploy');
    expect(call.plan).toBe(plan.plan);
  });

  it('a no with feedback rejects the call and keeps the feedback as its error; a plain no keeps none', async () => {
    const { deploy, lookup, deployed } = deskTools();
    const withFeedback = recorder((request) =>
      request.kind === 'plan' ? true : { approved: false, feedback: 'not on a Friday' },
    );
    const refused = await run(lazyPlan, { tools: [deploy, lookup], approve: withFeedback.approve });
    const ship = refused.calls.find((c) => c.id === 'ship')!;
    expect(ship.status).toBe('rejected');
    expect(ship.error?.message).toBe("the call 'ship' was rejected; feedback: not on a Friday");

    const plain = recorder((request) => request.kind === 'plan');
    const plainResult = await run(lazyPlan, { tools: [deploy, lookup], approve: plain.approve });
    const plainShip = plainResult.calls.find((c) => c.id === 'ship')!;
    expect(plainShip.status).toBe('rejected');
    expect(plainShip.error ?? null).toBeNull();
    expect(deployed).toEqual([]);
  });

  it('an answer of another shape is not a decision: the call fails closed with a message, the plan throws a TypeError', async () => {
    const { deploy, lookup, deployed } = deskTools();
    const garbage = recorder((request) => (request.kind === 'plan' ? true : ('yes' as unknown as boolean)));
    const result = await run(lazyPlan, { tools: [deploy, lookup], approve: garbage.approve });
    const ship = result.calls.find((c) => c.id === 'ship')!;
    expect(ship.status).toBe('rejected');
    expect(ship.error?.message).toBe(
      'approval failed: an approval callback must answer true, false or { approved, feedback? }, not string',
    );
    expect(deployed).toEqual([]);

    const badPlan = recorder(() => ({ ok: true }) as unknown as boolean);
    await expect(run(lazyPlan, { tools: [deploy, lookup], approve: badPlan.approve })).rejects.toThrow(
      new TypeError(
        'an approval callback must answer true, false or { approved, feedback?, plan? }, not object',
      ),
    );
  });
});

describe('PlanAgent: approvePlan and approveTool take the same callback', () => {
  it('asks about the plan (its text) and about a tool call the policy asks about (the model’s call id)', async () => {
    const { deploy, lookup, deployed } = deskTools();
    const { approve, asked } = recorder();
    const provider = new ScriptedProvider({
      turns: [
        { toolCalls: [{ name: 'exit_plan', arguments: { plan: '1. deploy to prod' } }] },
        { toolCalls: [{ id: 'model-call-7', name: 'deploy', arguments: { env: 'prod' } }] },
        { text: 'Deployed.' },
      ],
    });
    const agent = new PlanAgent({
      provider,
      tools: [deploy, lookup],
      permissions: { mode: 'default', allow: ['lookup'], ask: ['deploy'] },
      approvePlan: approve,
      approveTool: approve,
    });
    const messages: Message[] = [{ role: 'user', content: 'ship it' }];
    expect(await agent.plan(messages)).toMatchObject({ status: 'planned', plan: '1. deploy to prod' });
    expect(await agent.execute(messages)).toMatchObject({ status: 'answered' });
    expect(deployed).toEqual([{ env: 'prod' }]);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toEqual({
      kind: 'plan',
      plan: '1. deploy to prod',
      reason: 'the agent carries out its plan only once approved',
    });
    expect(asked[1]).toMatchObject({
      kind: 'call',
      call: 'model-call-7',
      tool: 'deploy',
      args: { env: 'prod' },
      reason: expect.stringContaining("'deploy'") as unknown,
    });
    expect((asked[1] as Extract<ApprovalRequest, { kind: 'call' }>).definition.name).toBe('deploy');
  });
});

describe('solve(): a lazy solution', () => {
  it('asks { kind: plan, plan, reason, simulation, iteration }; a no with feedback asks the model again', async () => {
    const { deploy, lookup, deployed } = deskTools();
    const solution = {
      calls: [{ _id: 'ship', _tool: 'deploy', env: 'prod', _outputPath: '†state.result' }],
      output: null,
    };
    const provider = new ScriptedProvider({
      turns: [
        { text: JSON.stringify(solution) },
        { text: JSON.stringify(solution) },
        { text: JSON.stringify({ calls: [], output: 'shipped' }) },
      ],
    });
    let answers = 0;
    const { approve, asked } = recorder(() =>
      answers++ === 0 ? { approved: false, feedback: 'check its health first' } : true,
    );
    const result = await new PlanAgent({ provider, tools: [deploy, lookup] }).solve('ship it', {
      mode: 'lazy',
      approve,
    });
    expect(result.status).toBe('done');
    expect(deployed).toEqual([{ env: 'prod' }]);
    // The approved solution's deploy needs approval: it is asked about by itself, resolved, too.
    expect(asked.map((request) => [request.kind, request.kind === 'plan' && request.iteration])).toEqual([
      ['plan', 1],
      ['plan', 2],
      ['call', false],
    ]);
    expect(asked[2]).toMatchObject({ kind: 'call', call: 'ship', tool: 'deploy', args: { env: 'prod' } });
    const first = asked[0] as Extract<ApprovalRequest, { kind: 'plan' }>;
    expect(first.reason).toBe('a lazy solution runs only once approved');
    expect(typeof first.plan === 'string' ? null : first.plan.calls.map((c) => c.id)).toEqual(['ship']);
    expect(first.simulation?.scenarios.length).toBeGreaterThan(0);
    expect(JSON.stringify(provider.requests[1]!.messages)).toContain('check its health first');
  });
});
