/**
 * The two structured answers a todo plan asks the model for, the todo list and the reflection:
 * their JSON Schemas (within OpenAI's strict subset: every property required, nulls instead
 * of optional keys, no other keywords it refuses) and the readers that check an answer
 * against the plan as it stands. A reader never throws at a bad answer: it says what is wrong,
 * in a sentence the model can act on, and the plan sends that back for a repair.
 */
import { checkJson } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import type { ResponseFormat } from '../model.js';
import {
  isTodoId,
  MAX_TODO_ID,
  MAX_TODO_TEXT,
  type PlannedTodo,
  type ReflectionAction,
  type TodoChange,
} from './todo-plan-types.js';

const TODO_FIELDS = {
  id: { type: 'string', description: `A short unique id: t1, t2, ... (at most ${MAX_TODO_ID} characters)` },
  description: { type: 'string', description: 'What to do, as one instruction' },
  intent: { type: 'string', description: 'Why: what this todo contributes to the goal' },
} as const;

export const TODO_LIST_FORMAT: ResponseFormat = {
  name: 'todo_list',
  schema: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        description: 'The todos, in the order they should run',
        items: {
          type: 'object',
          properties: TODO_FIELDS,
          required: ['id', 'description', 'intent'],
          additionalProperties: false,
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  },
};

const NULLABLE_STRING = { type: ['string', 'null'] } as const;

export const REFLECTION_FORMAT: ResponseFormat = {
  name: 'reflection',
  schema: {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        enum: ['continue', 'revise', 'finish'],
        description:
          'continue: run the next pending todo; revise: apply `changes` to the pending todos first; finish: end with `result`',
      },
      changes: {
        type: 'array',
        description: 'With revise: the changes to the pending todos, applied in order; else []',
        items: {
          type: 'object',
          properties: {
            type: { type: 'string', enum: ['add', 'update', 'remove'] },
            id: {
              type: 'string',
              description: 'The todo: a new id for add, a pending todo for update and remove',
            },
            description: {
              ...NULLABLE_STRING,
              description: 'add: required; update: the new text, or null to keep it',
            },
            intent: {
              ...NULLABLE_STRING,
              description: 'add: required; update: the new intent, or null to keep it',
            },
            before: {
              ...NULLABLE_STRING,
              description: 'add: the pending todo to put it before, or null for the end of the list',
            },
          },
          required: ['type', 'id', 'description', 'intent', 'before'],
          additionalProperties: false,
        },
      },
      result: {
        ...NULLABLE_STRING,
        description: 'With finish: the final answer for the user (what was done, what was found); else null',
      },
    },
    required: ['action', 'changes', 'result'],
    additionalProperties: false,
  },
};

/** The bounds a reader checks besides the answer's shape. */
export interface AnswerBounds {
  readonly maxTodos: number;
  readonly limits: Limits;
}

/** A todo list, or what is wrong with it. */
export function readTodoList(text: string, bounds: AnswerBounds): PlannedTodo[] | string {
  const value = readObject(text, bounds.limits, '{"todos": [{"id", "description", "intent"}]}');
  if (typeof value === 'string') return value;
  const { todos } = value;
  if (!Array.isArray(todos)) return 'Your answer has no "todos" array.';
  if (todos.length === 0) return 'Your list has no todos: give at least one.';
  if (todos.length > bounds.maxTodos) {
    return `Your list has ${todos.length} todos; at most ${bounds.maxTodos} are allowed, so merge small steps.`;
  }
  const list: PlannedTodo[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < todos.length; i++) {
    const item: unknown = todos[i];
    const at = `todos[${i}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return `${at} is not an object.`;
    const { id, description, intent } = item as Record<string, unknown>;
    const problem =
      idProblem(id, `${at}.id`) ??
      textProblem(description, `${at}.description`) ??
      textProblem(intent, `${at}.intent`);
    if (problem) return problem;
    if (seen.has(id as string)) return `${at}.id "${id as string}" is used twice: give each todo its own id.`;
    seen.add(id as string);
    list.push(newTodo(id as string, description as string, intent as string));
  }
  return list;
}

/** A reflection the plan can act on. */
export interface Reflection {
  readonly action: ReflectionAction;
  /** With revise: the new list and the changes made to get it. */
  readonly todos: readonly PlannedTodo[];
  readonly changes: readonly TodoChange[];
  /** With finish: the final result. */
  readonly result: string | null;
}

/** The reflection applied to `current`, or what is wrong with it. */
export function readReflection(
  text: string,
  current: readonly PlannedTodo[],
  bounds: AnswerBounds,
): Reflection | string {
  const value = readObject(text, bounds.limits, '{"action", "changes", "result"}');
  if (typeof value === 'string') return value;
  const { action, changes, result } = value;
  if (action !== 'continue' && action !== 'revise' && action !== 'finish') {
    return `"action" must be "continue", "revise" or "finish", not ${short(action)}.`;
  }
  const list = changes === undefined || changes === null ? [] : changes;
  if (!Array.isArray(list)) return '"changes" must be an array (empty unless the action is revise).';
  const pending = current.some((todo) => todo.status === 'pending');
  switch (action) {
    case 'continue':
      if (list.length > 0)
        return 'Changes are applied only with the action "revise": use it, or send "changes": [].';
      if (!pending) {
        return 'No todo is pending, so there is nothing to continue with: finish with a result, or revise with an add.';
      }
      return { action, todos: current, changes: [], result: null };
    case 'finish':
      if (list.length > 0)
        return 'Changes are applied only with the action "revise": finish with "changes": [].';
      if (typeof result !== 'string' || result.trim() === '') {
        return 'Finishing needs the final answer as a non-empty string "result".';
      }
      return { action, todos: current, changes: [], result };
    default:
      return applyChanges(list, current, bounds.maxTodos);
  }
}

function applyChanges(
  list: readonly unknown[],
  current: readonly PlannedTodo[],
  maxTodos: number,
): Reflection | string {
  if (list.length === 0) return 'The action "revise" needs at least one change; with none, continue.';
  if (list.length > 2 * maxTodos)
    return `Your revision has ${list.length} changes; at most ${2 * maxTodos} are allowed.`;
  const todos = [...current];
  const changes: TodoChange[] = [];
  const indexOf = (id: string) => todos.findIndex((todo) => todo.id === id);
  for (let i = 0; i < list.length; i++) {
    const at = `changes[${i}]`;
    const item: unknown = list[i];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return `${at} is not an object.`;
    const { type, id, description, intent, before } = item as Record<string, unknown>;
    const idIssue = idProblem(id, `${at}.id`);
    if (idIssue) return idIssue;
    const index = indexOf(id as string);
    if (type === 'add') {
      if (index >= 0) return `${at} adds "${id as string}", which is taken: give the new todo a new id.`;
      const problem = textProblem(description, `${at}.description`) ?? textProblem(intent, `${at}.intent`);
      if (problem) return problem;
      if (todos.length >= maxTodos)
        return `${at} would make ${todos.length + 1} todos; at most ${maxTodos} are allowed.`;
      let position = todos.length;
      if (before !== null && before !== undefined) {
        position = typeof before === 'string' ? indexOf(before) : -1;
        if (position < 0 || todos[position]!.status !== 'pending') {
          return `${at}.before must be the id of a pending todo (or null for the end), not ${short(before)}.`;
        }
      }
      const todo = newTodo(id as string, description as string, intent as string);
      todos.splice(position, 0, todo);
      changes.push({ type: 'added', todo });
      continue;
    }
    if (type !== 'update' && type !== 'remove')
      return `${at}.type must be "add", "update" or "remove", not ${short(type)}.`;
    if (index < 0) return `${at} names "${id as string}", which is not a todo of this plan.`;
    const old = todos[index]!;
    if (old.status !== 'pending') {
      return `${at} would ${type} "${old.id}", which is ${old.status}: only pending todos can change (add a new one instead).`;
    }
    if (type === 'remove') {
      todos.splice(index, 1);
      changes.push({ type: 'removed', todo: old });
      continue;
    }
    if ((description === null || description === undefined) && (intent === null || intent === undefined)) {
      return `${at} updates "${old.id}" but changes nothing: give a new description or intent.`;
    }
    const problem =
      (description === null || description === undefined
        ? undefined
        : textProblem(description, `${at}.description`)) ??
      (intent === null || intent === undefined ? undefined : textProblem(intent, `${at}.intent`));
    if (problem) return problem;
    const todo: PlannedTodo = Object.freeze({
      ...old,
      description: typeof description === 'string' ? description : old.description,
      intent: typeof intent === 'string' ? intent : old.intent,
    });
    todos[index] = todo;
    changes.push({ type: 'updated', before: old, todo });
  }
  return { action: 'revise', todos, changes, result: null };
}

function newTodo(id: string, description: string, intent: string): PlannedTodo {
  return Object.freeze({ id, description, intent, status: 'pending', result: null, error: null });
}

/** The answer as a JSON object within the limits, or what is wrong with it. */
function readObject(text: string, limits: Limits, shape: string): Record<string, unknown> | string {
  if (text.length > limits.maxTextLength) {
    return `Your answer has ${text.length} characters; at most ${limits.maxTextLength} are read.`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `Your answer is not JSON (${(e as Error).message}). Answer with the JSON object ${shape} only.`;
  }
  const checked = checkJson(value, { limits });
  if ('problem' in checked) {
    return `Your answer ${checked.problem.pointer === '' ? '' : `at ${checked.problem.pointer} `}${checked.problem.message}.`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `Your answer is not a JSON object ${shape}.`;
  }
  return value as Record<string, unknown>;
}

function idProblem(id: unknown, at: string): string | undefined {
  if (isTodoId(id)) return undefined;
  return `${at} must be a short id of letters, digits, "_", "." and "-" (at most ${MAX_TODO_ID} characters, starting with a letter or digit), not ${short(id)}.`;
}

function textProblem(value: unknown, at: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '')
    return `${at} must be a non-empty string, not ${short(value)}.`;
  if (value.length > MAX_TODO_TEXT) {
    return `${at} has ${value.length} characters; at most ${MAX_TODO_TEXT} are allowed, so say it shorter.`;
  }
  return undefined;
}

/** A bad value as the model should see it: short, and never a whole megabyte back. */
function short(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : String(value);
}
