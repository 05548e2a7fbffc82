/**
 * Reading a saved todo plan back (`TodoPlan.from`). A snapshot comes from disk, a database or
 * another process, so it is untrusted: its text length is checked before it is parsed, its
 * depth, size and keys by checkJson before anything walks it, and then every field against
 * the one shape `toJSON()` writes, unknown keys included. Each refusal is a TypeError naming
 * the place (`todos[2].status`) and what would be right there. Nothing is trusted half-read.
 */
import { checkJson, cloneJson } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import type { Message } from '../model.js';
import {
  isTodoId,
  MAX_TODO_ID,
  MAX_TODO_TEXT,
  PLANNED_TODO_STATUSES,
  type PlannedTodo,
  TODO_PLAN_STATES,
  type TodoPlanJson,
  type TodoPlanState,
} from './todo-plan-types.js';

const WHERE = 'TodoPlan.from';
const EXPECTED = 'the object a todo plan\'s toJSON() returns ({"version": 1, "goal", "state", "todos", ...})';

/** Longest goal; the goal goes into every request of the plan. */
export const MAX_GOAL_LENGTH = 100_000;

/**
 * Levels of the snapshot above the deepest value a model or a tool chose (a tool call's
 * arguments in `history[i].messages[j].toolCalls[k]`): those values may nest `maxDepth` deep
 * themselves, as they could when they were first read.
 */
const ENVELOPE_DEPTH = 7;

const OUTCOMES = ['succeeded', 'failed', 'denied', 'rejected'] as const;
const PHASES = ['create', 'todo', 'reflect'] as const;

export interface SnapshotBounds {
  readonly limits: Limits;
  readonly maxTodos: number;
}

type Record_ = Record<string, unknown>;

/**
 * The snapshot, checked and copied (the caller's object is not kept). A todo saved while it
 * was executing comes back pending: its turn never ended, so it runs again from its start.
 * @throws {TypeError} naming the place and what is wrong there.
 */
export function readTodoPlanJson(json: unknown, bounds: SnapshotBounds): TodoPlanJson {
  const { limits } = bounds;
  let value = json;
  if (typeof json === 'string') {
    if (json.length > limits.maxTextLength) {
      fail(`the text has ${json.length} characters; limits.maxTextLength is ${limits.maxTextLength}`);
    }
    try {
      value = JSON.parse(json);
    } catch (error) {
      fail(`the text is not JSON (${(error as Error).message}); expected ${EXPECTED}`);
    }
  }
  const checked = checkJson(value, { limits, depth: -ENVELOPE_DEPTH });
  if ('problem' in checked) {
    const { pointer, message, hint } = checked.problem;
    fail(`${placeOf(pointer)} ${message}; ${hint}`);
  }
  const snapshot = object(value, 'the snapshot', [
    'version',
    'goal',
    'state',
    'todos',
    'iterations',
    'reflectionDue',
    'result',
    'error',
    'history',
    'endedBy',
  ]);
  if (snapshot.version !== 1) fail(`"version" must be 1, not ${show(snapshot.version)}`);
  text(snapshot.goal, 'goal', MAX_GOAL_LENGTH);
  const state = oneOf(snapshot.state, 'state', TODO_PLAN_STATES);
  const todos = list(snapshot.todos, 'todos');
  if (todos.length > bounds.maxTodos) {
    fail(`todos has ${todos.length} todos; maxTodos is ${bounds.maxTodos} (raise it to restore this plan)`);
  }
  const ids = new Set<string>();
  todos.forEach((todo, i) => {
    const id = readTodo(todo, `todos[${i}]`).id;
    if (ids.has(id)) fail(`todos[${i}].id ${show(id)} is used twice; each todo has its own id`);
    ids.add(id);
  });
  const iterations = snapshot.iterations;
  if (!Number.isSafeInteger(iterations) || (iterations as number) < 0) {
    fail(`"iterations" must be a whole number >= 0, not ${show(iterations)}`);
  }
  if (typeof snapshot.reflectionDue !== 'boolean') {
    fail(`"reflectionDue" must be true or false, not ${show(snapshot.reflectionDue)}`);
  }
  const result = nullableText(snapshot.result, 'result');
  const error = nullableText(snapshot.error, 'error');
  list(snapshot.history, 'history').forEach((exchange, i) => readExchange(exchange, `history[${i}]`));
  checkConsistent(state, snapshot, todos as PlannedTodo[], result, error);
  readEnding(snapshot.endedBy, state);

  const copy = cloneJson(snapshot) as unknown as TodoPlanJson;
  return {
    ...copy,
    // A turn that never ended did nothing the plan knows of: it runs again.
    todos: copy.todos.map((todo) =>
      Object.freeze(todo.status === 'executing' ? { ...todo, status: 'pending' as const } : todo),
    ),
  };
}

function checkConsistent(
  state: TodoPlanState,
  snapshot: Record_,
  todos: readonly PlannedTodo[],
  result: string | null,
  error: string | null,
): void {
  if (state === 'completed' && result === null) fail('"result" must be a string when the state is completed');
  if (state !== 'completed' && result !== null) fail(`"result" must be null when the state is ${state}`);
  if (state === 'failed' && error === null) fail('"error" must say why when the state is failed');
  if (state !== 'failed' && error !== null) fail(`"error" must be null when the state is ${state}`);
  if (state !== 'running' && snapshot.reflectionDue === true) {
    fail(`"reflectionDue" must be false when the state is ${state}: only a running plan reflects`);
  }
  const executing = todos.flatMap((todo, i) => (todo.status === 'executing' ? [i] : []));
  if (executing.length > 1) fail(`${executing.length} todos are executing; at most one runs at a time`);
  if (executing.length === 1 && state !== 'running') {
    fail(`todos[${executing[0]}] is executing, but the state is ${state}: only a running plan runs todos`);
  }
  if (state === 'created') {
    const ran = todos.findIndex((todo) => todo.status !== 'pending');
    if (ran >= 0)
      fail(`todos[${ran}] is ${todos[ran]!.status}, but the state is created: nothing has run yet`);
    if (snapshot.iterations !== 0) fail('"iterations" must be 0 when the state is created');
  }
}

function readTodo(value: unknown, at: string): PlannedTodo {
  const todo = object(value, at, ['id', 'description', 'intent', 'status', 'result', 'error']);
  if (!isTodoId(todo.id)) {
    fail(
      `${at}.id must be letters, digits, "_", "." and "-" (at most ${MAX_TODO_ID}, starting with a letter or digit), not ${show(todo.id)}`,
    );
  }
  text(todo.description, `${at}.description`, MAX_TODO_TEXT);
  text(todo.intent, `${at}.intent`, MAX_TODO_TEXT);
  const status = oneOf(todo.status, `${at}.status`, PLANNED_TODO_STATUSES);
  const error = nullableText(todo.error, `${at}.error`);
  if (todo.result !== null) readResult(todo.result, `${at}.result`);
  if (status === 'completed' && todo.result === null)
    fail(`${at}.result must be an object when the todo is completed`);
  if ((status === 'pending' || status === 'executing' || status === 'skipped') && todo.result !== null) {
    fail(`${at}.result must be null when the todo is ${status}: it has not run`);
  }
  if (status === 'failed' && error === null) fail(`${at}.error must say why when the todo failed`);
  if (status !== 'failed' && error !== null) fail(`${at}.error must be null when the todo is ${status}`);
  return todo as unknown as PlannedTodo;
}

function readResult(value: unknown, at: string): void {
  const result = object(value, at, ['output', 'toolCalls', 'data', 'executedAt']);
  string(result.output, `${at}.output`);
  list(result.toolCalls, `${at}.toolCalls`).forEach((call, i) => {
    const where = `${at}.toolCalls[${i}]`;
    const record = object(call, where, ['id', 'name', 'arguments', 'outcome']);
    string(record.id, `${where}.id`);
    string(record.name, `${where}.name`);
    if (record.arguments !== null) object(record.arguments, `${where}.arguments`);
    oneOf(record.outcome, `${where}.outcome`, OUTCOMES);
  });
  object(result.data, `${at}.data`);
  const executedAt = result.executedAt;
  if (typeof executedAt !== 'string' || executedAt.length > 40 || Number.isNaN(Date.parse(executedAt))) {
    fail(`${at}.executedAt must be an ISO date string, not ${show(executedAt)}`);
  }
}

function readExchange(value: unknown, at: string): void {
  const exchange = object(value, at, ['phase', 'todo', 'messages']);
  const phase = oneOf(exchange.phase, `${at}.phase`, PHASES);
  if (phase === 'todo' ? !isTodoId(exchange.todo) : exchange.todo !== null) {
    fail(
      `${at}.todo must be ${phase === 'todo' ? 'the id of the todo carried out' : 'null'}, not ${show(exchange.todo)}`,
    );
  }
  list(exchange.messages, `${at}.messages`).forEach((message, i) =>
    readMessage(message, `${at}.messages[${i}]`),
  );
}

function readMessage(value: unknown, at: string): Message {
  const role = object(value, at).role;
  switch (role) {
    case 'system':
    case 'user': {
      const message = object(value, at, ['role', 'content']);
      string(message.content, `${at}.content`);
      break;
    }
    case 'assistant': {
      const message = object(value, at, ['role', 'content', 'toolCalls']);
      string(message.content, `${at}.content`);
      if (message.toolCalls !== undefined) {
        list(message.toolCalls, `${at}.toolCalls`).forEach((call, i) => {
          const where = `${at}.toolCalls[${i}]`;
          const record = object(call, where, ['id', 'name', 'arguments', 'argumentsText', 'argumentsError']);
          string(record.id, `${where}.id`);
          string(record.name, `${where}.name`);
          object(record.arguments, `${where}.arguments`);
          for (const key of ['argumentsText', 'argumentsError'] as const) {
            if (record[key] !== undefined && typeof record[key] !== 'string') {
              fail(`${where}.${key} must be a string when present, not ${show(record[key])}`);
            }
          }
        });
      }
      break;
    }
    case 'tool': {
      const message = object(value, at, ['role', 'toolCallId', 'name', 'content', 'isError']);
      string(message.toolCallId, `${at}.toolCallId`);
      string(message.name, `${at}.name`);
      string(message.content, `${at}.content`);
      if (message.isError !== undefined && typeof message.isError !== 'boolean') {
        fail(`${at}.isError must be true or false when present, not ${show(message.isError)}`);
      }
      break;
    }
    default:
      fail(`${at}.role must be system, user, assistant or tool, not ${show(role)}`);
  }
  return value as Message;
}

/** `endedBy`: set (tool, callId, reason) exactly when the state is ended; absent in older snapshots. */
function readEnding(value: unknown, state: TodoPlanState): void {
  if (value === undefined || value === null) {
    if (state === 'ended') fail('"endedBy" must say which tool ended the loop when the state is ended');
    return;
  }
  if (state !== 'ended') fail(`"endedBy" must be null when the state is ${state}`);
  const ending = object(value, 'endedBy', ['tool', 'callId', 'reason']);
  for (const key of ['tool', 'callId', 'reason'] as const) string(ending[key], `endedBy.${key}`);
}

/**
 * The `history` option of planTodos() and TodoPlan.from(): messages the plan starts from,
 * checked as a snapshot's are (within the limits, each a message) and copied.
 * @throws {TypeError} naming the option, the place and what is wrong there.
 */
export function readHistoryOption(value: unknown, where: string, limits: Limits): Message[] {
  if (!Array.isArray(value)) {
    throw new TypeError(`${where}: history must be an array of messages, not ${show(value)}`);
  }
  try {
    const checked = checkJson(value, { limits });
    if ('problem' in checked) {
      const { pointer, message } = checked.problem;
      fail(`history${placeOf(pointer).replace(/^the snapshot$/, '')} ${message}`);
    }
    value.forEach((message, i) => readMessage(message, `history[${i}]`));
  } catch (error) {
    const message = (error as Error).message.replace(`${WHERE}: `, '');
    throw new TypeError(`${where}: ${message}`);
  }
  return cloneJson(value) as Message[];
}

/** A plain object, with only the `keys` given (when given). */
function object(value: unknown, at: string, keys?: readonly string[]): Record_ {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail(`${at} must be an object, not ${show(value)}`);
  }
  if (keys) {
    for (const key in value) {
      if (Object.hasOwn(value, key) && !keys.includes(key)) {
        fail(`${at} has an unknown key ${show(key)}; it has only ${keys.join(', ')}`);
      }
    }
  }
  return value as Record_;
}

function list(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) fail(`${at} must be an array, not ${show(value)}`);
  return value;
}

function text(value: unknown, at: string, max?: number): string {
  if (typeof value !== 'string' || value === '') fail(`${at} must be a non-empty string, not ${show(value)}`);
  if (max !== undefined && value.length > max)
    fail(`${at} has ${value.length} characters; at most ${max} are allowed`);
  return value;
}

function string(value: unknown, at: string): string {
  if (typeof value !== 'string') fail(`${at} must be a string, not ${show(value)}`);
  return value;
}

function nullableText(value: unknown, at: string): string | null {
  if (value !== null && typeof value !== 'string') fail(`${at} must be a string or null, not ${show(value)}`);
  return value;
}

function oneOf<T extends string>(value: unknown, at: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) fail(`${at} must be one of ${allowed.join(', ')}, not ${show(value)}`);
  return value as T;
}

/** `/todos/0/id` as `todos[0].id`, cut short: keys are the writer's and may be megabytes long. */
function placeOf(pointer: string): string {
  if (pointer === '') return 'the snapshot';
  let place = '';
  for (const token of pointer.slice(1).split('/', 50)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    place += /^(?:0|[1-9]\d{0,9})$/.test(key)
      ? `[${key}]`
      : `${place === '' ? '' : '.'}${show(key).slice(1, -1)}`;
    if (place.length > 200) return `${place.slice(0, 200)}…`;
  }
  return place;
}

/** A bad value, short and safe to print. */
function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function fail(message: string): never {
  throw new TypeError(`${WHERE}: ${message}`);
}
