/**
 * `uniqueItems` costs time in proportion to the array, not to its square: ajv compared every
 * pair of objects with a deep equality, so a tool result of 50k distinct small objects against
 * an `outputSchema` with `uniqueItems: true` took minutes (20k: 34 s). Work is counted, never
 * timed: the objects whose keys were listed (a deep equality lists both objects' keys per pair).
 */
import { describe, expect, it } from 'vitest';
import { compile, run, type Tool, ToolRegistry } from '../../src/index.js';
import { canonicalText, findDuplicateItems } from '../../src/tools/unique-items.js';

/** How many times Object.keys ran while `work` did. */
async function keyListings(work: () => Promise<void>): Promise<number> {
  const original = Object.keys;
  let listings = 0;
  Object.keys = function (this: unknown, o: object): string[] {
    listings++;
    return original(o);
  } as typeof Object.keys;
  try {
    await work();
  } finally {
    Object.keys = original;
  }
  return listings;
}

const UNIQUE_OBJECTS = { type: 'array', uniqueItems: true, items: { type: 'object' } };

function listing(items: unknown, outputSchema: Tool['outputSchema'] = UNIQUE_OBJECTS): Tool {
  return { name: 'list', outputSchema, execute: () => items };
}

async function runList(tool: Tool) {
  return run([{ _tool: 'list', _outputPath: '†state.out' }], { tools: [tool] });
}

describe("a tool result checked against an outputSchema's uniqueItems", () => {
  async function listingsAt(n: number): Promise<number> {
    const items = Array.from({ length: n }, (_, i) => ({ id: i, name: `item ${i}` }));
    const tool = listing(items);
    return keyListings(async () => {
      const result = await runList(tool);
      expect(result.status).toBe('succeeded');
    });
  }

  it('is checked in linear work (4N distinct objects: about 4 times the work, not 16)', async () => {
    const small = await listingsAt(300);
    const large = await listingsAt(1_200);
    // 76db711 (ajv's pairwise check): N²/2 pairs, two key listings each.
    expect(large).toBeLessThan(5 * small + 1_000);
    expect(large).toBeLessThan(100_000);
  });

  it.each([
    ['objects with keys in another order', [{ a: 1, b: [2] }, { c: 1 }, { b: [2], a: 1 }], 0, 2],
    ['arrays', [[1, { x: 'y' }], [1], [1, { x: 'y' }]], 0, 2],
    ['numbers written 1 and 1.0 (one JSON number)', JSON.parse('[1, "1", 1.0]') as unknown[], 0, 2],
    [
      'the last of several pairs, with the last item it repeats',
      [{ a: 1 }, { b: 1 }, { a: 1 }, { b: 1 }],
      1,
      3,
    ],
  ])('still refuses duplicates: %s, naming both indexes', async (_, items, j, i) => {
    const result = await runList(listing(items, { type: 'array', uniqueItems: true }));
    expect(result.status).toBe('failed');
    expect(result.calls[0]!.error).toEqual({
      code: 'INVALID_OUTPUT',
      message: `output rejected by the tool's outputSchema: the output must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    });
  });

  it('tells apart what only looks alike', async () => {
    const items = [
      1,
      '1',
      [1],
      { 1: 1 },
      { a: '1' },
      { a: 1 },
      ['a', 1],
      { a: [1] },
      null,
      'null',
      0,
      false,
      '',
    ];
    const result = await runList(listing(items, { type: 'array', uniqueItems: true }));
    expect(result.status).toBe('succeeded');
  });

  it('is checked deep in the result, and in 2020-12 schemas', async () => {
    const nested = await runList(
      listing(
        { deep: { list: [{ x: [1] }, { x: [1] }] } },
        {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            deep: { type: 'object', properties: { list: { type: 'array', uniqueItems: true } } },
          },
        },
      ),
    );
    expect(nested.calls[0]!.error?.message).toBe(
      "output rejected by the tool's outputSchema: output 'deep.list' must NOT have duplicate items (items ## 0 and 1 are identical)",
    );
  });
});

describe("literal arguments checked against an inputSchema's uniqueItems", () => {
  const tools = () =>
    new ToolRegistry([
      {
        name: 'tag',
        inputSchema: { type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } },
        execute: () => null,
      },
    ]);

  it('refuses equal objects at compile time, naming both indexes', () => {
    const result = compile(
      [
        {
          _tool: 'tag',
          tags: [
            { a: 1, b: 2 },
            { b: 2, a: 1 },
          ],
        },
      ],
      { tools: tools() },
    );
    expect(result.diagnostics.map((d) => [d.code, d.pointer, d.message])).toEqual([
      ['E_ARGS', '/0/tags', "argument 'tags' must NOT have duplicate items (items ## 0 and 1 are identical)"],
    ]);
  });

  it('is checked in linear work', async () => {
    const at = (n: number) =>
      keyListings(async () => {
        const tags = Array.from({ length: n }, (_, i) => ({ id: i }));
        expect(compile([{ _tool: 'tag', tags }], { tools: tools() }).diagnostics).toEqual([]);
      });
    const small = await at(300);
    const large = await at(1_200);
    expect(large).toBeLessThan(5 * small + 1_000);
  });
});

describe("values written to the state, checked against a state schema's uniqueItems", () => {
  it('refuses duplicates naming both indexes, in linear work', async () => {
    const stateSchema = { type: 'object', properties: { out: { type: 'array', uniqueItems: true } } };
    const at = (items: unknown[]) =>
      run(
        [
          { type: 'state', schema: stateSchema },
          { type: 'plan', plan: [{ _tool: 'list', _outputPath: '†state.out' }] },
        ],
        { tools: [{ name: 'list', execute: () => items }] },
      );
    const refused = await at([{ a: 1 }, { a: 1 }]);
    expect(refused.calls[0]!.error?.message).toMatch(
      /must NOT have duplicate items \(items ## 0 and 1 are identical\)/,
    );
    const work = (n: number) =>
      keyListings(async () => {
        const result = await at(Array.from({ length: n }, (_, i) => ({ id: i })));
        expect(result.status).toBe('succeeded');
      });
    const small = await work(300);
    const large = await work(1_200);
    expect(large).toBeLessThan(5 * small + 1_000);
  });
});

describe('the canonical text items are compared by', () => {
  it('walks without recursion: an item nested 100k deep is written, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let d = 0; d < 100_000; d++) deep = [deep];
    expect(findDuplicateItems([deep, deep])).toEqual({ i: 1, j: 0 });
    expect(canonicalText({ b: [1, -0], a: 'x' })).toBe('{"a":"x","b":[1,0]}');
  });
});
