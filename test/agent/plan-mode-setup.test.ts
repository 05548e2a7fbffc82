import { mkdtemp, readFile, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ModelToolCall,
  PlanMode,
  PlanModeContext,
  PlanModePolicy,
  PermissionPolicy,
  TodoList,
} from '../../src/agent/index.js';
import { type PlanModeSetup, setupPlanMode } from '../../src/agent/plan-mode/plan-mode-setup.js';
import { TODO_REMINDER_HEADING } from '../../src/agent/plan-mode/todo-reminder.js';
import type { Approve, Tool } from '../../src/index.js';

let dir: string;
const made: PlanModeSetup[] = [];
const cwd = process.cwd();

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'planmode-setup-')));
});
afterEach(async () => {
  process.chdir(cwd);
  for (const setup of made.splice(0)) setup.close();
  await rm(dir, { recursive: true, force: true });
});

/** A read-only `read` and a mutating `write`, recording what was written. */
function files() {
  const writes: string[] = [];
  const tools: Tool[] = [
    {
      name: 'read',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      annotations: { readOnlyHint: true },
      execute: () => 'hello',
    },
    {
      name: 'write',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      execute: ({ path }) => {
        writes.push(String(path));
        return 'ok';
      },
    },
  ];
  return { tools, writes };
}

const yes: Approve = () => true;
let ids = 0;
const call = (name: string, args: Record<string, unknown> = {}): ModelToolCall => ({
  id: `c${++ids}`,
  name,
  arguments: args,
});

function setup(options: Partial<Parameters<typeof setupPlanMode>[0]> = {}): PlanModeSetup {
  const result = setupPlanMode({ approve: yes, plansDir: join(dir, 'plans'), ...options });
  made.push(result);
  return result;
}

const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);

describe('setupPlanMode', () => {
  it('installs the latch, the plan-mode policy, the plan tools and the guard in one call', async () => {
    const fs = files();
    // readOnly names the read-only tool whatever the default trust in annotations is.
    const plan = setup({ tools: fs.tools, permissions: { mode: 'bypassPermissions', readOnly: ['read'] } });
    expect(plan.latch.state).toBe('off');
    expect(plan.policy).toBeInstanceOf(PlanModePolicy);
    expect(plan.context.latch).toBe(plan.latch);
    expect(names(plan.planTools)).toEqual(['enter_plan_mode', 'exit_plan_mode', 'plan_write', 'todo_write']);
    // Off: every tool (the base policy bypasses permissions), the plan tools among them.
    expect(names(plan.tools())).toEqual([
      'read',
      'write',
      'enter_plan_mode',
      'exit_plan_mode',
      'plan_write',
      'todo_write',
    ]);

    expect((await plan.guarded.call(call('enter_plan_mode'))).status).toBe('succeeded');
    expect(plan.latch.state).toBe('planning');
    expect(names(plan.tools())).not.toContain('write');
    const refused = await plan.guarded.call(call('write', { path: 'a' }));
    expect(refused.status).toBe('denied');
    expect(fs.writes).toEqual([]);
    // A tool from tools() is guarded too: its execute is checked when it runs.
    expect((await plan.guarded.call(call('read'))).status).toBe('succeeded');

    expect((await plan.guarded.call(call('plan_write', { content: '1. write a' }))).status).toBe('succeeded');
    expect(await readFile(join(dir, 'plans', 'PLAN.md'), 'utf8')).toBe('1. write a');
    expect((await plan.guarded.call(call('exit_plan_mode'))).status).toBe('succeeded');
    expect(plan.latch.toJSON()).toEqual({ version: 1, state: 'executing', plan: '1. write a' });
    expect((await plan.guarded.call(call('write', { path: 'a' }))).status).toBe('succeeded');
    expect(fs.writes).toEqual(['a']);
  });

  it('puts the plans folder in `plans` under the working directory, resolved once', async () => {
    process.chdir(dir);
    const plan = setupPlanMode({ approve: yes });
    made.push(plan);
    expect(plan.planFile.path).toBe(join(dir, 'plans', 'PLAN.md'));
    expect(await readdir(dir)).toEqual(['plans']);
    // A later change of directory does not move where the plan goes.
    process.chdir(tmpdir());
    await plan.guarded.call(call('plan_write', { content: 'the plan' }));
    expect(await readFile(join(dir, 'plans', 'PLAN.md'), 'utf8')).toBe('the plan');
  });

  it('uses the rules given for its base policy, and a context given as it is', async () => {
    const fs = files();
    const plan = setup({ tools: fs.tools, permissions: { mode: 'default', deny: ['write'] } });
    expect(names(plan.tools())).not.toContain('write');
    const latch = new PlanMode();
    const context = new PlanModeContext({
      latch,
      policy: new PlanModePolicy(new PermissionPolicy({ mode: 'bypassPermissions' }), latch),
    });
    const shared = setup({ tools: fs.tools, context, plansDir: join(dir, 'other') });
    expect(shared.context).toBe(context);
    expect(shared.latch).toBe(latch);
  });

  it('shows the todo list as one reminder for the next request, reflecting the list now', async () => {
    const todos = new TodoList();
    const plan = setup({ todos });
    expect(plan.todos).toBe(todos);
    expect(plan.remindersOn).toBe(true);
    expect(plan.reminders()).toEqual([]);
    await plan.guarded.call(
      call('todo_write', {
        todos: [
          { content: 'read', status: 'completed' },
          { content: 'write', status: 'in_progress' },
          { content: 'test', status: 'pending' },
        ],
      }),
    );
    expect(plan.reminders()).toEqual([
      { role: 'user', content: `${TODO_REMINDER_HEADING}\n[x] read\n[>] write\n[ ] test` },
    ]);
    todos.replace([{ content: 'test', status: 'in_progress' }]);
    expect(plan.reminders()).toEqual([{ role: 'user', content: `${TODO_REMINDER_HEADING}\n[>] test` }]);

    const quiet = setup({ todos, reminders: false, plansDir: join(dir, 'quiet') });
    expect(quiet.reminders()).toEqual([]);
  });

  it('saves and restores its latch, todos and plan file together', async () => {
    const from = setup();
    await from.guarded.call(call('enter_plan_mode'));
    await from.guarded.call(call('plan_write', { content: 'the plan' }));
    await from.guarded.call(call('todo_write', { todos: [{ content: 'a', status: 'pending' }] }));
    const snapshot = await from.snapshot();
    const to = setup({ plansDir: join(dir, 'restored') });
    await to.restore(JSON.stringify(snapshot));
    expect(to.latch.toJSON()).toEqual({ version: 1, state: 'planning', plan: null });
    expect(to.todos.items).toEqual([{ content: 'a', status: 'pending' }]);
    expect(await readFile(join(dir, 'restored', 'PLAN.md'), 'utf8')).toBe('the plan');
    expect(await to.snapshot()).toEqual(snapshot);
    await expect(to.restore({ ...snapshot, version: 2 })).rejects.toThrow(
      'restorePlanMode: snapshot.version must be 1, not number 2',
    );
  });

  it('close() releases the plans folder: plan_write is refused afterwards', async () => {
    const plan = setup();
    plan.close();
    plan.close();
    const result = await plan.guarded.call(call('plan_write', { content: 'x' }));
    expect(result.status).toBe('denied');
    expect(result.message.content).toMatch(/plan tools were closed/);
  });

  it('refuses bad options with a TypeError naming the option and the value', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ approve: undefined }, 'setupPlanMode: approve must be a function that asks a person about the plan'],
      [{ approveTool: 'yes' }, 'setupPlanMode: approveTool must be a function, not "yes"'],
      [{ context: {} }, 'setupPlanMode: context must be a PlanModeContext, not an object'],
      [{ permissions: 'all' }, 'setupPlanMode: permissions must be an object, not "all"'],
      [{ reminders: 'on' }, 'setupPlanMode: reminders must be true or false, not "on"'],
      [{ todos: [] }, 'setupPlanMode: todos must be a TodoList, not an array'],
      [{ plansDir: '' }, 'planTools: plansDir must be a directory path, not ""'],
      [{ planFile: '../x' }, 'planTools: planFile must be a plain file name inside plansDir'],
      [{ maxPlanLength: -1 }, 'planTools: maxPlanLength must be a positive integer, not number -1'],
    ];
    for (const [options, message] of bad) {
      expect(() => setupPlanMode({ approve: yes, plansDir: join(dir, 'p'), ...options } as never)).toThrow(
        new TypeError(message).message,
      );
    }
    expect(() => setupPlanMode(null as never)).toThrow('setupPlanMode: options must be an object, not null');
  });
});
