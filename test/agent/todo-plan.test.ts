/**
 * planTodos() and TodoPlan (gollem's plan mode) against a scripted model: structured todo lists
 * and reflections, each todo as its own guarded agent turn, revisions, bounds, hooks and
 * events, aborts, and snapshots, hostile ones included.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-events.js';
import type { AssistantMessage, ModelToolCall } from '../../src/agent/model.js';
import { PermissionPolicy } from '../../src/agent/permissions/permission-policy.js';
import { PlanMode } from '../../src/agent/plan-mode/plan-mode.js';
import { PlanModeContext } from '../../src/agent/plan-mode/plan-mode-context.js';
import { PlanModePolicy } from '../../src/agent/plan-mode/plan-mode-policy.js';
import {
  type RecordedRequest,
  ScriptedProvider,
  type ScriptedReply,
  type ScriptedTurn,
} from '../../src/agent/providers/scripted.js';
import { planTodos } from '../../src/agent/todo-plan/plan-todos.js';
import { TodoPlan } from '../../src/agent/todo-plan/todo-plan.js';
import type { TodoPlanEvent } from '../../src/agent/todo-plan/todo-plan-events.js';
import type { TodoPlanOptions } from '../../src/agent/todo-plan/todo-plan.js';
import {
  TODO_EXECUTOR_PROMPT,
  TODO_PLANNER_PROMPT,
  TODO_REFLECTOR_PROMPT,
} from '../../src/agent/todo-plan/todo-plan-prompts.js';
import type { TodoPlanJson } from '../../src/agent/todo-plan/todo-plan-types.js';
import {
  ApprovalRejectedError,
  isPlanAlreadyExecutedError,
  isPlanError,
  PlanAlreadyExecutedError,
} from '../../src/errors.js';
import type { Tool } from '../../src/tools/tool.js';

const json = (value: unknown): ScriptedReply => ({ text: JSON.stringify(value) });
const todo = (id: string, description = `do ${id}`) => ({ id, description, intent: `why ${id}` });
const todoList = (...ids: string[]) => json({ todos: ids.map((id) => todo(id)) });
const reflect = (action: string, changes: unknown[] = [], result: string | null = null) =>
  json({ action, changes, result });
const finish = (result = 'all done') => reflect('finish', [], result);
const answer = (text = 'done') => ({ text });
const call = (name: string, args: Record<string, unknown> = {}): ScriptedReply => ({
  toolCalls: [{ name, arguments: args }],
});
const add = (id: string, before: string | null = null) => ({
  type: 'add',
  id,
  description: `do ${id}`,
  intent: `why ${id}`,
  before,
});

/** search is read-only, write mutates (and records each write). */
function researchTools() {
  const writes: unknown[] = [];
  const tools: Tool[] = [
    {
      name: 'search',
      description: 'Search the web',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      annotations: { readOnlyHint: true },
      execute: ({ q }) => ({ hits: [`about ${String(q)}`] }),
    },
    {
      name: 'write',
      description: 'Write the report',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      execute: ({ text }) => {
        writes.push(text);
        return 'written';
      },
    },
  ];
  return { tools, writes };
}

function setup(turns: ScriptedTurn[], options: Partial<TodoPlanOptions> = {}) {
  const provider = new ScriptedProvider({ turns });
  const { tools, writes } = researchTools();
  const events: (TodoPlanEvent | AgentEvent)[] = [];
  const planOptions: TodoPlanOptions = {
    provider,
    tools,
    onEvent: (event) => events.push(event),
    ...options,
  };
  return { provider, tools, writes, events, planOptions };
}

const lastUser = (request: RecordedRequest | undefined) =>
  (request?.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content ?? '';
const planEvents = (events: readonly (TodoPlanEvent | AgentEvent)[]) =>
  events
    .filter((e) => !['text-delta', 'tool-call', 'tool-result'].includes(e.type))
    .map((e) => ('todo' in e ? `${e.type} ${e.todo.id}` : e.type));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the edits break a snapshot's shape on purpose
type Loose = any;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('planTodos', () => {
  it('asks for the todos as structured output without tools, and returns a created plan with its own latch executing', async () => {
    const created: string[] = [];
    const { provider, events, planOptions } = setup([todoList('t1', 't2')], {
      hooks: { onCreated: (plan) => void created.push(plan.state) },
    });
    const plan = await planTodos('Write a report', planOptions);

    const request = provider.requests[0]!;
    expect(request.tools).toEqual([]);
    expect(request.responseFormat?.name).toBe('todo_list');
    expect(request.messages[0]).toEqual({ role: 'system', content: TODO_PLANNER_PROMPT });
    expect(lastUser(request)).toBe(
      'Goal: Write a report\n\nTools the todos can use:\n- search: Search the web\n- write: Write the report',
    );
    expect(plan.state).toBe('created');
    expect(plan.todos).toEqual([
      { ...todo('t1'), status: 'pending', result: null, error: null },
      { ...todo('t2'), status: 'pending', result: null, error: null },
    ]);
    expect(Object.isFrozen(plan.todos[0])).toBe(true);
    expect(created).toEqual(['created']);
    expect(planEvents(events)).toEqual(['todos-created']);
    expect(plan.context.latch.state).toBe('executing');
    expect(plan.context.latch.plan).toBe('1. do t1 (t1: why t1)\n2. do t2 (t2: why t2)');
    expect(plan.history.map((h) => h.phase)).toEqual(['create']);
  });

  it('sends an unreadable list back with what is wrong, and reads the repaired one', async () => {
    const { provider, planOptions } = setup([
      { text: 'Sure! Here are the todos:' },
      json({ todos: [todo('t1'), todo('t1')] }),
      todoList('t1', 't2'),
    ]);
    const plan = await planTodos('goal', planOptions);
    expect(plan.todos.map((t) => t.id)).toEqual(['t1', 't2']);
    expect(lastUser(provider.requests[1])).toMatch(
      /^Your answer is not JSON .* Answer again with the whole JSON object\.$/,
    );
    expect(lastUser(provider.requests[2])).toMatch(/^todos\[1\]\.id "t1" is used twice/);
  });

  it('fails the plan when the list is still unreadable after maxRepairs; running it is then a typed error', async () => {
    const ended: (string | null)[] = [];
    const { events, planOptions } = setup([json({ todos: [] })], {
      maxRepairs: 0,
      hooks: { onCompleted: (plan, result) => void ended.push(`${plan.state} ${String(result)}`) },
    });
    const plan = await planTodos('goal', planOptions);
    expect(plan.state).toBe('failed');
    expect(plan.error).toBe(
      "the model's todo list could not be read after 0 repairs: Your list has no todos: give at least one.",
    );
    expect(plan.todos).toEqual([]);
    expect(ended).toEqual(['failed null']);
    expect(planEvents(events)).toEqual(['todo-plan-done']);
    const error = await rejection(plan.execute());
    expect(isPlanAlreadyExecutedError(error)).toBe(true);
    expect((error as PlanAlreadyExecutedError).state).toBe('failed');
  });

  it('refuses more todos than maxTodos, and bad ids and texts, saying what to fix', async () => {
    const long = 'x'.repeat(2001);
    const { provider, planOptions } = setup(
      [
        todoList('t1', 't2', 't3'),
        json({ todos: [todo('../etc')] }),
        json({ todos: [{ id: 't1', description: long, intent: 'i' }] }),
        todoList('t1', 't2'),
      ],
      { maxTodos: 2, maxRepairs: 3 },
    );
    const plan = await planTodos('goal', planOptions);
    expect(plan.todos).toHaveLength(2);
    expect(lastUser(provider.requests[1])).toMatch(/^Your list has 3 todos; at most 2 are allowed/);
    expect(lastUser(provider.requests[2])).toMatch(/^todos\[0\]\.id must be a short id .* not "\.\.\/etc"/);
    expect(lastUser(provider.requests[3])).toMatch(
      /^todos\[0\]\.description has 2001 characters; at most 2000/,
    );
  });

  it('asks approvePlan: feedback goes to the model for a new list; a plain no is ApprovalRejectedError', async () => {
    const asked: string[] = [];
    const answers = [{ approved: false, feedback: 'add a review step' }, true];
    const { provider, planOptions } = setup([todoList('t1'), todoList('t1', 'review')], {
      approvePlan: ({ plan }) => {
        asked.push(plan);
        return answers.shift()!;
      },
    });
    const plan = await planTodos('goal', planOptions);
    expect(asked).toEqual([
      '1. do t1 (t1: why t1)',
      '1. do t1 (t1: why t1)\n2. do review (review: why review)',
    ]);
    expect(lastUser(provider.requests[1])).toBe(
      'A person rejected this list. Their feedback: add a review step\nAnswer again with the whole corrected list.',
    );
    expect(plan.todos.map((t) => t.id)).toEqual(['t1', 'review']);

    const rejected = setup([todoList('t1')], { approvePlan: () => false });
    const error = await rejection(planTodos('goal', rejected.planOptions));
    expect(error).toBeInstanceOf(ApprovalRejectedError);
    expect((error as Error).message).toBe('the todos was rejected without feedback');
  });

  it('checks its goal and options, naming the bad value', async () => {
    const { planOptions } = setup([]);
    await expect(planTodos('  ', planOptions)).rejects.toThrow(
      /^planTodos: the goal must be a non-empty string/,
    );
    await expect(planTodos('x'.repeat(100_001), planOptions)).rejects.toThrow(
      /100001 characters; at most 100000/,
    );
    const bad: [Partial<Record<keyof TodoPlanOptions, unknown>>, RegExp][] = [
      [{ provider: {} }, /^planTodos: provider must be a ModelProvider, not an object$/],
      [{ tools: 3 }, /^planTodos: tools must be an array of tools or a ToolRegistry, not number 3$/],
      [{ maxTodos: 0 }, /^planTodos: maxTodos must be a whole number from 1 to 1000, not number 0$/],
      [{ maxIterations: 1.5 }, /^planTodos: maxIterations must be a whole number from 1 to/],
      [{ maxRepairs: -1 }, /^planTodos: maxRepairs must be a whole number from 0 to/],
      [{ hooks: { onDone: () => {} } }, /^planTodos: hooks\.onDone is not a hook; the hooks are onCreated, /],
      [{ hooks: { onCreated: 'yes' } }, /^planTodos: hooks\.onCreated must be a function, not "yes"$/],
      [{ onEvent: true }, /^planTodos: onEvent must be a function, not boolean true$/],
      [{ signal: {} }, /^planTodos: signal must be an AbortSignal, not an object$/],
      [{ systemPrompt: '' }, /^planTodos: systemPrompt must be a non-empty string, not ""$/],
      [{ limits: { maxDepth: 0 } }, /limits\.maxDepth to be a whole number from 1 to 1000, got number 0/],
    ];
    for (const [options, message] of bad) {
      await expect(planTodos('goal', { ...planOptions, ...options } as TodoPlanOptions)).rejects.toThrow(
        message,
      );
    }
  });
});

describe('TodoPlan.execute', () => {
  it('runs each todo as its own turn with the guarded tools, records its result, and reflects after each', async () => {
    const { provider, writes, events, planOptions } = setup([
      todoList('t1', 't2'),
      call('search', { q: 'trends' }),
      answer('Found the trends.'),
      reflect('continue'),
      call('write', { text: 'report' }),
      answer('Wrote it.'),
      finish('The report is written.'),
    ]);
    const plan = await planTodos('Write a report', planOptions);
    const outcome = await plan.execute();

    expect(outcome).toMatchObject({
      state: 'completed',
      result: 'The report is written.',
      error: null,
      iterations: 2,
    });
    expect(writes).toEqual(['report']);
    const [create, t1, t1Answer, reflection] = provider.requests;
    expect(create!.responseFormat?.name).toBe('todo_list');
    expect(t1!.messages[0]).toEqual({ role: 'system', content: TODO_EXECUTOR_PROMPT });
    expect(t1!.tools.map((t) => t.name)).toEqual(['search', 'write']);
    expect(t1!.responseFormat).toBeUndefined();
    expect(lastUser(t1)).toBe(
      [
        'Goal: Write a report',
        'Your todo (t1): do t1\nIntent: why t1',
        'Progress so far:\n- [executing] t1: do t1\n- [pending] t2: do t2',
        'Carry out this todo only, then answer with what you did and found.',
      ].join('\n\n'),
    );
    expect(t1Answer!.messages.at(-1)).toMatchObject({
      role: 'tool',
      name: 'search',
      content: '{"hits":["about trends"]}',
    });
    expect(reflection!.tools).toEqual([]);
    expect(reflection!.responseFormat?.name).toBe('reflection');
    expect(reflection!.messages[0]).toEqual({ role: 'system', content: TODO_REFLECTOR_PROMPT });
    expect(lastUser(reflection)).toContain(
      '- [completed] t1: do t1\n  result: Found the trends.\n- [pending] t2: do t2',
    );
    expect(lastUser(reflection)).toContain(
      'The todo just carried out (t1) completed. Its result:\nFound the trends.',
    );
    expect(lastUser(reflection)).toContain('This is reflection 1 of at most 20');
    // The second todo sees the first one's result.
    expect(lastUser(provider.requests[4])).toContain('- [completed] t1: do t1\n  result: Found the trends.');

    const [first, second] = plan.todos;
    expect(first).toMatchObject({ status: 'completed', error: null });
    expect(first!.result).toMatchObject({
      output: 'Found the trends.',
      toolCalls: [{ id: 'call_2_1', name: 'search', arguments: { q: 'trends' }, outcome: 'succeeded' }],
      data: { call_2_1: { hits: ['about trends'] } },
    });
    expect(new Date(first!.result!.executedAt).toISOString()).toBe(first!.result!.executedAt);
    expect(second!.result!.data).toEqual({ call_5_1: 'written' });
    expect(plan.history.map((h) => `${h.phase}${h.todo ? ` ${h.todo}` : ''}`)).toEqual([
      'create',
      'todo t1',
      'reflect',
      'todo t2',
      'reflect',
    ]);
    expect(planEvents(events)).toEqual([
      'todos-created',
      'todo-start t1',
      'todo-done t1',
      'reflected',
      'todo-start t2',
      'todo-done t2',
      'reflected',
      'todo-plan-done',
    ]);
    // The todo's turns come through as agent events, in the execute phase.
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({
      phase: 'execute',
      outcome: 'succeeded',
    });
  });

  it('under a context whose latch is planning, the todos get read-only tools only, and the latch is left alone', async () => {
    const { tools, writes } = researchTools();
    const latch = new PlanMode();
    latch.enter();
    const policy = new PlanModePolicy(new PermissionPolicy({ mode: 'bypassPermissions', tools }), latch);
    const { provider, planOptions } = setup(
      [todoList('t1'), call('write', { text: 'x' }), answer('could not write'), finish()],
      { tools, context: new PlanModeContext({ latch, policy }) },
    );
    const plan = await planTodos('goal', planOptions);
    await plan.execute();
    expect(provider.requests[0]!.messages.at(-1)!.content).toContain('- search: Search the web');
    expect(provider.requests[0]!.messages.at(-1)!.content).not.toContain('- write');
    expect(provider.requests[1]!.tools.map((t) => t.name)).toEqual(['search']);
    expect(writes).toEqual([]);
    expect(plan.todos[0]!.result!.toolCalls).toEqual([
      { id: 'call_2_1', name: 'write', arguments: { text: 'x' }, outcome: 'denied' },
    ]);
    expect(latch.state).toBe('planning');
    expect(plan.context.latch).toBe(latch);
  });

  it('revises: adds before a pending todo, updates and removes pending ones, reporting each change', async () => {
    const revised: unknown[] = [];
    const { provider, events, planOptions } = setup(
      [
        todoList('t1', 't2', 't3'),
        answer('one'),
        reflect('revise', [
          add('t4', 't3'),
          { type: 'update', id: 't2', description: 'do t2 better', intent: null, before: null },
          { type: 'remove', id: 't3', description: null, intent: null, before: null },
        ]),
        answer('two'),
        finish('enough'),
      ],
      { hooks: { onRevised: (_plan, changes) => void revised.push(changes) } },
    );
    const plan = await planTodos('goal', planOptions);
    await plan.execute();

    const changes = [
      { type: 'added', todo: { ...todo('t4'), status: 'pending', result: null, error: null } },
      {
        type: 'updated',
        before: { ...todo('t2'), status: 'pending', result: null, error: null },
        todo: { ...todo('t2', 'do t2 better'), status: 'pending', result: null, error: null },
      },
      { type: 'removed', todo: { ...todo('t3'), status: 'pending', result: null, error: null } },
    ];
    expect(revised).toEqual([changes]);
    const event = events.find((e) => e.type === 'todos-revised');
    expect(event).toMatchObject({ changes });
    expect((event as { todos: readonly { id: string }[] }).todos.map((t) => t.id)).toEqual([
      't1',
      't2',
      't4',
    ]);
    expect(lastUser(provider.requests[3])).toContain('Your todo (t2): do t2 better');
    // Finishing skips what is still pending.
    expect(plan.todos.map((t) => `${t.id} ${t.status}`)).toEqual([
      't1 completed',
      't2 completed',
      't4 skipped',
    ]);
  });

  it('sends an impossible reflection back with what is wrong', async () => {
    const { provider, planOptions } = setup(
      [
        todoList('t1', 't2'),
        answer(),
        reflect('revise', [{ type: 'update', id: 't1', description: 'again', intent: null, before: null }]),
        reflect('revise', [add('t2')]),
        reflect('revise', [{ type: 'remove', id: 'nope', description: null, intent: null, before: null }]),
        reflect('finish'),
        reflect('continue', [add('t3')]),
        json({ action: 'stop' }),
        reflect('continue'),
        answer(),
        finish(),
      ],
      { maxRepairs: 6 },
    );
    const plan = await planTodos('goal', planOptions);
    await plan.execute();
    const repairs = provider.requests.slice(3, 9).map(lastUser);
    expect(repairs).toEqual([
      expect.stringMatching(
        /^changes\[0\] would update "t1", which is completed: only pending todos can change/,
      ),
      expect.stringMatching(/^changes\[0\] adds "t2", which is taken: give the new todo a new id\./),
      expect.stringMatching(/^changes\[0\] names "nope", which is not a todo of this plan\./),
      expect.stringMatching(/^Finishing needs the final answer as a non-empty string "result"\./),
      expect.stringMatching(/^Changes are applied only with the action "revise"/),
      expect.stringMatching(/^"action" must be "continue", "revise" or "finish", not "stop"\./),
    ]);
    expect(plan.state).toBe('completed');
  });

  it('fails a todo that runs out of turns, and the reflection hears why', async () => {
    const { provider, planOptions } = setup(
      [todoList('t1'), call('search', { q: 'a' }), call('search', { q: 'b' }), finish('gave up')],
      { maxTurnsPerTodo: 2 },
    );
    const plan = await planTodos('goal', planOptions);
    await plan.execute();
    expect(plan.todos[0]).toMatchObject({
      status: 'failed',
      error: 'ran out of turns: 2 model turns without a final answer',
    });
    expect(plan.todos[0]!.result!.toolCalls).toHaveLength(2);
    expect(lastUser(provider.requests[3])).toContain(
      'The todo just carried out (t1) failed: ran out of turns: 2 model turns without a final answer.',
    );
  });

  it('ends max_iterations when the model never finishes', async () => {
    let added = 0;
    // The model keeps adding work: every reflection adds a todo and never finishes.
    const never: ScriptedTurn = (request) => {
      if (request.responseFormat?.name === 'todo_list') return todoList('t1');
      if (request.responseFormat?.name === 'reflection') return reflect('revise', [add(`more${++added}`)]);
      return answer('did it');
    };
    const ended: string[] = [];
    const { provider, planOptions } = setup(Array<ScriptedTurn>(50).fill(never), {
      maxIterations: 4,
      hooks: { onCompleted: (plan) => void ended.push(plan.state) },
    });
    const plan = await planTodos('goal', planOptions);
    const outcome = await plan.execute();
    expect(outcome).toMatchObject({ state: 'max_iterations', result: null, error: null, iterations: 4 });
    expect(plan.todos.map((t) => t.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
      'pending',
    ]);
    expect(lastUser(provider.requests.at(-1))).toContain('This is reflection 4 of at most 4');
    expect(provider.requests).toHaveLength(1 + 4 * 2);
    expect(ended).toEqual(['max_iterations']);
    const error = await rejection(plan.execute());
    expect(error).toBeInstanceOf(PlanAlreadyExecutedError);
    expect((error as Error).message).toBe(
      'the todo plan has already been executed (it ended max_iterations); make a new one with planTodos()',
    );
  });

  it('fails the plan when the model says continue with nothing pending, after the repairs', async () => {
    const { planOptions } = setup([todoList('t1'), answer(), reflect('continue'), reflect('continue')], {
      maxRepairs: 1,
    });
    const plan = await planTodos('goal', planOptions);
    const outcome = await plan.execute();
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toMatch(
      /^the model's reflection could not be read after 1 repairs: No todo is pending, so there is nothing to continue with/,
    );
  });

  it('refuses a second execute() while one runs, and any after the plan ended', async () => {
    const { planOptions } = setup([todoList('t1'), answer(), finish()]);
    const plan = await planTodos('goal', planOptions);
    const running = plan.execute();
    const error = await rejection(plan.execute());
    expect(isPlanAlreadyExecutedError(error)).toBe(true);
    expect(isPlanError(error)).toBe(true);
    expect((error as PlanAlreadyExecutedError).state).toBe('running');
    expect((error as Error).name).toBe('PlanAlreadyExecutedError');
    await running;
    await expect(plan.step()).rejects.toThrow(PlanAlreadyExecutedError);
  });
});

describe('hooks and events', () => {
  it('a listener that throws is ignored', async () => {
    const { planOptions } = setup([todoList('t1'), answer(), finish()], {
      onEvent: () => {
        throw new Error('broken progress bar');
      },
    });
    const plan = await planTodos('goal', planOptions);
    expect((await plan.execute()).state).toBe('completed');
  });

  it('a hook that throws stops execute() with its error; the plan is where it was, and execute() again carries on', async () => {
    let failDone = true;
    const calls: string[] = [];
    const { provider, planOptions } = setup(
      [todoList('t1', 't2'), answer('one'), reflect('continue'), answer('two'), finish()],
      {
        hooks: {
          onTodoDone: (_plan, done) => {
            calls.push(`done ${done.id}`);
            if (failDone) {
              failDone = false;
              throw new Error('stop here');
            }
          },
        },
      },
    );
    const plan = await planTodos('goal', planOptions);
    await expect(plan.execute()).rejects.toThrow('stop here');
    expect(plan.state).toBe('running');
    expect(plan.todos.map((t) => t.status)).toEqual(['completed', 'pending']);
    expect(plan.toJSON().reflectionDue).toBe(true);
    expect(provider.requests).toHaveLength(2);

    const outcome = await plan.execute();
    expect(outcome.state).toBe('completed');
    // t1 did not run again: the reflection it was waiting for came next.
    expect(calls).toEqual(['done t1', 'done t2']);
    expect(provider.requests[2]!.responseFormat?.name).toBe('reflection');
  });

  it('a start hook that throws leaves the todo pending, and nothing is asked of the model for it', async () => {
    const { provider, planOptions } = setup([todoList('t1'), answer(), finish()], {
      hooks: {
        onTodoStart: () => {
          throw new Error('not now');
        },
      },
    });
    const plan = await planTodos('goal', planOptions);
    await expect(plan.execute()).rejects.toThrow('not now');
    expect(plan.todos[0]!.status).toBe('pending');
    expect(provider.requests).toHaveLength(1);
  });
});

describe('abort', () => {
  it('an abort mid-todo stops execute(); the todo is pending again and a restored plan runs it from its start', async () => {
    const controller = new AbortController();
    const { tools } = researchTools();
    const slow: Tool = {
      name: 'slow',
      execute: () => {
        controller.abort(new Error('user pressed Ctrl-C'));
        return 'late';
      },
    };
    const { planOptions } = setup([todoList('t1'), call('slow'), answer('never seen')], {
      tools: [...tools, slow],
      signal: controller.signal,
    });
    const plan = await planTodos('goal', planOptions);
    await expect(plan.execute()).rejects.toThrow('user pressed Ctrl-C');
    expect(plan.todos[0]!.status).toBe('pending');
    expect(plan.state).toBe('running');
    expect(plan.history.map((h) => h.phase)).toEqual(['create']);

    const again = setup([call('slow'), answer('ran'), finish()], {
      tools: [...tools, { ...slow, execute: () => 'ok' }],
    });
    const restored = TodoPlan.from(plan.toJSON(), again.planOptions);
    expect((await restored.execute()).state).toBe('completed');
    expect(restored.todos[0]!.result!.output).toBe('ran');
  });
});

describe('toJSON and TodoPlan.from', () => {
  it('saves between steps and resumes from the JSON text, with the same snapshot', async () => {
    const turns = [
      todoList('t1', 't2'),
      call('search', { q: 'x' }),
      answer('one'),
      reflect('continue'),
      answer('two'),
      finish('done'),
    ];
    const { provider, planOptions } = setup(turns);
    const plan = await planTodos('goal', planOptions);
    expect(await plan.step()).toBe('running');
    const text = JSON.stringify(plan);
    const saved = JSON.parse(text) as TodoPlanJson;
    expect(saved).toMatchObject({
      version: 1,
      goal: 'goal',
      state: 'running',
      iterations: 1,
      reflectionDue: false,
    });
    expect(saved.todos.map((t) => t.status)).toEqual(['completed', 'pending']);

    const restored = TodoPlan.from(text, { ...planOptions, provider });
    expect(restored.toJSON()).toEqual(saved);
    expect(restored.context.latch.state).toBe('executing');
    const outcome = await restored.execute();
    expect(outcome).toMatchObject({ state: 'completed', result: 'done', iterations: 2 });
    // The original was left at rest where it was saved.
    expect(plan.state).toBe('running');
    // A finished plan restored is still finished.
    const finished = TodoPlan.from(restored.toJSON(), planOptions);
    await expect(finished.execute()).rejects.toThrow(PlanAlreadyExecutedError);
  });

  it('a snapshot taken while a todo executes restores it as pending', async () => {
    let snapshot: TodoPlanJson | undefined;
    const { planOptions } = setup([todoList('t1'), answer(), finish()], {
      hooks: { onTodoStart: (plan) => void (snapshot ??= plan.toJSON()) },
    });
    const plan = await planTodos('goal', planOptions);
    await plan.execute();
    expect(snapshot!.todos[0]!.status).toBe('executing');
    const again = setup([answer('again'), finish()]);
    const restored = TodoPlan.from(snapshot, again.planOptions);
    expect(restored.todos[0]!.status).toBe('pending');
    expect((await restored.execute()).state).toBe('completed');
  });

  it('refuses hostile snapshots with a TypeError naming the place, never a crash', async () => {
    const { planOptions } = setup([
      todoList('t1', 't2'),
      call('search', { q: 'x' }),
      answer('one'),
      reflect('continue'),
    ]);
    const plan = await planTodos('goal', planOptions);
    await plan.step();
    const good = plan.toJSON();
    const edit = (change: (s: Loose) => void) => {
      const copy = structuredClone(good) as unknown as Loose;
      change(copy);
      return copy;
    };
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const cases: [unknown, RegExp, Partial<TodoPlanOptions>?][] = [
      ['{"version": 1', /^TodoPlan\.from: the text is not JSON \(/],
      [[], /^TodoPlan\.from: the snapshot must be an object, not an array$/],
      [edit((s) => (s.version = 2)), /"version" must be 1, not number 2$/],
      [edit((s) => (s.extra = true)), /the snapshot has an unknown key "extra"; it has only version, goal, /],
      [edit((s) => (s.goal = deep)), /^TodoPlan\.from: goal(\[0\])+.* nests deeper than 64 levels/],
      [
        edit((s) => (s.todos = Array.from({ length: 21 }, (_, i) => ({ ...s.todos[1], id: `t${i + 10}` })))),
        /todos has 21 todos; maxTodos is 20 \(raise it/,
      ],
      [edit((s) => (s.todos[1].id = 't1')), /todos\[1\]\.id "t1" is used twice/],
      [edit((s) => (s.todos[1].id = '../x')), /todos\[1\]\.id must be letters, digits/],
      [
        edit((s) => (s.todos[1].status = 'done')),
        /todos\[1\]\.status must be one of pending, executing, completed, failed, skipped, not "done"$/,
      ],
      [
        edit((s) => (s.todos[1].description = 'x'.repeat(2001))),
        /todos\[1\]\.description has 2001 characters; at most 2000/,
      ],
      [
        edit((s) => (s.todos[0].result = null)),
        /todos\[0\]\.result must be an object when the todo is completed/,
      ],
      [
        edit((s) => (s.todos[0].result.executedAt = 'yesterday')),
        /todos\[0\]\.result\.executedAt must be an ISO date string/,
      ],
      [
        edit((s) => (s.todos[0].result.toolCalls[0].outcome = 'exploded')),
        /toolCalls\[0\]\.outcome must be one of succeeded, failed, denied, rejected/,
      ],
      [edit((s) => (s.state = 'completed')), /"result" must be a string when the state is completed/],
      [
        edit((s) => ((s.state = 'created'), (s.iterations = 0))),
        /todos\[0\] is completed, but the state is created/,
      ],
      [edit((s) => (s.iterations = -1)), /"iterations" must be a whole number >= 0, not number -1/],
      [
        edit((s) => (s.history[1].messages[1].role = 'root')),
        /history\[1\]\.messages\[1\]\.role must be system, user, assistant or tool, not "root"/,
      ],
      [
        edit((s) => (s.history[1].phase = 'todo-ish')),
        /history\[1\]\.phase must be one of create, todo, reflect/,
      ],
      [
        JSON.stringify(good).replace(
          '"intent":"why t2"',
          '"intent":"why t2","__proto__":{"status":"completed"}',
        ),
        /todos\[1\] has an unknown key "__proto__"/,
      ],
      [
        JSON.stringify(good),
        /the text has \d+ characters; limits\.maxTextLength is 1000/,
        { limits: { maxTextLength: 1000 } },
      ],
      [
        edit(
          (s) =>
            (s.todos[0].result.data = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i]))),
        ),
        /todos\[0\]\.result\.data has 11 members; the limit is 10/,
        { limits: { maxKeys: 10 } },
      ],
    ];
    for (const [snapshot, message, options] of cases) {
      let error: unknown;
      try {
        TodoPlan.from(snapshot, { ...planOptions, ...options });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(message);
    }
    // The untouched snapshot reads fine, so each refusal above is the edit's doing.
    expect(TodoPlan.from(good, planOptions).toJSON()).toEqual(good);
  });

  it('keeps only JSON within the limits of what the model and the tools hand it', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) deep = { deep };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const weird: Tool = { name: 'weird', execute: () => cyclic };
    const { tools } = researchTools();
    const { planOptions } = setup(
      [
        todoList('t1'),
        { toolCalls: [{ name: 'search', arguments: deep }, { name: 'weird' }] },
        answer(),
        finish(),
      ],
      { tools: [...tools, weird] },
    );
    const plan = await planTodos('goal', planOptions);
    await plan.execute();
    const result = plan.todos[0]!.result!;
    expect(result.toolCalls.map((c: { arguments: unknown }) => c.arguments)).toEqual([null, {}]);
    // The cyclic output is left out; search's output is kept.
    expect(result.data).toEqual({ call_2_1: { hits: ['about undefined'] } });
    const toolCalls = plan.history[1]!.messages[2] as AssistantMessage & { toolCalls: ModelToolCall[] };
    expect(toolCalls.toolCalls[0]).toMatchObject({
      arguments: {},
      argumentsError: expect.stringMatching(/^not kept: the arguments nests deeper/),
    });
    // What the plan holds, it can write and read back.
    expect(TodoPlan.from(JSON.stringify(plan), planOptions).toJSON()).toEqual(plan.toJSON());
  });
});
