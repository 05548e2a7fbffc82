/**
 * A todo plan, gollem's plan mode: `planTodos(goal)` asks the model for todos (structured
 * output), a person may approve them, and `execute()` carries them out one at a time. Each todo
 * is its own agent turn with the tools the policy allows (the conversation loop of PlanAgent,
 * behind the same guard); after each, the model reflects (structured output again): continue
 * with the next pending todo, revise the pending todos, or finish with a result.
 *
 * Everything is bounded: todos in the plan, reflections, turns per todo, repairs of an
 * unreadable answer, and every value kept (see todo-plan-record.ts). The plan serializes at any
 * time (`toJSON()`) and resumes from a snapshot (`TodoPlan.from()`, which reads it as untrusted
 * input). A plan that ended cannot run again: PlanAlreadyExecutedError.
 *
 * A failure of the model's API, an abort or a hook that throws stops `execute()` with that
 * error and leaves the plan as it was before the stage that failed: the todo that was running
 * goes back to pending, so `execute()` again carries on.
 */
import { ApprovalRejectedError, PlanAlreadyExecutedError } from '../../errors.js';
import { cloneJson } from '../../language/json-value.js';
import { readApproval } from '../../run/approval.js';
import { complete } from '../complete.js';
import { converse } from '../conversation.js';
import type { AgentEvent } from '../agent-events.js';
import { describeValue } from '../../language/describe-value.js';
import type { Message, ResponseFormat } from '../model.js';
import type { PlanModeContext } from '../plan-mode/index.js';
import { readReflection, readTodoList, REFLECTION_FORMAT, TODO_LIST_FORMAT } from './todo-plan-answers.js';
import type { TodoPlanEvent } from './todo-plan-events.js';
import { resolveTodoPlanOptions, type TodoPlanOptions, type TodoPlanRuntime } from './todo-plan-options.js';
import {
  goalText,
  reflectionText,
  TODO_EXECUTOR_PROMPT,
  TODO_PLANNER_PROMPT,
  TODO_REFLECTOR_PROMPT,
  todoListMarkdown,
  todoText,
} from './todo-plan-prompts.js';
import { historyMessages, ToolCallRecorder } from './todo-plan-record.js';
import { MAX_GOAL_LENGTH, readTodoPlanJson } from './todo-plan-snapshot.js';
import {
  FINISHED_STATES,
  type PlannedTodo,
  type TodoPlanExchange,
  type TodoPlanJson,
  type TodoPlanState,
} from './todo-plan-types.js';

/** How a plan's `execute()` ended. */
export interface TodoPlanOutcome {
  /** completed, failed or max_iterations. */
  readonly state: TodoPlanState;
  /** The final result, when completed. */
  readonly result: string | null;
  /** Why it failed, when failed. */
  readonly error: string | null;
  readonly todos: readonly PlannedTodo[];
  /** Reflections made. */
  readonly iterations: number;
}

/** Rounds of feedback on the todo list before the approval gives up. */
export const MAX_APPROVAL_ROUNDS = 5;

// Set by TodoPlan's static block: how planTodos() makes a plan and ends one, without a public
// constructor or a public way to end a plan.
let construct: (runtime: TodoPlanRuntime, json: TodoPlanJson) => TodoPlan;
let announceEnd: (plan: TodoPlan) => Promise<void>;

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
    const todos = await ask(runtime, messages, TODO_LIST_FORMAT, (text) => readTodoList(text, bounds));
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
    await runtime.hooks.onCreated?.(plan);
    return plan;
  }
}

export class TodoPlan {
  readonly #runtime: TodoPlanRuntime;
  readonly #goal: string;
  #state: TodoPlanState;
  #todos: readonly PlannedTodo[];
  #iterations: number;
  #reflectionDue: boolean;
  #result: string | null;
  #error: string | null;
  readonly #history: TodoPlanExchange[];
  #busy = false;

  static {
    construct = (runtime, json) => new TodoPlan(runtime, json);
    announceEnd = (plan) => plan.#announceEnd();
  }

  private constructor(runtime: TodoPlanRuntime, json: TodoPlanJson) {
    this.#runtime = runtime;
    this.#goal = json.goal;
    this.#state = json.state;
    this.#todos = Object.freeze(json.todos.map((todo) => Object.freeze(todo)));
    this.#iterations = json.iterations;
    this.#reflectionDue = json.reflectionDue;
    this.#result = json.result;
    this.#error = json.error;
    this.#history = [...json.history];
  }

  /**
   * A plan from a snapshot (`toJSON()`, or its JSON text), read as untrusted input, with the
   * model, tools and hooks to go on with. `approvePlan` is not asked: the snapshot's todos were
   * approved when they were made. A todo saved while executing runs again from its start.
   *
   * @throws {TypeError} naming the bad option, or the place in the snapshot and what is wrong
   *   there; {@link ToolDefinitionError} for bad tools.
   */
  static from(json: unknown, options: TodoPlanOptions): TodoPlan {
    const runtime = resolveTodoPlanOptions(options, 'TodoPlan.from');
    const saved = readTodoPlanJson(json, { limits: runtime.limits, maxTodos: runtime.maxTodos });
    if (runtime.ownsLatch) {
      // The plan's own latch is past approval: the todos were approved when they were made.
      runtime.context.latch.enter();
      runtime.context.latch.exit(todoListMarkdown(saved.todos));
    }
    return construct(runtime, saved);
  }

  get goal(): string {
    return this.#goal;
  }

  get state(): TodoPlanState {
    return this.#state;
  }

  /** The todos, in order, each frozen (gollem's GetToDos). */
  get todos(): readonly PlannedTodo[] {
    return this.#todos;
  }

  /** The final result, when the plan completed. */
  get result(): string | null {
    return this.#result;
  }

  /** Why the plan failed, when it failed. */
  get error(): string | null {
    return this.#error;
  }

  /** Reflections so far. */
  get iterations(): number {
    return this.#iterations;
  }

  /** Every conversation of the plan, in order (gollem's Session().History()). */
  get history(): readonly TodoPlanExchange[] {
    return [...this.#history];
  }

  /** The latch and policy the todos run under. */
  get context(): PlanModeContext {
    return this.#runtime.context;
  }

  /** Whether the plan ended: completed, failed or out of iterations. */
  get finished(): boolean {
    return FINISHED_STATES.includes(this.#state);
  }

  /**
   * Carries out todos and reflects after each until the plan ends.
   * @throws {PlanAlreadyExecutedError} when the plan has ended, or is running already.
   */
  async execute(): Promise<TodoPlanOutcome> {
    this.#claim();
    try {
      while (!this.finished) await this.#step();
    } finally {
      this.#busy = false;
    }
    return {
      state: this.#state,
      result: this.#result,
      error: this.#error,
      todos: this.#todos,
      iterations: this.#iterations,
    };
  }

  /**
   * One step: the next pending todo (if any) and the reflection after it. Between two steps the
   * plan is at rest, a place to save it.
   * @returns the plan's state after the step.
   * @throws {PlanAlreadyExecutedError} when the plan has ended, or is running already.
   */
  async step(): Promise<TodoPlanState> {
    this.#claim();
    try {
      await this.#step();
    } finally {
      this.#busy = false;
    }
    return this.#state;
  }

  /** The snapshot: goal, todos with statuses and results, state, history. A copy. */
  toJSON(): TodoPlanJson {
    return cloneJson({
      version: 1,
      goal: this.#goal,
      state: this.#state,
      todos: this.#todos,
      iterations: this.#iterations,
      reflectionDue: this.#reflectionDue,
      result: this.#result,
      error: this.#error,
      history: this.#history,
    });
  }

  /** Tells the listener and the hook that the plan ended. */
  async #announceEnd(): Promise<void> {
    this.#emit({ type: 'todo-plan-done', state: this.#state, result: this.#result, error: this.#error });
    await this.#runtime.hooks.onCompleted?.(this, this.#result);
  }

  #claim(): void {
    if (this.#busy) throw new PlanAlreadyExecutedError('running');
    if (this.finished)
      throw new PlanAlreadyExecutedError(this.#state as 'completed' | 'failed' | 'max_iterations');
    this.#busy = true;
  }

  async #step(): Promise<void> {
    this.#runtime.signal?.throwIfAborted();
    if (this.#state === 'created') this.#state = 'running';
    if (this.#iterations >= this.#runtime.maxIterations) return this.#end('max_iterations', null, null);
    if (!this.#reflectionDue) {
      const next = this.#todos.find((todo) => todo.status === 'pending');
      // With nothing pending (a revision removed the rest), the reflection decides what now.
      if (next) await this.#runTodo(next);
    }
    await this.#reflect();
  }

  async #runTodo(todo: PlannedTodo): Promise<void> {
    const runtime = this.#runtime;
    const executing: PlannedTodo = Object.freeze({ ...todo, status: 'executing' });
    this.#replace(executing);
    this.#emit({ type: 'todo-start', todo: executing });
    const messages: Message[] = [
      ...systemMessages(runtime, TODO_EXECUTOR_PROMPT),
      { role: 'user', content: todoText(this.#goal, executing, this.#todos) },
    ];
    const recorder = new ToolCallRecorder(runtime.limits);
    let outcome;
    try {
      await runtime.hooks.onTodoStart?.(this, executing);
      outcome = await converse({
        provider: runtime.provider,
        messages,
        tools: () => runtime.guarded.definitions(),
        answer: async (call) => {
          const result = await runtime.guarded.call(call, runtime.signal ? { signal: runtime.signal } : {});
          recorder.record(call, result);
          return { message: result.message, outcome: result.status };
        },
        maxTurns: runtime.maxTurnsPerTodo,
        phase: 'execute',
        emit: (event) => this.#emit(event),
        ...(runtime.signal && { signal: runtime.signal }),
      });
    } catch (error) {
      // Nothing the plan knows of happened: the todo runs again from its start next time.
      this.#replace(todo);
      throw error;
    }
    const result = {
      output: outcome.text,
      toolCalls: recorder.calls,
      data: recorder.data(),
      executedAt: new Date().toISOString(),
    };
    const done: PlannedTodo = Object.freeze(
      outcome.status === 'max_turns'
        ? {
            ...todo,
            status: 'failed',
            result,
            error: `ran out of turns: ${runtime.maxTurnsPerTodo} model turns without a final answer`,
          }
        : { ...todo, status: 'completed', result, error: null },
    );
    this.#replace(done);
    this.#reflectionDue = true;
    this.#history.push({ phase: 'todo', todo: todo.id, messages: historyMessages(messages, runtime.limits) });
    this.#emit({ type: 'todo-done', todo: done });
    await runtime.hooks.onTodoDone?.(this, done);
  }

  async #reflect(): Promise<void> {
    const runtime = this.#runtime;
    const iteration = this.#iterations + 1;
    const messages: Message[] = [
      ...systemMessages(runtime, TODO_REFLECTOR_PROMPT),
      {
        role: 'user',
        content: reflectionText(this.#goal, this.#todos, this.#lastRun(), iteration, runtime.maxIterations),
      },
    ];
    const current = this.#todos;
    const bounds = { maxTodos: runtime.maxTodos, limits: runtime.limits };
    const reflection = await ask(runtime, messages, REFLECTION_FORMAT, (text) =>
      readReflection(text, current, bounds),
    );
    this.#iterations = iteration;
    this.#reflectionDue = false;
    this.#history.push({ phase: 'reflect', todo: null, messages });
    if (typeof reflection === 'string') {
      const error = `the model's reflection could not be read after ${runtime.maxRepairs} repairs: ${reflection}`;
      return this.#end('failed', null, error);
    }
    this.#emit({ type: 'reflected', iteration, action: reflection.action });
    if (reflection.action === 'finish') return this.#end('completed', reflection.result, null);
    if (reflection.action === 'revise') {
      this.#todos = Object.freeze([...reflection.todos]);
      this.#emit({ type: 'todos-revised', changes: reflection.changes, todos: this.#todos });
      await runtime.hooks.onRevised?.(this, reflection.changes);
    }
  }

  async #end(state: TodoPlanState, result: string | null, error: string | null): Promise<void> {
    this.#state = state;
    this.#result = result;
    this.#error = error;
    if (state === 'completed') {
      // The reflection finished the plan: what was still pending is not needed.
      this.#todos = Object.freeze(
        this.#todos.map((todo) =>
          todo.status === 'pending' ? Object.freeze({ ...todo, status: 'skipped' as const }) : todo,
        ),
      );
    }
    await this.#announceEnd();
  }

  /** The todo the due reflection is about: the last one carried out, when one was. */
  #lastRun(): PlannedTodo | undefined {
    if (!this.#reflectionDue) return undefined;
    for (let i = this.#history.length - 1; i >= 0; i--) {
      const exchange = this.#history[i]!;
      if (exchange.phase === 'todo') return this.#todos.find((todo) => todo.id === exchange.todo);
    }
    return undefined;
  }

  #replace(todo: PlannedTodo): void {
    this.#todos = Object.freeze(this.#todos.map((t) => (t.id === todo.id ? todo : t)));
  }

  #emit(event: TodoPlanEvent | AgentEvent): void {
    this.#runtime.emit(event);
  }
}

/**
 * One structured answer, sent back with what is wrong with it up to `maxRepairs` times.
 * @returns what `read` made of the answer, or the last problem when no answer could be read.
 */
async function ask<T>(
  runtime: TodoPlanRuntime,
  messages: Message[],
  format: ResponseFormat,
  read: (text: string) => T | string,
): Promise<T | string> {
  for (let repairs = 0; ; repairs++) {
    const turn = await complete(runtime.provider, {
      messages: [...messages],
      tools: [],
      responseFormat: format,
      ...(runtime.signal && { signal: runtime.signal }),
    });
    const text = turn.message.content;
    messages.push({ role: 'assistant', content: text });
    const answer = read(text);
    if (typeof answer !== 'string' || repairs >= runtime.maxRepairs) return answer;
    messages.push({ role: 'user', content: `${answer} Answer again with the whole JSON object.` });
  }
}

function systemMessages(runtime: TodoPlanRuntime, prompt: string): Message[] {
  return [
    ...(runtime.systemPrompt === undefined
      ? []
      : [{ role: 'system' as const, content: runtime.systemPrompt }]),
    { role: 'system', content: prompt },
  ];
}

function createExchange(messages: readonly Message[]): TodoPlanExchange {
  return { phase: 'create', todo: null, messages: [...messages] };
}
