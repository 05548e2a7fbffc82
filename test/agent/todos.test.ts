import { describe, expect, it } from 'vitest';
import { MAX_TODOS, readTodos, TodoList } from '../../src/agent/index.js';

describe('todo rules', () => {
  it('accepts pending, in_progress and completed items, with at most one in_progress', () => {
    const list = [
      { content: 'read the code', status: 'completed' },
      { content: 'write the migration', status: 'in_progress' },
      { content: 'run the tests', status: 'pending' },
    ];
    expect(readTodos(list)).toEqual(list);
    expect(readTodos([])).toEqual([]);
  });

  const bad: [string, unknown, string][] = [
    ['not an array', { content: 'a' }, 'todos must be an array of {content, status} items, not an object'],
    ['an item that is not an object', ['a'], 'todos[0] must be an object {content, status}, not "a"'],
    [
      'an empty content',
      [{ content: '  ', status: 'pending' }],
      'todos[0].content must be a non-empty string, not "  "',
    ],
    [
      'a missing status',
      [{ content: 'a' }],
      'todos[0].status must be one of pending, in_progress, completed, not undefined',
    ],
    [
      'an unknown status',
      [
        { content: 'a', status: 'pending' },
        { content: 'b', status: 'done' },
      ],
      'todos[1].status must be one of pending, in_progress, completed, not "done"',
    ],
    [
      'an unknown key',
      [{ content: 'a', status: 'pending', priority: 1 }],
      'todos[0] has an unknown key "priority"; an item has only content and status',
    ],
    [
      'two in_progress',
      [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'pending' },
        { content: 'c', status: 'in_progress' },
      ],
      '2 todos are in_progress (todos[0], todos[2]); at most one may be in_progress at a time, so mark the others pending or completed',
    ],
    [
      'too many items',
      Array.from({ length: MAX_TODOS + 1 }, () => ({ content: 'x', status: 'pending' })),
      `todos has ${MAX_TODOS + 1} items; at most ${MAX_TODOS} are allowed, so merge small steps`,
    ],
    [
      'a content too long',
      [{ content: 'x'.repeat(1001), status: 'pending' }],
      'todos[0].content has 1001 characters; at most 1000 are allowed',
    ],
  ];
  for (const [what, value, message] of bad) {
    it(`refuses ${what}, saying what to fix`, () => {
      expect(() => readTodos(value)).toThrow(TypeError);
      expect(() => readTodos(value)).toThrow(message);
    });
  }

  it('TodoList replaces the whole list, keeps the old one on a bad list, and hands out a frozen copy', () => {
    const list = new TodoList();
    expect(list.items).toEqual([]);
    list.replace([{ content: 'a', status: 'pending' }]);
    expect(() => list.replace([{ content: 'b', status: 'nope' }])).toThrow(TypeError);
    expect(list.items).toEqual([{ content: 'a', status: 'pending' }]);
    expect(Object.isFrozen(list.items)).toBe(true);
    list.replace([{ content: 'b', status: 'completed' }]);
    expect(list.items).toEqual([{ content: 'b', status: 'completed' }]);
  });
});

/** A value nested `levels` deep: [[[...]]], built with a loop. */
function nested(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

describe('a saved todo list', () => {
  const items = [
    { content: 'read the code', status: 'completed' },
    { content: 'write the migration', status: 'in_progress' },
    { content: 'run the tests', status: 'pending' },
  ] as const;

  it('serializes to its items and comes back from them, or from their JSON text', () => {
    const list = new TodoList();
    expect(JSON.stringify(list)).toBe('[]');
    list.replace(items);
    expect(list.toJSON()).toEqual(items);
    const text = JSON.stringify(list);
    expect(JSON.parse(text)).toEqual(items);
    expect(TodoList.from(text).items).toEqual(items);
    expect(TodoList.from(list.toJSON()).items).toEqual(items);
    // The saved items are copies: changing them does not change the list.
    const saved = list.toJSON();
    (saved[0] as { content: string }).content = 'changed';
    expect(list.items[0]!.content).toBe('read the code');
    expect(Object.isFrozen(list.items[0])).toBe(true);
  });

  const hostile: [string, unknown, string | RegExp][] = [
    [
      'a second in_progress',
      [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'in_progress' },
      ],
      'TodoList.from: 2 todos are in_progress (todos[0], todos[1]); at most one may be in_progress',
    ],
    ['an object', { content: 'a', status: 'pending' }, 'TodoList.from: todos must be an array'],
    [
      'too many items',
      Array.from({ length: MAX_TODOS + 1 }, () => ({ content: 'x', status: 'pending' })),
      `TodoList.from: todos has ${MAX_TODOS + 1} items`,
    ],
    ['text that is not JSON', '[{"content": "a",', /^TodoList\.from: the text is not JSON \(/],
    [
      'text too long to be a list',
      `[${' '.repeat(700_000)}]`,
      /^TodoList\.from: the text has 700002 characters/,
    ],
    [
      'a value nested 100,000 deep',
      nested(100_000),
      /^TodoList\.from: todos(\[0\])+ nests deeper than 64 levels/,
    ],
    [
      'the same, as text',
      '['.repeat(100_000) + ']'.repeat(100_000),
      /^TodoList\.from: todos(\[0\])+ nests deeper/,
    ],
    [
      'a huge item',
      [{ content: 'x'.repeat(1_000_000), status: 'pending' }],
      /^TodoList\.from: todos\[0\]\.content is larger than 606400 characters of JSON; expected an array/,
    ],
    [
      'a huge unknown key, named short',
      [{ content: 'a', status: 'pending', ['k'.repeat(100_000)]: 1 }],
      /^TodoList\.from: todos\[0\] has an unknown key "k{60}…"; an item has only content and status$/,
    ],
    ['a BigInt', [{ content: 'a', status: 10n }], /^TodoList\.from: todos\[0\]\.status /],
  ];
  for (const [what, value, message] of hostile) {
    it(`refuses ${what} with a TypeError saying where`, () => {
      expect(() => TodoList.from(value)).toThrow(TypeError);
      expect(() => TodoList.from(value)).toThrow(message);
    });
  }
});
