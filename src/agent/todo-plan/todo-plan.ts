/**
 * A todo plan, gollem's plan mode: `planTodos(goal)` (plan-todos.ts) asks the model for todos
 * (structured output), a person may approve them, and `execute()` carries them out one at a time. Each todo
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
import { PlanAlreadyExecutedError } from '../../errors.js';
import { cloneJson } from '../../language/json/index.js';
import { converse } from '../conversation.js';
import type { AgentEvent } from '../agent-events.js';
import type { Message } from '../model.js';
import type { PlanModeContext } from '../plan-mode/index.js';
import { readReflection, REFLECTION_FORMAT } from './todo-plan-answers.js';
import { ask, systemMessages } from './todo-plan-asking.js';
import type { TodoPlanEvent, TodoPlanHooksOf } from './todo-plan-events.js';
import { resolveTodoPlanOptions, type TodoPlanOptionsOf, type TodoPlanRuntime } from './todo-plan-options.js';
import {
  reflectionText,
  TODO_EXECUTOR_PROMPT,
  TODO_REFLECTOR_PROMPT,
  todoListMarkdown,
  todoText,
} from './todo-plan-prompts.js';
import { historyMessages, ToolCallRecorder } from './todo-plan-record.js';
import { readTodoPlanJson } from './todo-plan-snapshot.js';
import { traceTodoPlan } from './todo-plan-trace.js';
import { type TodoPlanMessage, TodoTurnMessages } from './todo-plan-messages.js';
import type { LoopEnding } from '../../tools/end-loop.js';
import {
  FINISHED_STATES,
  pendingSkipped,
  type PlannedTodo,
  type TodoPlanExchange,
  type TodoPlanJson,
  type TodoPlanOutcome,
  type TodoPlanState,
} from './todo-plan-types.js';

/** The options of planTodos() and TodoPlan.from(): TodoPlanOptionsOf, its hooks given a TodoPlan. */
export type TodoPlanOptions = TodoPlanOptionsOf<TodoPlan>;

/** gollem's plan hooks (todo-plan-events.ts), each given the TodoPlan it reports on. */
export type TodoPlanHooks = TodoPlanHooksOf<TodoPlan>;

// Set by TodoPlan's static block: how planTodos() (plan-todos.ts) makes a plan and ends one,
// without a public constructor or a public way to end a plan. The package's faces do not
// export them.
export let construct: (runtime: TodoPlanRuntime<TodoPlan>, json: TodoPlanJson) => TodoPlan;
export let announceEnd: (plan: TodoPlan) => Promise<void>;

export type { TodoPlanOutcome } from './todo-plan-types.js';

export class TodoPlan {
  /** The plan's runtime; while it runs, the same with its model traced when the plan traces. */
  #runtime: TodoPlanRuntime<TodoPlan>;
  readonly #goal: string;
  #state: TodoPlanState;
  #todos: readonly PlannedTodo[];
  #iterations: number;
  #reflectionDue: boolean;
  #result: string | null;
  #error: string | null;
  readonly #history: TodoPlanExchange[];
  #endedBy: LoopEnding | null;
  #busy = false;

  static {
    construct = (runtime, json) => new TodoPlan(runtime, json);
    announceEnd = (plan) => plan.#announceEnd();
  }

  private constructor(runtime: TodoPlanRuntime<TodoPlan>, json: TodoPlanJson) {
    this.#runtime = runtime;
    this.#goal = json.goal;
    this.#state = json.state;
    this.#todos = Object.freeze(json.todos.map((todo) => Object.freeze(todo)));
    this.#iterations = json.iterations;
    this.#reflectionDue = json.reflectionDue;
    this.#result = json.result;
    this.#error = json.error;
    this.#history = [...json.history];
    this.#endedBy = json.endedBy ?? null;
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

  /** When the plan `ended`: which tool ended the loop, in which call, and why; else null. */
  get endedBy(): LoopEnding | null {
    return this.#endedBy;
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
    await this.#running('execute', async () => {
      while (!this.finished) await this.#step();
    });
    return {
      state: this.#state,
      result: this.#result,
      error: this.#error,
      todos: this.#todos,
      iterations: this.#iterations,
      endedBy: this.#endedBy,
    };
  }

  /**
   * One step: the next pending todo (if any) and the reflection after it. Between two steps the
   * plan is at rest, a place to save it.
   * @returns the plan's state after the step.
   * @throws {PlanAlreadyExecutedError} when the plan has ended, or is running already.
   */
  async step(): Promise<TodoPlanState> {
    await this.#running('step', () => this.#step());
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
      ...(this.#endedBy && { endedBy: this.#endedBy }),
    });
  }

  /** Tells the listener and the hook that the plan ended. */
  async #announceEnd(): Promise<void> {
    this.#emit({ type: 'todo-plan-done', state: this.#state, result: this.#result, error: this.#error });
    const ending = this.#endedBy ? `: '${this.#endedBy.tool}' ended the loop (${this.#endedBy.reason})` : '';
    await this.#tell({
      type: 'system',
      todo: this.#endedBy ? this.#lastTodo() : null,
      text: `plan ${this.#state}${ending}`,
    });
    await this.#runtime.hooks.onCompleted?.(this, this.#result);
  }

  /** Claims the plan for `body`, which runs in the plan's span (its model traced) when it traces. */
  async #running(phase: 'execute' | 'step', body: () => Promise<void>): Promise<void> {
    if (this.#busy) throw new PlanAlreadyExecutedError('running');
    if (this.finished)
      throw new PlanAlreadyExecutedError(this.#state as 'completed' | 'failed' | 'max_iterations');
    this.#busy = true;
    const own = this.#runtime;
    try {
      await traceTodoPlan(
        own,
        phase,
        (traced) => ((this.#runtime = traced), body()),
        () => this.#state,
      );
    } finally {
      this.#runtime = own;
      this.#busy = false;
    }
  }

  async #step(): Promise<void> {
    this.#runtime.signal?.throwIfAborted();
    if (this.#state === 'created') this.#state = 'running';
    if (this.#iterations >= this.#runtime.maxIterations) return this.#end('max_iterations', null, null);
    if (!this.#reflectionDue) {
      const next = this.#todos.find((todo) => todo.status === 'pending');
      // With nothing pending (a revision removed the rest), the reflection decides what now.
      if (next) await this.#runTodo(next);
      // A tool ended the loop in that todo: the plan ended with it, and nothing reflects.
      if (this.finished) return;
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
    const said = new TodoTurnMessages(todo.id, (message) => this.#tell(message));
    let outcome;
    try {
      await this.#tell({
        type: 'system',
        todo: todo.id,
        text: `todo ${todo.id} started: ${todo.description}`,
      });
      await runtime.hooks.onTodoStart?.(this, executing);
      outcome = await converse({
        provider: runtime.provider,
        messages,
        tools: () => runtime.guarded.definitions(),
        answer: async (call) => {
          const result = await runtime.guarded.call(call, runtime.signal ? { signal: runtime.signal } : {});
          recorder.record(call, result);
          await said.action(call, result.status, result.message.content);
          return {
            message: result.message,
            outcome: result.status,
            ...(result.endedBy && { endedBy: result.endedBy }),
          };
        },
        maxTurns: runtime.maxTurnsPerTodo,
        phase: 'execute',
        emit: (event) => {
          said.observe(event);
          this.#emit(event);
        },
        ...(runtime.signal && { signal: runtime.signal }),
      });
      await said.flush();
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
    await this.#tell({ type: 'system', todo: todo.id, text: `todo ${todo.id} ${done.status}` });
    await runtime.hooks.onTodoDone?.(this, done);
    if (outcome.endedBy) {
      // What ran is kept (the todo's result above); the todos still pending stay pending.
      this.#endedBy = outcome.endedBy;
      this.#reflectionDue = false;
      await this.#end('ended', null, null);
    }
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
    const answer = messages[messages.length - 1]!.content;
    await this.#tell({ type: 'thought', todo: this.#lastTodo(), action: reflection.action, text: answer });
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
    // The reflection finished the plan: what was still pending is not needed.
    if (state === 'completed') this.#todos = pendingSkipped(this.#todos);
    await this.#announceEnd();
  }

  /** The todo the due reflection is about: the last one carried out, when one was. */
  #lastRun(): PlannedTodo | undefined {
    const id = this.#reflectionDue ? this.#lastTodo() : null;
    return id === null ? undefined : this.#todos.find((todo) => todo.id === id);
  }

  /** The id of the last todo carried out, or null. */
  #lastTodo(): string | null {
    for (let i = this.#history.length - 1; i >= 0; i--) {
      const exchange = this.#history[i]!;
      if (exchange.phase === 'todo') return exchange.todo;
    }
    return null;
  }

  /** Hands a message to `hooks.onMessage` (awaited: a throw stops the plan, as any hook's). */
  async #tell(message: TodoPlanMessage): Promise<void> {
    await this.#runtime.hooks.onMessage?.(this, message);
  }

  #replace(todo: PlannedTodo): void {
    this.#todos = Object.freeze(this.#todos.map((t) => (t.id === todo.id ? todo : t)));
  }

  #emit(event: TodoPlanEvent | AgentEvent): void {
    this.#runtime.emit(event);
  }
}
