/**
 * Plan mode over a plan store: setupPlanMode, planTools and PlanAgent's planMode take a
 * `store`, and the plan file (plan_write, exit_plan_mode), the todo list (todo_write, as
 * todos.json) and the snapshot (save() and load(), as plan-mode.json) go through it. The
 * default is the plans folder, as before, now with the todo list beside the plan.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LocalFolderStore,
  MemoryPlanStore,
  type ModelToolCall,
  PlanAgent,
  PlanMode,
  type PlanModeSetup,
  type PlanStore,
  planTools,
  ScriptedProvider,
  setupPlanMode,
  SNAPSHOT_KEY,
  TODOS_KEY,
} from '../../src/agent/index.js';
import { type Approve, isPermissionDeniedError } from '../../src/index.js';

let dir: string;
const made: { close(): void }[] = [];
const cwd = process.cwd();

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'planmode-mode-store-')));
});
afterEach(async () => {
  process.chdir(cwd);
  for (const setup of made.splice(0)) setup.close();
  await rm(dir, { recursive: true, force: true });
});

const yes: Approve = () => true;
let ids = 0;
const call = (name: string, args: Record<string, unknown> = {}): ModelToolCall => ({
  id: `c${++ids}`,
  name,
  arguments: args,
});
const todo = (content: string, status = 'pending') => ({ content, status });

function setup(store: PlanStore, options: { planFile?: string } = {}): PlanModeSetup {
  const result = setupPlanMode({ approve: yes, store, ...options });
  made.push(result);
  return result;
}

describe('setupPlanMode with a store', () => {
  it('keeps the plan file and the todo list in the store, and makes no plans folder', async () => {
    process.chdir(dir);
    const store = new MemoryPlanStore();
    const plan = setup(store);
    expect(plan.store).toBe(store);
    expect(plan.planFile.path).toBe('memory:PLAN.md');
    plan.latch.enter();
    expect((await plan.guarded.call(call('plan_write', { content: '# Plan' }))).status).toBe('succeeded');
    const listed = await plan.guarded.call(call('todo_write', { todos: [todo('Read', 'in_progress')] }));
    expect(listed.status).toBe('succeeded');
    expect(await store.read('PLAN.md')).toBe('# Plan');
    expect(JSON.parse((await store.read(TODOS_KEY))!)).toEqual([todo('Read', 'in_progress')]);
    // exit_plan_mode without a plan submits the plan file, read from the store.
    const asked: string[] = [];
    const asking = setupPlanMode({ approve: ({ plan: text }) => (asked.push(text), true), store });
    made.push(asking);
    asking.latch.enter();
    expect((await asking.guarded.call(call('exit_plan_mode'))).status).toBe('succeeded');
    expect(asked).toEqual(['# Plan']);
    expect(existsSync(join(dir, 'plans'))).toBe(false);
  });

  it('a list the model must fix changes neither the store nor the list', async () => {
    const store = new MemoryPlanStore();
    const plan = setup(store);
    await plan.guarded.call(call('todo_write', { todos: [todo('first')] }));
    const refused = await plan.guarded.call(
      call('todo_write', { todos: [todo('a', 'in_progress'), todo('b', 'in_progress')] }),
    );
    expect(refused.status).toBe('failed');
    expect(JSON.parse((await store.read(TODOS_KEY))!)).toEqual([todo('first')]);
    expect(plan.todos.toJSON()).toEqual([todo('first')]);
  });

  it('save() keeps the snapshot in the store; load() on another setup over it restores latch, plan and todos', async () => {
    const store = new MemoryPlanStore();
    const first = setup(store, { planFile: 'refactor.md' });
    first.latch.enter();
    await first.guarded.call(call('plan_write', { content: '1. Move the module' }));
    await first.guarded.call(call('todo_write', { todos: [todo('Move it', 'in_progress')] }));
    first.latch.exit('1. Move the module');
    const saved = await first.save();
    expect(JSON.parse((await store.read(SNAPSHOT_KEY))!)).toEqual(saved);
    expect(await store.list()).toEqual([SNAPSHOT_KEY, 'refactor.md', TODOS_KEY]);

    const second = setup(store, { planFile: 'refactor.md' });
    expect(await second.load()).toBe(true);
    expect(second.latch.state).toBe('executing');
    expect(second.latch.plan).toBe('1. Move the module');
    expect(second.todos.toJSON()).toEqual([todo('Move it', 'in_progress')]);
    expect(await second.planFile.read()).toBe('1. Move the module');
  });

  it('load() with nothing saved returns false and changes nothing', async () => {
    const plan = setup(new MemoryPlanStore());
    plan.latch.enter();
    expect(await plan.load()).toBe(false);
    expect(plan.latch.state).toBe('planning');
  });

  it('restore() keeps the restored todo list in the store too', async () => {
    const store = new MemoryPlanStore();
    const plan = setup(store);
    await plan.restore({
      version: 1,
      latch: { version: 1, state: 'off', plan: null },
      todos: [todo('Restored')],
      planFile: null,
    });
    expect(JSON.parse((await store.read(TODOS_KEY))!)).toEqual([todo('Restored')]);
  });

  it('close() refuses plan_write and todo_write afterwards, and leaves a store it was given open', async () => {
    const store = new MemoryPlanStore();
    const plan = setup(store);
    const [, , planWrite, todoWrite] = plan.planTools;
    plan.close();
    const context = { toolCallId: 'x', abortSignal: new AbortController().signal, outputPaths: [] };
    for (const [tool, args] of [
      [planWrite!, { content: 'x' }],
      [todoWrite!, { todos: [] }],
    ] as const) {
      const error = await Promise.resolve(tool.execute!(args, context)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isPermissionDeniedError(error), tool.name).toBe(true);
    }
    await store.write('still', 'open');
    expect(await store.read('still')).toBe('open');
  });

  it("a store's refusal reaches the model as a denial of the plan tool that met it", async () => {
    const store = new MemoryPlanStore();
    const plan = setup(store);
    await store.close();
    const result = await plan.guarded.call(call('plan_write', { content: 'x' }));
    expect(result.status).toBe('denied');
    expect(isPermissionDeniedError(result.error)).toBe(true);
    expect(result.message.content).toMatch(/memory store was closed/);
  });

  it('refuses bad options with a TypeError naming them', () => {
    const store = new MemoryPlanStore();
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { plansdir: 'x' },
        /setupPlanMode: unknown option "plansdir"; the options are tools, approve, .*store/,
      ],
      [{ store, plansDir: join(dir, 'p') }, /plansDir and store were both given/],
      [{ store: {} }, /store must be a PlanStore .*, not an object/],
      [{ store, planFile: TODOS_KEY }, /planFile must not be todos\.json/],
      [{ store, planFile: SNAPSHOT_KEY }, /planFile must not be plan-mode\.json/],
      [{ store, planFile: 'my plan.md' }, /planFile the key "my plan\.md" is not a plain name/],
    ];
    for (const [options, message] of cases) {
      expect(() => setupPlanMode({ approve: yes, ...options } as never)).toThrow(TypeError);
      expect(() => setupPlanMode({ approve: yes, ...options } as never)).toThrow(message);
    }
    expect(() => planTools({ latch: new PlanMode(), approve: yes, store, plansdir: 'x' } as never)).toThrow(
      /planTools: unknown option "plansdir"/,
    );
  });
});

describe('the default store: the plans folder', () => {
  it('todo_write keeps the list beside the plan file, and save() the snapshot', async () => {
    const plansDir = join(dir, 'plans');
    const plan = setupPlanMode({ approve: yes, plansDir });
    made.push(plan);
    expect(plan.store).toBeInstanceOf(LocalFolderStore);
    await plan.guarded.call(call('plan_write', { content: 'the plan' }));
    await plan.guarded.call(call('todo_write', { todos: [todo('One')] }));
    await plan.save();
    expect((await readdir(plansDir)).sort()).toEqual(['PLAN.md', 'plan-mode.json', 'todos.json']);
    expect(JSON.parse(await readFile(join(plansDir, 'todos.json'), 'utf8'))).toEqual([todo('One')]);
    const saved = JSON.parse(await readFile(join(plansDir, 'plan-mode.json'), 'utf8'));
    expect(saved).toMatchObject({ version: 1, planFile: 'the plan', todos: [todo('One')] });
  });
});

describe('PlanAgent planMode with a store', () => {
  it('takes a store, and the model writes its plan file and todos through it', async () => {
    const store = new MemoryPlanStore();
    const provider = new ScriptedProvider({
      turns: [
        {
          toolCalls: [
            { name: 'plan_write', arguments: { content: '# Steps' } },
            { name: 'todo_write', arguments: { todos: [todo('Step one', 'in_progress')] } },
          ],
        },
        { text: 'done' },
      ],
    });
    const agent = new PlanAgent({ provider, tools: [], planMode: { store }, approvePlan: yes });
    made.push(agent.planMode!);
    await agent.execute([{ role: 'user', content: 'go' }]);
    expect(agent.planMode!.store).toBe(store);
    expect(await store.read('PLAN.md')).toBe('# Steps');
    expect(JSON.parse((await store.read(TODOS_KEY))!)).toEqual([todo('Step one', 'in_progress')]);
  });

  it('names store among the planMode options, and refuses it with plansDir', () => {
    const provider = new ScriptedProvider({ turns: [] });
    expect(
      () => new PlanAgent({ provider, tools: [], planMode: { stor: 1 } as never, approvePlan: yes }),
    ).toThrow(/it takes plansDir, store, planFile/);
    expect(
      () =>
        new PlanAgent({
          provider,
          tools: [],
          planMode: { store: new MemoryPlanStore(), plansDir: join(dir, 'p') },
          approvePlan: yes,
        }),
    ).toThrow(/PlanAgent: planMode\.plansDir and store were both given/);
  });
});
