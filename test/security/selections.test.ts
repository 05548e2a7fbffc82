/**
 * Hostile JSONPath selections cannot hang planmode or reach code: the selection text is read in
 * one pass and bounded, a filter admits only comparisons (jsonpath-plus's safe evaluator would
 * still call what it reaches), and the values a read's selections visit at run time are counted
 * before jsonpath-plus walks them. No time is asserted: a hang is caught by the test's timeout.
 */
import { describe, expect, it } from 'vitest';
import { compile, run, type Tool } from '../../src/index.js';
import { JSONPath } from 'jsonpath-plus';
import { MAX_SELECTION_NODES } from '../../src/language/limits.js';
import { MAX_CACHED_SELECTIONS } from '../../src/language/run-selection.js';

const TIMEOUT = { timeout: 60_000 };

const sink: Tool = { name: 'sink', execute: async () => 'ok' };

describe('hostile selections', () => {
  it(
    'a plan of huge or deeply nested selection texts is refused at its character, in one pass each',
    TIMEOUT,
    () => {
      const texts = [
        `†state.a[?(${'('.repeat(100_000)}@.x${')'.repeat(100_000)})]`,
        `†state.a[?(@.x == 1${' && @.x == 1'.repeat(100_000)})]`,
        `†state.a[0${',1'.repeat(100_000)}]`,
        `†state.a[?(${'!'.repeat(100_000)}@.x)]`,
        `†state.a[?(@.x == '${'a'.repeat(100_000)}')]`,
        `†state.a${'[0:1]'.repeat(10_000)}${'..b'.repeat(10_000)}[?(@.x`,
      ];
      const result = compile(texts.map((x) => ({ _tool: 'sink', x })));
      expect(result.diagnostics.map((d) => d.code)).toEqual(texts.map(() => 'E_REF_SELECTION'));
    },
  );

  it('filters cannot call, name globals, assign or reach prototypes', TIMEOUT, () => {
    for (const filter of [
      '[?(@.constructor)]',
      "[?(@['constructor'])]",
      '[?(@.__proto__.polluted)]',
      '[?(@.a.__lookupGetter__)]',
      '[?(process)]',
      '[?(globalThis.process)]',
      '[?(Function)]',
      '[?(@.s.repeat(1e9))]',
      '[?(@.list.push(1))]',
      '[?(@.x = 1)]',
      '[?(@root.x)]',
      '[?(@path)]',
      '[?(`${1}`)]',
      '[?(@.x == "a")]',
      "[?(@.x == 'a\\u0041')]",
      "[?(@.x == ')]')]",
    ]) {
      const result = compile([{ _tool: 'sink', x: `†input.list${filter}` }], {
        input: { list: [{ x: 1 }] },
      });
      expect(
        result.diagnostics.map((d) => d.code),
        filter,
      ).toEqual(['E_REF_SELECTION']);
    }
  });

  it(
    'a descent over a huge state fails its call with LIMIT and leaves the rest of the run alone',
    TIMEOUT,
    async () => {
      const rows = Array.from({ length: 2 * MAX_SELECTION_NODES }, (_, i) => ({ i, tags: ['a'] }));
      const result = await run(
        [
          { _id: 'all', _tool: 'sink', x: '†state.rows..i' },
          { _id: 'filtered', _tool: 'sink', x: '†state.rows[?(@.i < 3)]' },
          { _id: 'sliced', _tool: 'sink', x: '†state.rows[0:100]..i' },
        ],
        { tools: [sink], state: { rows } },
      );
      const status = Object.fromEntries(result.calls.map((c) => [c.id, [c.status, c.error?.code ?? null]]));
      expect(status).toEqual({
        all: ['failed', 'LIMIT'],
        filtered: ['failed', 'LIMIT'],
        sliced: ['succeeded', null],
      });
    },
  );

  it(
    "plans with ever new filters do not grow jsonpath-plus's process-wide cache without end",
    TIMEOUT,
    async () => {
      // A long-lived process (plan serve) fed plans whose filters all differ: jsonpath-plus keeps
      // each parsed path and filter script in one object, so each plan used to add to it for good.
      // One plan with that many distinct filters stands for many plans: the cache is the process's.
      const filters = MAX_CACHED_SELECTIONS * 3;
      const tools: Tool[] = [{ name: 'sink', execute: (args: { x?: unknown }) => args.x ?? null }];
      const plan = Array.from({ length: filters }, (_, n) => ({
        _tool: 'sink',
        x: `†state.a[?(@.price < ${n})]`,
        _outputPath: `†state.out${n}`,
      }));
      const result = await run(plan, { tools, state: { a: [{ price: 1 }, { price: filters }] } });
      expect(result.state[`out${filters - 1}`]).toEqual([{ price: 1 }]);
      expect(result.state.out0).toEqual([]);
      // Each selection keeps its path and one filter script: twice the bound, plus the constants.
      expect(Object.keys(JSONPath.cache as object).length).toBeLessThanOrEqual(2 * MAX_CACHED_SELECTIONS + 8);
    },
  );
});
