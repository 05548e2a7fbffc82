/**
 * planTodos(): the start of a todo plan. The model is asked for todos toward a goal (with the
 * tools they will have), its list is repaired until it can be read, a person may approve it
 * (with feedback, for a bounded number of rounds), and the plan comes back ready to execute().
 * TodoPlan itself carries the plan on from there.
 */
import { ApprovalRejectedError } from '../../errors.js';
import { describeValue } from '../../language/describe-value.js';
import { readApproval } from '../../run/approval.js';
import type { Message } from '../model.js';
import { readTodoList, TODO_LIST_FORMAT } from './todo-plan-answers.js';
import { ask, createExchange, systemMessages } from './todo-plan-asking.js';
import { resolveTodoPlanOptions, type TodoPlanRuntime } from './todo-plan-options.js';
import { traceTodoPlan } from './todo-plan-trace.js';
import { goalText, TODO_PLANNER_PROMPT, todoListMarkdown } from './todo-plan-prompts.js';
import { MAX_GOAL_LENGTH } from './todo-plan-snapshot.js';
import { announceEnd, construct, type TodoPlan, type TodoPlanOptions } from './todo-plan.js';

/** Rounds of feedback on the todo list before the approval gives up. */
export const MAX_APPROVAL_ROUNDS = 5;

/**
 * Asks the model for todos toward `goal` and returns the plan, ready to `execute()`. When the
 * todo list cannot be read even after `maxRepairs` repairs, the plan comes back `failed` (its
 * `error` says why) and runs nothing.
 *
 * @throws {TypeError} for a bad goal or option; {@link ToolDefinitionError} for bad tools;
 *   {@link ApprovalRejectedError} when `approvePlan` says no; what the model's API or a hook throws.
 */
export async function planTodos(goal: string, options: TodoPlanOptions): Promise<TodoPlan> {
  if (typeof goal !== 'string' || goal.trim() === '') {
    throw new TypeError(`planTodos: the goal must be a non-empty string, not ${describeValue(goal)}`);
  }
  if (goal.length > MAX_GOAL_LENGTH) {
    throw new TypeError(
      `planTodos: the goal has ${goal.length} characters; at most ${MAX_GOAL_LENGTH} are allowed`,
    );
  }
  const runtime = resolveTodoPlanOptions(options, 'planTodos');
  return traceTodoPlan(
    runtime,
    'plan',
    (asking) => makeTodos(goal, runtime, asking),
    (plan) => plan.state,
  );
}

/** The todos asked of the model through `asking` (the runtime, its model traced when it traces). */
async function makeTodos(
  goal: string,
  runtime: TodoPlanRuntime<TodoPlan>,
  asking: TodoPlanRuntime<TodoPlan>,
): Promise<TodoPlan> {
  const { latch } = runtime.context;
  // The tools the todos will have, before the latch hides the mutating ones for planning.
  const tools = runtime.guarded.definitions();
  if (runtime.ownsLatch) latch.enter();
  const messages: Message[] = [
    ...systemMessages(runtime, TODO_PLANNER_PROMPT),
    { role: 'user', content: goalText(goal, tools) },
  ];
  const bounds = { maxTodos: runtime.maxTodos, limits: runtime.limits };
  const base = { version: 1, goal, iterations: 0, reflectionDue: false, result: null } as const;
  for (let round = 1; ; round++) {
    const todos = await ask(asking, messages, TODO_LIST_FORMAT, (text) => readTodoList(text, bounds));
    if (typeof todos === 'string') {
      if (runtime.ownsLatch) latch.reset();
      const error = `the model's todo list could not be read after ${runtime.maxRepairs} repairs: ${todos}`;
      const plan = construct(runtime, {
        ...base,
        state: 'failed',
        todos: [],
        error,
        history: [createExchange(messages)],
      });
      await announceEnd(plan);
      return plan;
    }
    const markdown = todoListMarkdown(todos);
    if (runtime.approvePlan) {
      const answer = readApproval(
        await runtime.approvePlan({
          kind: 'plan',
          plan: markdown,
          reason: 'the todo list runs only once approved',
        }),
      );
      if (!answer.approved) {
        if (!answer.feedback) throw new ApprovalRejectedError('the todos');
        if (round >= MAX_APPROVAL_ROUNDS) {
          throw new ApprovalRejectedError(
            'the todos',
            answer.feedback,
            `They were rejected ${round} times; start again with a clearer goal`,
          );
        }
        messages.push({
          role: 'user',
          content: `A person rejected this list. Their feedback: ${answer.feedback}\nAnswer again with the whole corrected list.`,
        });
        continue;
      }
    }
    if (runtime.ownsLatch) latch.exit(markdown);
    const plan = construct(runtime, {
      ...base,
      state: 'created',
      todos,
      error: null,
      history: [createExchange(messages)],
    });
    runtime.emit({ type: 'todos-created', todos });
    const ids = todos.map((todo) => todo.id).join(', ');
    await runtime.hooks.onMessage?.(plan, { type: 'system', todo: null, text: `todos created: ${ids}` });
    await runtime.hooks.onCreated?.(plan);
    return plan;
  }
}
