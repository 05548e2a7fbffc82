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
