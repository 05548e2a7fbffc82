import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Message,
  PlanAgent,
  PlanMode,
  PlanModeContext,
  type PlanModeSetup,
  PlanModePolicy,
  PermissionPolicy,
  ScriptedProvider,
  setupPlanMode,
  TODO_REMINDER_HEADING,
} from '../../src/agent/index.js';
import type { Approve, Tool } from '../../src/index.js';

let dir: string;
const made: PlanModeSetup[] = [];
const cwd = process.cwd();

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'planmode-agent-plan-mode-')));
});
afterEach(async () => {
  process.chdir(cwd);
  for (const setup of made.splice(0)) setup.close();
  await rm(dir, { recursive: true, force: true });
});

/** A read-only `read` and a mutating `write`. */
function files(): { tools: Tool[] } {
  return {
    tools: [
      {
        name: 'read',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
        execute: () => 'hello',
      },
      { name: 'write', inputSchema: { type: 'object', properties: {} }, execute: () => 'ok' },
    ],
  };
}

const yes: Approve = () => true;
const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);

function setup(options: Partial<Parameters<typeof setupPlanMode>[0]> = {}): PlanModeSetup {
  const result = setupPlanMode({ approve: yes, plansDir: join(dir, 'plans'), ...options });
  made.push(result);
  return result;
}

describe('PlanAgent planMode', () => {
  const list = (...items: [string, string][]) => ({
    todos: items.map(([content, status]) => ({ content, status })),
  });

  it('installs the plan tools and shows the todo list before each turn, never adding it to the conversation', async () => {
    const fs = files();
    const provider = new ScriptedProvider({
      turns: [
        {
          toolCalls: [{ name: 'todo_write', arguments: list(['read', 'in_progress'], ['write', 'pending']) }],
        },
        {
          toolCalls: [
            { name: 'read' },
            { name: 'todo_write', arguments: list(['read', 'completed'], ['write', 'in_progress']) },
          ],
        },
        { text: 'done' },
      ],
    });
    const agent = new PlanAgent({
      provider,
      tools: fs.tools,
      planMode: { plansDir: join(dir, 'plans') },
      approvePlan: yes,
    });
    made.push(agent.planMode!);
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    await agent.execute(messages);

    expect(names(provider.requests[0]!.tools)).toEqual([
      'read',
      'write',
      'enter_plan_mode',
      'exit_plan_mode',
      'plan_write',
      'todo_write',
    ]);
    const reminders = provider.requests.map((r) =>
      r.messages.filter((m) => m.role === 'user' && m.content.startsWith(TODO_REMINDER_HEADING)),
    );
    expect(reminders).toEqual([
      [],
      [{ role: 'user', content: `${TODO_REMINDER_HEADING}\n[>] read\n[ ] write` }],
      [{ role: 'user', content: `${TODO_REMINDER_HEADING}\n[x] read\n[>] write` }],
    ]);
    // Each reminder is the request's last message: after the tool results it follows.
    expect(provider.requests[2]!.messages.at(-1)).toEqual(reminders[2]![0]);
    expect(messages.some((m) => m.role === 'user' && m.content.startsWith(TODO_REMINDER_HEADING))).toBe(
      false,
    );
    expect(agent.planMode!.todos.toJSON()).toEqual(
      list(['read', 'completed'], ['write', 'in_progress']).todos,
    );
  });

  it('plan mode the model entered stays on across execute() calls until a person approves exit_plan_mode', async () => {
    const asked: string[] = [];
    const provider = new ScriptedProvider({
      turns: [
        { toolCalls: [{ name: 'enter_plan_mode' }] },
        { text: 'Which module do you mean?' },
        { toolCalls: [{ name: 'write' }] },
        { toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: '1. write' } }] },
        { toolCalls: [{ name: 'write' }] },
        { text: 'done' },
      ],
    });
    const agent = new PlanAgent({
      provider,
      tools: files().tools,
      planMode: { plansDir: join(dir, 'plans') },
      approvePlan: ({ plan }) => {
        asked.push(plan);
        return true;
      },
    });
    made.push(agent.planMode!);
    const messages: Message[] = [{ role: 'user', content: 'refactor' }];
    await agent.execute(messages);
    expect(agent.latch.state).toBe('planning');
    messages.push({ role: 'user', content: 'module X' });
    await agent.execute(messages);
    const results = messages
      .filter((m) => m.role === 'tool')
      .map((m) => `${m.name}:${m.isError ? 'error' : 'ok'}`);
    expect(results).toEqual(['enter_plan_mode:ok', 'write:error', 'exit_plan_mode:ok', 'write:ok']);
    expect(asked).toEqual(['1. write']);
    expect(agent.latch.toJSON()).toEqual({ version: 1, state: 'executing', plan: '1. write' });
  });

  it('reminders: false keeps the requests as they are', async () => {
    const provider = new ScriptedProvider({
      turns: [{ toolCalls: [{ name: 'todo_write', arguments: list(['a', 'in_progress']) }] }, { text: 'ok' }],
    });
    const agent = new PlanAgent({
      provider,
      tools: [],
      planMode: { plansDir: join(dir, 'plans'), reminders: false },
      approvePlan: yes,
    });
    made.push(agent.planMode!);
    await agent.execute([{ role: 'user', content: 'go' }]);
    expect(provider.requests[1]!.messages.at(-1)!.role).toBe('tool');
  });

  it('planMode: true puts the plans folder under the working directory', () => {
    process.chdir(dir);
    const agent = new PlanAgent({
      provider: new ScriptedProvider({ turns: [] }),
      tools: [],
      planMode: true,
      approvePlan: yes,
    });
    made.push(agent.planMode!);
    expect(agent.planMode!.planFile.path).toBe(join(dir, 'plans', 'PLAN.md'));
    expect(agent.latch).toBe(agent.planMode!.latch);
  });

  it('a child shares the plan tools, todo list and plan file; a setup can be shared between agents', async () => {
    const fs = files();
    const provider = new ScriptedProvider({
      turns: [
        { toolCalls: [{ name: 'todo_write', arguments: list(['child', 'in_progress']) }] },
        { text: 'ok' },
      ],
    });
    const parent = new PlanAgent({
      provider,
      tools: fs.tools,
      planMode: { plansDir: join(dir, 'plans') },
      approvePlan: yes,
    });
    made.push(parent.planMode!);
    const child = parent.child({ tools: [fs.tools[0]!] });
    expect(child.planMode).toBe(parent.planMode);
    expect(child.latch).toBe(parent.latch);
    expect(names(child.visibleTools)).toEqual([
      'read',
      'enter_plan_mode',
      'exit_plan_mode',
      'plan_write',
      'todo_write',
    ]);
    await child.execute([{ role: 'user', content: 'go' }]);
    expect(parent.planMode!.todos.items).toEqual([{ content: 'child', status: 'in_progress' }]);

    const plan = setup({ tools: fs.tools, plansDir: join(dir, 'shared') });
    const other = new PlanAgent({ provider, tools: [], planMode: plan, approvePlan: yes });
    expect(other.planMode).toBe(plan);
    expect(other.latch).toBe(plan.latch);
    expect(names(other.visibleTools)).toEqual([
      'enter_plan_mode',
      'exit_plan_mode',
      'plan_write',
      'todo_write',
    ]);
  });

  it('refuses a planMode it cannot set up, with a TypeError saying what to pass', () => {
    const provider = new ScriptedProvider({ turns: [] });
    expect(() => new PlanAgent({ provider, tools: [], planMode: true })).toThrow(
      'PlanAgent: planMode needs approvePlan, the person who approves the plan when the model calls exit_plan_mode; pass approvePlan: () => true to accept every plan',
    );
    expect(() => new PlanAgent({ provider, tools: [], planMode: 'on' as never, approvePlan: yes })).toThrow(
      'PlanAgent: planMode must be true, an options object or a setupPlanMode() result, not "on"',
    );
    expect(
      () => new PlanAgent({ provider, tools: [], planMode: { approve: yes } as never, approvePlan: yes }),
    ).toThrow('PlanAgent: planMode has an unknown option "approve"');
    const bad: [Record<string, unknown>, string][] = [
      [{ reminders: 'on' }, 'PlanAgent: planMode.reminders must be true or false, not "on"'],
      [{ plansDir: '' }, 'PlanAgent: planMode.plansDir must be a directory path, not ""'],
      [{ planFile: '../x' }, 'PlanAgent: planMode.planFile must be a plain file name inside plansDir'],
      [{ maxPlanLength: 0 }, 'PlanAgent: planMode.maxPlanLength must be a positive integer, not number 0'],
      [{ todos: [] }, 'PlanAgent: planMode.todos must be a TodoList, not an array'],
    ];
    for (const [planMode, message] of bad) {
      expect(
        () => new PlanAgent({ provider, tools: [], planMode: planMode as never, approvePlan: yes }),
      ).toThrow(message);
    }
    const plan = setup();
    const latch = new PlanMode();
    const context = new PlanModeContext({
      latch,
      policy: new PlanModePolicy(new PermissionPolicy(), latch),
    });
    expect(() => new PlanAgent({ provider, tools: [], planMode: plan, context })).toThrow(
      'PlanAgent: context reads another latch than the planMode setup given',
    );
    // No plan mode asked for: nothing installed.
    expect(new PlanAgent({ provider, tools: [], planMode: false }).planMode).toBeUndefined();
  });
});

describe('PlanAgent.plan() under planMode', () => {
  it('ends on an approved exit_plan_mode, offers no virtual exit_plan, and execute() may write', async () => {
    const fs = files();
    const provider = new ScriptedProvider({
      turns: [
        { toolCalls: [{ name: 'read' }] },
        { toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: '1. write' } }] },
        { toolCalls: [{ name: 'write' }] },
        { text: 'written' },
      ],
    });
    const asked: string[] = [];
    const agent = new PlanAgent({
      provider,
      tools: fs.tools,
      approvePlan: ({ plan }) => {
        asked.push(plan);
        return true;
      },
      planMode: { plansDir: join(dir, 'plans') },
    });
    made.push(agent.planMode!);
    const messages: Message[] = [{ role: 'user', content: 'write it' }];
    const planned = await agent.plan(messages);
    expect(planned).toMatchObject({ status: 'planned', plan: '1. write', submittedWith: 'exit_plan_mode' });
    expect(asked).toEqual(['1. write']);
    expect(names(provider.requests[0]!.tools ?? [])).not.toContain('exit_plan');
    expect(names(provider.requests[0]!.tools ?? [])).toContain('exit_plan_mode');
    expect(agent.latch.state).toBe('executing');
    const executed = await agent.execute(messages);
    expect(executed.text).toBe('written');
    expect(names(provider.requests[2]!.tools ?? [])).toContain('write');
  });
});
