import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  PermissionPolicy,
  PlanMode,
  PlanModeContext,
  PlanModePolicy,
  planTools,
} from '../../src/agent/index.js';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { EXIT_PLAN_TOOL, PLANNING_PROMPT } from '../../src/agent/prompts.js';
import type { AgentEvent } from '../../src/agent/agent-events.js';
import type { Message, ToolResultMessage } from '../../src/agent/model.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import type { Tool } from '../../src/index.js';

/** A file system in memory: `read` is read-only, `write` mutates. */
function files() {
  const contents = new Map<string, string>([['a.txt', 'hello']]);
  const writes: string[] = [];
  const tools: Tool[] = [
    {
      name: 'read',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute: ({ path }) => contents.get(path as string) ?? null,
    },
    {
      name: 'write',
      description: 'Write a file',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, text: { type: 'string' } },
        required: ['path', 'text'],
      },
      execute: ({ path, text }) => {
        writes.push(path as string);
        contents.set(path as string, text as string);
        return 'ok';
      },
    },
  ];
  return { contents, writes, tools };
}

const toolNames = (request: { tools: readonly { name: string }[] }) => request.tools.map((t) => t.name);

/** Every tool call of every assistant turn has exactly one result, right after the turn. */
function expectValidTranscript(messages: readonly Message[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const results = messages.slice(i + 1, i + 1 + m.toolCalls.length) as ToolResultMessage[];
    expect(results.map((r) => r.role)).toEqual(m.toolCalls.map(() => 'tool'));
    expect(results.map((r) => r.toolCallId)).toEqual(m.toolCalls.map((c) => c.id));
  }
}

describe('PlanAgent.plan', () => {
  it('offers only read-only tools plus exit_plan, denies a write, and ends on exit_plan with the latch executing', async () => {
    const fs = files();
    const provider = new ScriptedProvider({
      turns: [
        { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
        { toolCalls: [{ name: 'write', arguments: { path: 'a.txt', text: 'x' } }] },
        {
          text: 'Here is the plan.',
          toolCalls: [{ name: 'exit_plan', arguments: { plan: '1. write a.txt' } }],
        },
      ],
    });
    const agent = new PlanAgent({ provider, tools: fs.tools, permissions: { readOnly: ['read'] } });
    const messages: Message[] = [{ role: 'user', content: 'change a.txt' }];
    const outcome = await agent.plan(messages);

    expect(outcome).toMatchObject({ status: 'planned', plan: '1. write a.txt' });
    expect(outcome.messages).toBe(messages);
    expect(agent.latch.state).toBe('executing');
    expect(agent.latch.plan).toBe('1. write a.txt');
    // The model never saw the write tool while planning, and the call it made anyway was refused.
    for (const request of provider.requests) expect(toolNames(request)).toEqual(['read', 'exit_plan']);
    expect(fs.writes).toEqual([]);
    const refusal = messages.find((m) => m.role === 'tool' && m.name === 'write') as ToolResultMessage;
    expect(refusal.isError).toBe(true);
    expect(refusal.content).toMatch(/Plan mode denies mutating tool 'write'/);
    // The advice names the tool this model has for leaving plan mode.
    expect(refusal.content).toContain('submit the plan with exit_plan');
    expect(refusal.content).not.toContain('exit_plan_mode');
    const read = messages.find((m) => m.role === 'tool' && m.name === 'read') as ToolResultMessage;
    expect(read.content).toBe('hello');
    expectValidTranscript(messages);
  });

  it("injects the planning prompt once, after the caller's own system prompt, never twice", async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'no plan needed' }, { text: 'still none' }] });
    const agent = new PlanAgent({ provider, tools: files().tools });
    const messages: Message[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'hi' },
    ];
    // A plain-text answer is the plan (see the tests of plain-text plans below).
    expect((await agent.plan(messages)).status).toBe('planned');
    messages.push({ role: 'user', content: 'again' });
    await agent.plan(messages);
    const systems = provider.requests[1]!.messages.filter((m) => m.role === 'system').map((m) => m.content);
    expect(systems).toEqual(['You are terse.', PLANNING_PROMPT]);
    expect(provider.requests[0]!.messages[1]).toEqual({ role: 'system', content: PLANNING_PROMPT });
  });

  it('answers every tool call of the turn that submits the plan, without running them', async () => {
    const fs = files();
    const provider = new ScriptedProvider({
      turns: [
        {
          toolCalls: [
            { name: 'exit_plan', arguments: { plan: 'P' } },
            { name: 'read', arguments: { path: 'a.txt' } },
          ],
        },
      ],
    });
    const agent = new PlanAgent({ provider, tools: fs.tools, permissions: { readOnly: ['read'] } });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    await agent.plan(messages);
    expectValidTranscript(messages);
    const last = messages.at(-1) as ToolResultMessage;
    expect(last).toMatchObject({ name: 'read', isError: true });
    expect(last.content).toMatch(/^Not run: the plan was submitted/);
  });

  it('a rejected plan keeps planning and hands the feedback to the model; the next one is approved', async () => {
    const asked: string[] = [];
    const provider = new ScriptedProvider({
      turns: [
        { toolCalls: [{ name: 'exit_plan', arguments: { plan: 'v1' } }] },
        { toolCalls: [{ name: 'exit_plan', arguments: { plan: 'v2' } }] },
      ],
    });
    const agent = new PlanAgent({
      provider,
      tools: files().tools,
      approvePlan: ({ plan }) => {
        asked.push(plan);
        return plan === 'v1' ? { approved: false, feedback: 'back up a.txt first' } : true;
      },
    });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    const outcome = await agent.plan(messages);
    expect(asked).toEqual(['v1', 'v2']);
    expect(outcome).toMatchObject({ status: 'planned', plan: 'v2' });
    const second = provider.requests[1]!.messages.at(-1) as ToolResultMessage;
    expect(second).toMatchObject({ role: 'tool', isError: true });
    expect(second.content).toContain('back up a.txt first');
    expect(second.content).toContain('still in plan mode');
  });

  it('stops at maxTurns', async () => {
    const read = { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] };
    const provider = new ScriptedProvider({ turns: [read, read, read] });
    const agent = new PlanAgent({ provider, tools: files().tools, maxTurns: 2 });
    const outcome = await agent.plan([{ role: 'user', content: 'go' }]);
    expect(outcome.status).toBe('max_turns');
    expect(provider.requests).toHaveLength(2);
  });
});

describe('PlanAgent.execute', () => {
  it('offers every tool after the plan, on the same message array, and runs the write', async () => {
    const fs = files();
    const events: AgentEvent['type'][] = [];
    const provider = new ScriptedProvider({
      turns: [
        { toolCalls: [{ name: 'exit_plan', arguments: { plan: 'write b.txt' } }] },
        { toolCalls: [{ name: 'write', arguments: { path: 'b.txt', text: 'new' } }] },
        { text: 'Done.' },
      ],
    });
    const agent = new PlanAgent({
      provider,
      tools: fs.tools,
      permissions: { readOnly: ['read'] },
      onEvent: (e) => events.push(e.type),
    });
    const messages: Message[] = [{ role: 'user', content: 'make b.txt' }];
    await agent.plan(messages);
    const outcome = await agent.execute(messages);
    expect(outcome).toMatchObject({ status: 'answered', text: 'Done.' });
    expect(fs.contents.get('b.txt')).toBe('new');
    expect(toolNames(provider.requests[1]!)).toEqual(['read', 'write']);
    // The executing request carries the whole planning conversation.
    expect(provider.requests[1]!.messages.some((m) => m.role === 'tool' && m.name === 'exit_plan')).toBe(
      true,
    );
    expect(events).toEqual(expect.arrayContaining(['text-delta', 'tool-call', 'tool-result', 'done']));
    expectValidTranscript(messages);
  });
});

describe('PlanAgent.child', () => {
  it("shares the parent's latch and policy: no child writes while the parent plans", async () => {
    const fs = files();
    const provider = new ScriptedProvider({
      turns: [{ toolCalls: [{ name: 'write', arguments: { path: 'a.txt', text: 'x' } }] }, { text: 'ok' }],
    });
    const parent = new PlanAgent({ provider, tools: fs.tools, permissions: { readOnly: ['read'] } });
    const child = parent.child();
    expect(child.latch).toBe(parent.latch);
    parent.latch.enter();
    expect(child.visibleTools.map((t) => t.name)).toEqual(['read']);
    const messages: Message[] = [{ role: 'user', content: 'write' }];
    await child.execute(messages);
    expect(fs.writes).toEqual([]);
    expect((messages[2] as ToolResultMessage).content).toMatch(/Plan mode denies mutating tool 'write'/);
    // The parent's flip applies to the child's very next check.
    parent.latch.exit('done planning');
    expect(child.visibleTools.map((t) => t.name)).toEqual(['read', 'write']);
  });

  it("a child's own tool named like one the parent trusts as read-only is not trusted", async () => {
    const ran: string[] = [];
    const search = (who: string): Tool => ({
      name: 'search',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object' },
      execute: () => {
        ran.push(who);
        return who;
      },
    });
    const provider = new ScriptedProvider({
      turns: [{ toolCalls: [{ name: 'search', arguments: {} }] }, { text: 'ok' }],
    });
    const parent = new PlanAgent({
      provider,
      tools: [search('trusted')],
      permissions: { trustAnnotations: true },
    });
    const child = parent.child({ tools: [search('impostor')] });
    parent.latch.enter();
    expect(parent.visibleTools.map((t) => t.name)).toEqual(['search']);
    expect(child.visibleTools).toEqual([]);
    const messages: Message[] = [{ role: 'user', content: 'look it up' }];
    await child.execute(messages);
    expect(ran).toEqual([]);
    expect((messages[2] as ToolResultMessage).content).toMatch(/Plan mode denies mutating tool 'search'/);
  });
});

describe('PlanAgent options', () => {
  it('rejects bad options with a TypeError naming the value', () => {
    const tools = files().tools;
    const provider = new ScriptedProvider({ turns: [] });
    expect(() => new PlanAgent({ provider: {} as never, tools })).toThrow(/provider must be a ModelProvider/);
    expect(() => new PlanAgent({ provider, tools, maxTurns: 0 })).toThrow(/maxTurns.*0/);
    expect(() => new PlanAgent({ provider, tools, onEvent: 'x' as never })).toThrow(
      /onEvent must be a function/,
    );
  });
});

describe('PlanAgent: a plain-text answer is the plan (the mini-claw-code flow)', () => {
  it('ends planning like exit_plan; the caller approves and execute() offers and runs the write', async () => {
    const fs = files();
    const provider = new ScriptedProvider({
      turns: [
        { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
        { text: "I'll copy a.txt to b.txt." },
        { toolCalls: [{ name: 'write', arguments: { path: 'b.txt', text: 'hello' } }] },
        { text: 'Done! Copied the file.' },
      ],
    });
    const agent = new PlanAgent({ provider, tools: fs.tools, permissions: { readOnly: ['read'] } });
    const messages: Message[] = [{ role: 'user', content: 'Copy a.txt to b.txt' }];
    const planned = await agent.plan(messages);
    expect(planned).toMatchObject({
      status: 'planned',
      plan: "I'll copy a.txt to b.txt.",
      submittedWith: 'text',
    });
    expect(agent.latch.state).toBe('executing');
    expect(agent.latch.plan).toBe("I'll copy a.txt to b.txt.");
    messages.push({ role: 'user', content: 'Approved. Go ahead.' });
    const executed = await agent.execute(messages);
    expect(executed).toMatchObject({ status: 'answered', text: 'Done! Copied the file.' });
    expect(fs.contents.get('b.txt')).toBe('hello');
    expect(provider.requests.map(toolNames)).toEqual([
      ['read', 'exit_plan'],
      ['read', 'exit_plan'],
      ['read', 'write'],
      ['read', 'write'],
    ]);
    expectValidTranscript(messages);
  });

  it('with approvePlan, a plain-text plan is asked about; a no hands the feedback to the model, which plans on', async () => {
    const asked: string[] = [];
    const provider = new ScriptedProvider({ turns: [{ text: 'v1' }, { text: 'v2' }] });
    const agent = new PlanAgent({
      provider,
      tools: files().tools,
      approvePlan: ({ plan }) => {
        asked.push(plan);
        return plan === 'v1' ? { approved: false, feedback: 'keep a backup' } : true;
      },
    });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    const outcome = await agent.plan(messages);
    expect(asked).toEqual(['v1', 'v2']);
    expect(outcome).toMatchObject({ status: 'planned', plan: 'v2', submittedWith: 'text' });
    const feedback = provider.requests[1]!.messages.at(-1)!;
    expect(feedback.role).toBe('user');
    expect(feedback.content).toContain('keep a backup');
    expect(feedback.content).toContain('still in plan mode');
    expect(agent.latch.plan).toBe('v2');
  });

  it('a rejected plain-text plan with no turns left is max_turns, and the latch stays planning', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'v1' }] });
    const agent = new PlanAgent({ provider, tools: files().tools, maxTurns: 1, approvePlan: () => false });
    const outcome = await agent.plan([{ role: 'user', content: 'go' }]);
    expect(outcome).toMatchObject({ status: 'max_turns', plan: null, submittedWith: null });
    expect(agent.latch.state).toBe('planning');
  });

  it('an empty answer is no plan: answered, the latch still planning', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: '  ' }] });
    const agent = new PlanAgent({ provider, tools: files().tools });
    const outcome = await agent.plan([{ role: 'user', content: 'go' }]);
    expect(outcome).toMatchObject({ status: 'answered', plan: null });
    expect(agent.latch.isPlanning).toBe(true);
  });
});

describe('PlanAgent: exit_plan with no arguments', () => {
  it("submits the turn's text as the plan", async () => {
    const provider = new ScriptedProvider({
      turns: [{ text: '1. copy a.txt\n2. check it', toolCalls: [{ name: 'exit_plan' }] }],
    });
    const agent = new PlanAgent({ provider, tools: files().tools });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    const outcome = await agent.plan(messages);
    expect(outcome).toMatchObject({
      status: 'planned',
      plan: '1. copy a.txt\n2. check it',
      submittedWith: 'exit_plan',
    });
    expect(agent.latch.state).toBe('executing');
    expect((messages.at(-1) as ToolResultMessage).content).toBe('The plan was submitted. Plan mode is over.');
  });

  it('with no text either, it is refused with what to do; the model calls it again with {plan}', async () => {
    const provider = new ScriptedProvider({
      turns: [
        { toolCalls: [{ name: 'exit_plan' }] },
        { toolCalls: [{ name: 'exit_plan', arguments: { plan: '' } }] },
        { toolCalls: [{ name: 'exit_plan', arguments: { plan: 7 } }] },
        { toolCalls: [{ name: 'exit_plan', arguments: '{plan' }] },
        { toolCalls: [{ name: 'exit_plan', arguments: { plan: 'the plan' } }] },
      ],
    });
    const agent = new PlanAgent({ provider, tools: files().tools });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    const outcome = await agent.plan(messages);
    expect(outcome).toMatchObject({ status: 'planned', plan: 'the plan' });
    const refusals = messages.filter((m): m is ToolResultMessage => m.role === 'tool' && m.isError === true);
    expect(refusals.map((m) => m.content)).toEqual([
      expect.stringMatching(/^exit_plan needs a plan, and got none: pass the whole plan as `plan`, or write/),
      expect.stringMatching(/^exit_plan needs a plan, and got none/),
      expect.stringMatching(/^exit_plan's `plan` must be a string, not number 7/),
      expect.stringMatching(/^The arguments of exit_plan could not be read/),
    ]);
  });

  it('the tool offered takes no arguments or {plan}', () => {
    expect(EXIT_PLAN_TOOL.inputSchema).not.toHaveProperty('required');
    expect(EXIT_PLAN_TOOL.description).toMatch(/no arguments/);
  });
});

describe('PlanAgent.execute after plan() ended without a plan', () => {
  it('is the caller approving: the latch leaves planning with the last text, and the write runs', async () => {
    const fs = files();
    const read = { text: 'Looking.', toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] };
    const provider = new ScriptedProvider({
      turns: [
        read,
        read,
        { toolCalls: [{ name: 'write', arguments: { path: 'b.txt', text: 'x' } }] },
        { text: 'ok' },
      ],
    });
    const agent = new PlanAgent({
      provider,
      tools: fs.tools,
      maxTurns: 2,
      permissions: { readOnly: ['read'] },
    });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    expect((await agent.plan(messages)).status).toBe('max_turns');
    expect(agent.latch.isPlanning).toBe(true);
    messages.push({ role: 'user', content: 'Approved. Go ahead.' });
    await agent.execute(messages);
    expect(agent.latch.state).toBe('executing');
    expect(agent.latch.plan).toBe('Looking.');
    expect(toolNames(provider.requests[2]!)).toEqual(['read', 'write']);
    expect(fs.writes).toEqual(['b.txt']);
  });

  it('a latch entered by anything but its own plan() stays planning: the write is denied, naming no exit it lacks', async () => {
    const fs = files();
    const provider = new ScriptedProvider({
      turns: [{ toolCalls: [{ name: 'write', arguments: { path: 'b.txt', text: 'x' } }] }, { text: 'ok' }],
    });
    const events: AgentEvent[] = [];
    const agent = new PlanAgent({
      provider,
      tools: fs.tools,
      permissions: { readOnly: ['read'] },
      onEvent: (e) => events.push(e),
    });
    agent.latch.enter();
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    await agent.execute(messages);
    expect(agent.latch.isPlanning).toBe(true);
    expect(fs.writes).toEqual([]);
    const refusal = messages[2] as ToolResultMessage;
    expect(refusal.content).toBe(
      "Permission denied: Plan mode denies mutating tool 'write'. Do not call it while planning: finish planning first; it can run once plan mode is over.",
    );
    const result = events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({
      outcome: 'denied',
      denial: {
        tool: 'write',
        state: 'planning',
        cause: 'plan-mode',
        reason: "Plan mode denies mutating tool 'write'",
      },
    });
  });
});

describe('PlanAgent: a denial names only tools the model is offered', () => {
  it('with the plan tools among its tools, execute() advises plan_write and exit_plan_mode; plan() advises exit_plan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'planmode-agent-'));
    const latch = new PlanMode();
    const plan = planTools({ latch, plansDir: join(dir, 'plans'), approve: () => true });
    onTestFinished(() => {
      plan.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const fs = files();
    const tools = [...plan, ...fs.tools];
    const base = new PermissionPolicy({ mode: 'bypassPermissions', tools, readOnly: ['read'] });
    const context = new PlanModeContext({ latch, policy: new PlanModePolicy(base, latch) });
    const write = { toolCalls: [{ name: 'write', arguments: { path: 'b.txt', text: 'x' } }] };
    const provider = new ScriptedProvider({ turns: [write, { text: 'ok' }, write, { text: 'the plan' }] });
    const events: AgentEvent[] = [];
    const agent = new PlanAgent({ provider, tools, context, onEvent: (e) => events.push(e) });
    latch.enter();
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    await agent.execute(messages);
    expect((messages[2] as ToolResultMessage).content).toBe(
      "Permission denied: Plan mode denies mutating tool 'write'. Describe the change in the plan (plan_write) and call exit_plan_mode to ask for approval.",
    );
    await agent.plan(messages);
    const second = messages.filter((m): m is ToolResultMessage => m.role === 'tool').at(-1)!;
    expect(second.content).toBe(
      "Permission denied: Plan mode denies mutating tool 'write'. Put the change in your plan and submit the plan with exit_plan to ask for approval.",
    );
    const denials = events.flatMap((e) => (e.type === 'tool-result' && e.denial ? [e.denial] : []));
    expect(denials).toEqual([
      {
        tool: 'write',
        state: 'planning',
        cause: 'plan-mode',
        reason: "Plan mode denies mutating tool 'write'",
      },
      {
        tool: 'write',
        state: 'planning',
        cause: 'plan-mode',
        reason: "Plan mode denies mutating tool 'write'",
      },
    ]);
    expect(fs.writes).toEqual([]);
  });
});
