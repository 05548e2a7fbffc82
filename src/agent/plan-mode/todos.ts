/**
 * The model's todo list: replaced whole by each `todo_write`, statuses pending, in_progress
 * and completed, at most one in_progress. A bad list is refused with a message that says
 * which item is wrong and how, so the model can fix it in one turn.
 *
 * A saved list (`toJSON()`, restored by `TodoList.from()`) is untrusted input like the model's
 * own: it is bounded as JSON first, then held to the same rules as `replace()`.
 */
import { describeValue } from '../../language/describe-value.js';
import { readSavedJson } from './saved-json.js';

export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface Todo {
  /** What to do, imperative ("Add the migration"). */
  readonly content: string;
  readonly status: TodoStatus;
}

/** The most items a list may hold; a longer one is a model looping, not a plan. */
export const MAX_TODOS = 100;
/** The longest item, in characters. */
export const MAX_TODO_CONTENT = 1000;

export class TodoList {
  #items: readonly Todo[] = [];

  get items(): readonly Todo[] {
    return this.#items;
  }

  /**
   * A list holding saved items: the array `toJSON()` gave, or its JSON text.
   * @throws {TypeError} naming the bad item (or the place in a value too big or deep to read).
   */
  static from(json: unknown): TodoList {
    const value = readSavedJson(json, {
      where: 'TodoList.from',
      name: 'todos',
      expected: 'an array of {content, status} items',
      maxTextLength: MAX_SAVED_TEXT,
    });
    const list = new TodoList();
    try {
      list.replace(value);
    } catch (error) {
      throw new TypeError(`TodoList.from: ${(error as Error).message}`);
    }
    return list;
  }

  /**
   * Replaces the whole list.
   * @throws {TypeError} naming the bad item and what is wrong with it.
   */
  replace(todos: unknown): readonly Todo[] {
    this.#items = Object.freeze(readTodos(todos).map((todo) => Object.freeze(todo)));
    return this.#items;
  }

  /** The items, as `JSON.stringify` and `TodoList.from()` take them. */
  toJSON(): Todo[] {
    return this.#items.map((todo) => ({ content: todo.content, status: todo.status }));
  }
}

/**
 * The most characters of saved JSON text read: MAX_TODOS items of MAX_TODO_CONTENT characters,
 * with room for escapes and keys. Nothing longer can be a valid list, so it is not parsed.
 */
const MAX_SAVED_TEXT = MAX_TODOS * (MAX_TODO_CONTENT * 6 + 64);

/** Checks a list as the model wrote it. @throws {TypeError} saying what to fix. */
export function readTodos(value: unknown): Todo[] {
  if (!Array.isArray(value)) {
    throw new TypeError(`todos must be an array of {content, status} items, not ${describeValue(value)}`);
  }
  if (value.length > MAX_TODOS) {
    throw new TypeError(
      `todos has ${value.length} items; at most ${MAX_TODOS} are allowed, so merge small steps`,
    );
  }
  const todos = value.map((item: unknown, index): Todo => {
    const at = `todos[${index}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new TypeError(`${at} must be an object {content, status}, not ${describeValue(item)}`);
    }
    const record = item as Record<string, unknown>;
    const extra = Object.keys(record).find((key) => key !== 'content' && key !== 'status');
    if (extra !== undefined) {
      throw new TypeError(
        `${at} has an unknown key ${describeValue(extra)}; an item has only content and status`,
      );
    }
    const { content, status } = record;
    if (typeof content !== 'string' || content.trim() === '') {
      throw new TypeError(`${at}.content must be a non-empty string, not ${describeValue(content)}`);
    }
    if (content.length > MAX_TODO_CONTENT) {
      throw new TypeError(
        `${at}.content has ${content.length} characters; at most ${MAX_TODO_CONTENT} are allowed`,
      );
    }
    if (!TODO_STATUSES.includes(status as TodoStatus)) {
      throw new TypeError(
        `${at}.status must be one of ${TODO_STATUSES.join(', ')}, not ${describeValue(status)}`,
      );
    }
    return { content, status: status as TodoStatus };
  });
  const active = todos.flatMap((todo, index) => (todo.status === 'in_progress' ? [index] : []));
  if (active.length > 1) {
    throw new TypeError(
      `${active.length} todos are in_progress (todos[${active.join('], todos[')}]); at most one may be in_progress at a time, so mark the others pending or completed`,
    );
  }
  return todos;
}
