/**
 * How a todo plan reports its stages, two ways:
 *
 * - events (`onEvent`): one typed event per stage, plus the agent events of each todo's turn
 *   (text, tool calls, tool results). A listener only watches: what it throws is dropped, so a
 *   broken progress bar cannot stop a plan.
 * - hooks (`hooks`, gollem's plan hooks): awaited at the same stages, after the plan's state
 *   is updated. A hook is a control point: what it throws (or rejects with) stops `execute()`
 *   or `step()` with that error, as gollem's hooks abort the plan. The plan stays where it was,
 *   consistent and resumable: `execute()` again carries on.
 */
import type { AgentEvent } from '../agent-events.js';
import type { PlannedTodo, ReflectionAction, TodoChange, TodoPlanState } from './todo-plan-types.js';
import type { TodoPlanMessage } from './todo-plan-messages.js';

export type TodoPlanEvent =
  /** The todos were made (and approved, when someone approves plans). */
  | { readonly type: 'todos-created'; readonly todos: readonly PlannedTodo[] }
  /** A todo's agent turn begins. */
  | { readonly type: 'todo-start'; readonly todo: PlannedTodo }
  /** A todo's agent turn ended: `todo.status` is completed or failed. */
  | { readonly type: 'todo-done'; readonly todo: PlannedTodo }
  /** The reflection after a todo decided (`iteration` counts reflections from 1). */
  | { readonly type: 'reflected'; readonly iteration: number; readonly action: ReflectionAction }
  /** A reflection changed the pending todos. */
  | {
      readonly type: 'todos-revised';
      readonly changes: readonly TodoChange[];
      readonly todos: readonly PlannedTodo[];
    }
  /** The plan ended: completed, failed, out of iterations, or ended by a tool. */
  | {
      readonly type: 'todo-plan-done';
      readonly state: TodoPlanState;
      readonly result: string | null;
      readonly error: string | null;
    };

/** Receives the plan's events and the agent events of each todo's turn. */
export type TodoPlanListener = (event: TodoPlanEvent | AgentEvent) => void;

/**
 * gollem's plan hooks. Each is awaited; a throw stops the plan there (see the file's note).
 * Generic in the plan each hook is given so that this file sits beneath the plan it reports
 * on: `TodoPlanHooks` (todo-plan.ts) is these hooks over a TodoPlan.
 */
export interface TodoPlanHooksOf<Plan> {
  /**
   * The todos are made and approved; `planTodos()` returns the plan after this.
   * @default none
   */
  readonly onCreated?: (plan: Plan) => void | Promise<void>;
  /**
   * A todo is about to run (its status is executing). A throw here leaves it pending.
   * @default none
   */
  readonly onTodoStart?: (plan: Plan, todo: PlannedTodo) => void | Promise<void>;
  /**
   * A todo's turn ended (completed or failed); its reflection comes next.
   * @default none
   */
  readonly onTodoDone?: (plan: Plan, todo: PlannedTodo) => void | Promise<void>;
  /**
   * A reflection changed the pending todos.
   * @default none
   */
  readonly onRevised?: (plan: Plan, changes: readonly TodoChange[]) => void | Promise<void>;
  /**
   * The plan ended: `plan.state` says how (completed, failed, max_iterations); `result` is the
   * final result when it completed, else null.
   * @default none
   */
  readonly onCompleted?: (plan: Plan, result: string | null) => void | Promise<void>;
  /**
   * gollem's message hook: every step as a typed message (`system`, `response`, `action`,
   * `thought`) tagged with its todo's id (see todo-plan-messages.ts), in order.
   * @default none
   */
  readonly onMessage?: (plan: Plan, message: TodoPlanMessage) => void | Promise<void>;
}

export const TODO_PLAN_HOOK_NAMES = [
  'onCreated',
  'onTodoStart',
  'onTodoDone',
  'onRevised',
  'onCompleted',
  'onMessage',
] as const;
