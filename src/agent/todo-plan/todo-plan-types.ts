/**
 * What a todo plan is made of (gollem's plan mode): a goal, todos the model proposed, each
 * todo's status and result, the plan's state, and the conversations that got it there. Every
 * value here is plain JSON data, so a plan serializes as it is.
 */
import type { Message } from '../model.js';
import type { LoopEnding } from '../../tools/end-loop.js';

export const PLANNED_TODO_STATUSES = ['pending', 'executing', 'completed', 'failed', 'skipped'] as const;
/**
 * - `pending`: not run yet;
 * - `executing`: its agent turn is running;
 * - `completed`: the model answered (its answer is the result);
 * - `failed`: it ran out of turns before answering;
 * - `skipped`: the plan finished before it ran.
 */
export type PlannedTodoStatus = (typeof PLANNED_TODO_STATUSES)[number];

export const TODO_PLAN_STATES = [
  'created',
  'running',
  'completed',
  'failed',
  'max_iterations',
  'ended',
] as const;
/**
 * - `created`: the todos are made and approved; nothing ran yet;
 * - `running`: todos are being carried out (also between `step()` calls);
 * - `completed`: the reflection finished the plan with a result;
 * - `failed`: the model's todo list or reflection could not be read, even after repairs;
 * - `max_iterations`: the reflections ran out before the model finished;
 * - `ended`: a tool of a todo ended the loop (`endLoop()`): that todo is completed, no reflection
 *   followed, and the todos still pending stay pending (`endedBy` says which tool, and why).
 */
export type TodoPlanState = (typeof TODO_PLAN_STATES)[number];

/** The states a plan ends in: running one again is a PlanAlreadyExecutedError. */
export const FINISHED_STATES: readonly TodoPlanState[] = ['completed', 'failed', 'max_iterations', 'ended'];

/** The todos with each one still pending marked skipped (a plan that completed), frozen. */
export function pendingSkipped(todos: readonly PlannedTodo[]): readonly PlannedTodo[] {
  return Object.freeze(
    todos.map((todo) =>
      todo.status === 'pending' ? Object.freeze({ ...todo, status: 'skipped' as const }) : todo,
    ),
  );
}

/** How one tool call of a todo's turn ended. */
export type TodoToolCallOutcome = 'succeeded' | 'failed' | 'denied' | 'rejected';

/** A tool call the model made while carrying out a todo. */
export interface TodoToolCall {
  /** The model's id for the call. */
  readonly id: string;
  readonly name: string;
  /** The arguments, as JSON data; null when they were not JSON within the limits. */
  readonly arguments: Record<string, unknown> | null;
  readonly outcome: TodoToolCallOutcome;
}

/** What carrying out a todo produced (gollem's PlanToDoResult). */
export interface TodoResult {
  /** The model's last answer in the todo's turn: what it did and found. */
  readonly output: string;
  /** Every tool call, in order. */
  readonly toolCalls: readonly TodoToolCall[];
  /** The output of each call that succeeded, by call id (outputs JSON cannot carry are left out). */
  readonly data: Readonly<Record<string, unknown>>;
  /** When the todo's turn ended, as an ISO string. */
  readonly executedAt: string;
}

/** One step of the plan (gollem's PlanToDo). */
export interface PlannedTodo {
  /** The model's short id for it, unique in the plan: `t1`. */
  readonly id: string;
  /** What to do. */
  readonly description: string;
  /** Why: what it contributes to the goal. */
  readonly intent: string;
  readonly status: PlannedTodoStatus;
  /** What it produced; null until it ran. */
  readonly result: TodoResult | null;
  /** Why it failed; null unless `status` is `failed`. */
  readonly error: string | null;
}

/** One change a reflection made to the pending todos (gollem's PlanToDoChange). */
export type TodoChange =
  | { readonly type: 'added'; readonly todo: PlannedTodo }
  | { readonly type: 'updated'; readonly before: PlannedTodo; readonly todo: PlannedTodo }
  | { readonly type: 'removed'; readonly todo: PlannedTodo };

/** What the reflection decided: carry on, change the pending todos first, or end with a result. */
export type ReflectionAction = 'continue' | 'revise' | 'finish';

/** One conversation of the plan: making the todos, carrying out one, or reflecting after one. */
export interface TodoPlanExchange {
  readonly phase: 'create' | 'todo' | 'reflect';
  /** The todo carried out, for `todo`; null otherwise. */
  readonly todo: string | null;
  readonly messages: readonly Message[];
}

/** What `TodoPlan.toJSON()` writes and `TodoPlan.from()` reads. */
export interface TodoPlanJson {
  readonly version: 1;
  readonly goal: string;
  readonly state: TodoPlanState;
  readonly todos: readonly PlannedTodo[];
  /** Reflections so far. */
  readonly iterations: number;
  /** A todo ended and its reflection has not run yet (a snapshot taken in a hook). */
  readonly reflectionDue: boolean;
  /** The final result, when `completed`. */
  readonly result: string | null;
  /** Why the plan failed, when `failed`. */
  readonly error: string | null;
  /** Every conversation, in order. */
  readonly history: readonly TodoPlanExchange[];
  /** When `ended`: which tool ended the loop, in which call, and why (absent in older snapshots). */
  readonly endedBy?: LoopEnding | null;
}

/** Longest description or intent of a todo; a longer one is a model rambling, not a step. */
export const MAX_TODO_TEXT = 2_000;

/** Longest todo id. */
export const MAX_TODO_ID = 64;

/**
 * Whether `id` is a todo id: a letter or digit, then letters, digits, `_`, `.` or `-`. Checked
 * with a loop rather than a pattern, so what a model or a snapshot hands in costs one pass.
 */
export function isTodoId(id: unknown): id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_TODO_ID) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!alnum && (i === 0 || (c !== 95 && c !== 46 && c !== 45))) return false;
  }
  return true;
}

/** How a plan's `execute()` ended. */
export interface TodoPlanOutcome {
  /** completed, failed, max_iterations or ended. */
  readonly state: TodoPlanState;
  /** The final result, when completed. */
  readonly result: string | null;
  /** Why it failed, when failed. */
  readonly error: string | null;
  readonly todos: readonly PlannedTodo[];
  /** Reflections made. */
  readonly iterations: number;
  /** When ended: which tool ended the loop (`endLoop()`), in which call, and why; else null. */
  readonly endedBy: LoopEnding | null;
}
