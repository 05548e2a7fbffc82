/** JSONPath selections at run time: what a call gets, and a selection past its budget failing its call. */
import { describe, expect, it } from 'vitest';
import { compile, run, type Tool } from '../../src/index.js';
import { MAX_SELECTION_NODES } from '../../src/language/limits.js';

type Args = Record<string, unknown>;

function recorder(name: string) {
  const calls: Args[] = [];
  const tool: Tool = {
    name,
    execute: async (args: Args) => {
      calls.push(args);
      return 'ok';
    },
  };
  return Object.assign(tool, { calls });
}

const flights = [
  { id: 'a', price: 250, city: 'Paris' },
  { id: 'b', price: 420, city: 'Rome' },
  { id: 'c', price: 120, city: 'Paris' },
];

describe('selections at run time', () => {
  it('a call gets what each selection selects from the value its writer wrote', async () => {
    const find: Tool = {
      name: 'find',
      execute: async () => ({ flights, doc: { title: 'T', parts: [{ title: 'P' }] } }),
    };
    const book = recorder('book');
    const result = await run(
      [
        { _id: 'find', _tool: 'find', _outputPath: '†state.found' },
        {
          _id: 'book',
          _tool: 'book',
          cheap: '†state.found.flights[?(@.price < 300)].id',
          paris: "†state.found.flights[?(@.city == 'Paris' && @.price > 200)]",
          firstTwo: '†state.found.flights[0:2].id',
          last: '†state.found.flights[-1].id',
          some: '†state.found.flights[0,2].id',
          titles: '†state.found.doc..title',
        },
      ],
      { tools: [find, book] },
    );
    expect(result.calls.map((c) => c.status)).toEqual(['succeeded', 'succeeded']);
    expect(book.calls[0]).toEqual({
      cheap: ['a', 'c'],
      paris: [flights[0]],
      firstTwo: ['a', 'b'],
      last: 'c',
      some: ['a', 'c'],
      titles: ['T', 'P'],
    });
  });

  it('[-1] of an array too short is missing: the call is skipped, or || takes its next alternative', async () => {
    const empty: Tool = { name: 'empty', execute: async () => [] };
    const book = recorder('book');
    const result = await run(
      [
        { _id: 'empty', _tool: 'empty', _outputPath: '†state.list' },
        { _id: 'skipped', _tool: 'book', last: '†state.list[-1]' },
        { _id: 'fallback', _tool: 'book', last: '†state.list[-1] || †state.list' },
      ],
      { tools: [empty, book] },
    );
    expect(result.calls.map((c) => [c.id, c.status])).toEqual([
      ['empty', 'succeeded'],
      ['skipped', 'skipped'],
      ['fallback', 'succeeded'],
    ]);
    expect(book.calls).toEqual([{ last: [] }]);
  });

  it('a descent over more values than the budget fails its call with LIMIT, and the run goes on', async () => {
    const big: Tool = {
      name: 'big',
      execute: async () => Array.from({ length: MAX_SELECTION_NODES }, (_, i) => ({ i })),
    };
    const book = recorder('book');
    const other = recorder('other');
    const result = await run(
      [
        { _id: 'big', _tool: 'big', _outputPath: '†state.rows' },
        { _id: 'book', _tool: 'book', all: '†state.rows..i' },
        { _id: 'other', _tool: 'other', first: '†state.rows[0:1]' },
      ],
      { tools: [big, book, other] },
    );
    const byId = Object.fromEntries(result.calls.map((c) => [c.id, c]));
    expect(byId['book']!.status).toBe('failed');
    expect(byId['book']!.error?.code).toBe('LIMIT');
    expect(byId['book']!.error?.message).toMatch(/would visit more than/);
    expect(book.calls).toEqual([]);
    expect(byId['other']!.status).toBe('succeeded');
    expect(other.calls[0]).toEqual({ first: [{ i: 0 }] });
  });

  it('a filter that tries to reach code is refused before anything runs', async () => {
    const book = recorder('book');
    for (const filter of [
      '[?(@.constructor)]',
      '[?(@.__proto__)]',
      '[?(process.exit(1))]',
      "[?(@.id.constructor.constructor('return process')())]",
      '[?(@.id.toString())]',
      '[?(this.x)]',
      '[?(x = 1)]',
      '[?(@.list.push(1))]',
    ]) {
      const compiled = compile([{ _tool: 'book', x: `†input.flights${filter}` }], {
        tools: [book],
        input: { flights },
      });
      expect(
        compiled.diagnostics.map((d) => d.code),
        filter,
      ).toEqual(['E_REF_SELECTION']);
      await expect(
        run([{ _tool: 'book', x: `†input.flights${filter}` }], { tools: [book], input: { flights } }),
      ).rejects.toThrow(/E_REF_SELECTION|selection|filter/);
    }
    expect(book.calls).toEqual([]);
  });

  it('a filter compares values of the data with the data own keys only: a key named like a method is just data', async () => {
    const book = recorder('book');
    const data: Record<string, unknown>[] = [{ toString: 'x', valueOf: 1 }, { toString: 'y' }];
    await run([{ _tool: 'book', x: "†input.list[?(@.toString == 'x')]" }], {
      tools: [book],
      input: { list: data },
    });
    expect(book.calls[0]).toEqual({ x: [data[0]] });
  });

  it('_forEach may loop over a selection, and †item paths may select inside the element', async () => {
    const book = recorder('book');
    const plan = [{ _tool: 'book', x: '†item[?(@ > 1)]', y: '†item[-1]', _forEach: '†input.lists[0:2]' }];
    const input = { lists: [[1, 2, 3], [4], [5, 0]] };
    expect(compile(plan, { tools: [book], input }).diagnostics).toEqual([]);
    const result = await run(plan, { tools: [book], input });
    expect(result.status).toBe('succeeded');
    expect(book.calls).toEqual([
      { x: [2, 3], y: 3 },
      { x: [4], y: 4 },
    ]);
  });
});
