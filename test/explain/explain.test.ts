/**
 * explainCall: why a call waits, what its failure or skip would block (checked against real
 * runs of the same plans), and which parts of the plan are independent; bounded lists, no
 * recursion on long chains, and an unknown id named with the nearest one.
 */
import { describe, expect, it } from 'vitest';
import {
  branch,
  compile,
  type CompiledPlan,
  explainCall,
  isUnknownCallError,
  PlanExplainer,
  run,
  type Tool,
  UnknownCallError,
} from '../../src/index.js';
import { componentsWithStack } from '../../src/explain/graph-walks.js';
import { planGraph } from '../../src/explain/plan-graph.js';
import { toGraphlib } from '../../src/report/graphlib.js';
import { alg } from '@dagrejs/graphlib';

type Call = Record<string, unknown>;

/** Tools whose calls throw when their id is in `failing`; `choose` returns branch 1 for its ids. */
function tools(failing: ReadonlySet<string>, second: ReadonlySet<string> = new Set()): Tool[] {
  const execute = (_args: unknown, ctx: { toolCallId: string }) => {
    if (failing.has(ctx.toolCallId)) throw new Error(`${ctx.toolCallId} fails`);
    return second.has(ctx.toolCallId) ? branch(1, 'second') : 'first';
  };
  return [
    { name: 't', execute },
    { name: 'effect', annotations: { readOnlyHint: false }, execute },
  ];
}

function planOf(calls: Call[], withTools = true): CompiledPlan {
  const result = compile(calls, withTools ? { tools: tools(new Set()) } : {});
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.plan!;
}

/** The weather walkthrough: two branches, a reader of each, and an || that takes either. */
const WEATHER: Call[] = [
  { _id: 'weather', _tool: 't', city: 'Paris', _outputPath: '†state.sunny || †state.notSunny' },
  { _id: 'park', _tool: 't', weather: '†state.sunny', _outputPath: '†state.park' },
  { _id: 'movie', _tool: 't', weather: '†state.notSunny', _outputPath: '†state.movie' },
  { _id: 'present', _tool: 't', idea: '†state.park || †state.movie', _outputPath: '†state.idea' },
  { _id: 'log', _tool: 't', note: 'done', _after: ['park'] },
  { _id: 'alone', _tool: 't', x: 1 },
];

describe('explainCall: why a call waits', () => {
  it('lists each dependency with the state path or _after that makes the edge', () => {
    const e = explainCall(planOf(WEATHER), 'present');
    expect(e.waitsFor).toEqual({
      dependencies: [
        { call: 'park', tool: 't', edges: [{ kind: 'data', path: '†state.park' }] },
        { call: 'movie', tool: 't', edges: [{ kind: 'data', path: '†state.movie' }] },
      ],
      total: 2,
      more: 0,
    });
    expect(explainCall(planOf(WEATHER), 'log').waitsFor.dependencies).toEqual([
      { call: 'park', tool: 't', edges: [{ kind: 'order', path: '', reason: 'after' }] },
    ]);
  });

  it('names the _after of a pair that also has a data edge (one edge, but the gate holds)', () => {
    const plan = planOf([
      { _id: 'a', _tool: 't', _outputPath: '†state.a' },
      { _id: 'b', _tool: 't', x: '†state.a', _after: ['a'] },
    ]);
    expect(plan.calls[1]!.dependencies).toHaveLength(1);
    expect(explainCall(plan, 'b').waitsFor.dependencies[0]!.edges).toEqual([
      { kind: 'data', path: '†state.a' },
      { kind: 'order', path: '', reason: 'after' },
    ]);
  });

  it('gives the longest chain to the call, with each link and its path', () => {
    const plan = planOf([
      { _id: 'a', _tool: 't', _outputPath: '†state.a' },
      { _id: 'b', _tool: 't', x: '†state.a', _outputPath: '†state.b' },
      { _id: 'c', _tool: 't', x: '†state.b', _outputPath: '†state.c' },
      { _id: 'side', _tool: 't', _outputPath: '†state.side' },
      { _id: 'd', _tool: 't', x: '†state.c', y: '†state.side' },
    ]);
    expect(explainCall(plan, 'd').longestChain).toEqual({
      calls: ['a', 'b', 'c', 'd'],
      links: [
        { from: 'a', to: 'b', edges: [{ kind: 'data', path: '†state.a' }] },
        { from: 'b', to: 'c', edges: [{ kind: 'data', path: '†state.b' }] },
        { from: 'c', to: 'd', edges: [{ kind: 'data', path: '†state.c' }] },
      ],
      length: 4,
      omitted: 0,
    });
    expect(explainCall(plan, 'a').longestChain).toEqual({ calls: ['a'], links: [], length: 1, omitted: 0 });
  });
});

describe('explainCall: what a failure or skip would block', () => {
  it('weather failing: both branches and the || after them end upstream_failed; _after holds log back', () => {
    const blocks = explainCall(planOf(WEATHER), 'weather').blocks;
    expect(blocks.descendants).toBe(4);
    expect(blocks.ifFailed.upstreamFailed.ids).toEqual(['park', 'movie', 'present', 'log']);
    expect(blocks.ifFailed.mayRun.total).toBe(0);
    // Skipped, it taints nothing: its readers are skipped, and _after does not hold log back.
    expect(blocks.ifSkipped.skipped.ids).toEqual(['park', 'movie', 'present']);
    expect(blocks.ifSkipped.mayRun.ids).toEqual(['log']);
    expect(blocks.ifHandled).toBeNull();
  });

  it("park failing: present may still run, its || takes movie's value", () => {
    const blocks = explainCall(planOf(WEATHER), 'park').blocks;
    expect(blocks.ifFailed.upstreamFailed.ids).toEqual(['log']);
    expect(blocks.ifFailed.mayRun.ids).toEqual(['present']);
    expect(blocks.ifSkipped.mayRun.ids).toEqual(['present', 'log']);
  });

  it('an && needs both: one missing makes it upstream_failed', () => {
    const plan = planOf([
      { _id: 'a', _tool: 't', _outputPath: '†state.a' },
      { _id: 'b', _tool: 't', _outputPath: '†state.b' },
      { _id: 'c', _tool: 't', x: '†state.a && †state.b' },
    ]);
    expect(explainCall(plan, 'a').blocks.ifFailed.upstreamFailed.ids).toEqual(['c']);
  });

  it("a handled failure: the error's reader runs, the result's reader is skipped", () => {
    const plan = planOf([
      { _id: 'pay', _tool: 't', _outputPath: '†state.receipt || †state.error', _onError: '†state.error' },
      { _id: 'confirm', _tool: 't', receipt: '†state.receipt' },
      { _id: 'tell', _tool: 't', error: '†state.error' },
    ]);
    const blocks = explainCall(plan, 'pay').blocks;
    expect(blocks.ifHandled).toMatchObject({
      errorPath: '†state.error',
      skipped: { ids: ['confirm'] },
      mayRun: { ids: ['tell'] },
      upstreamFailed: { total: 0 },
    });
    expect(blocks.ifFailed.upstreamFailed.ids).toEqual(['confirm', 'tell']);
  });

  it('an earlier write of the same path, or the initial state, still gives the reader a value', () => {
    const calls: Call[] = [
      { _id: 'first', _tool: 't', _outputPath: '†state.v' },
      { _id: 'second', _tool: 't', _outputPath: '†state.v' },
      { _id: 'reader', _tool: 't', x: '†state.v' },
    ];
    expect(explainCall(planOf(calls), 'second').blocks.ifFailed.mayRun.ids).toEqual(['reader']);
    const withState = compile(
      [
        { _id: 'w', _tool: 't', _outputPath: '†state.v' },
        { _id: 'r', _tool: 't', x: '†state.v' },
      ],
      { tools: tools(new Set()), state: { v: 0 } },
    ).plan!;
    expect(explainCall(withState, 'w').blocks.ifFailed.mayRun.ids).toEqual(['r']);
  });

  it('an effect holds every later call back when it fails; a read-only call holds nothing back', () => {
    const plan = planOf([
      { _id: 'read', _tool: 't', _outputPath: '†state.r' },
      { _id: 'write', _tool: 'effect', x: 1 },
      { _id: 'later', _tool: 't', y: 2 },
    ]);
    expect(explainCall(plan, 'write').blocks.ifFailed.upstreamFailed.ids).toEqual(['later']);
    expect(explainCall(plan, 'read').blocks.ifFailed.upstreamFailed.ids).toEqual(['write', 'later']);
  });

  /**
   * Each call fails in a real run; its descendants end upstream_failed and skipped as explainCall
   * says. (A mayRun call is not blocked by this failure alone: how it ends depends on the other
   * calls' branches, shown by the test after this one.) A call its branch skips never fails.
   */
  it.each<[string, Call[], string[]]>([
    ['weather, sunny', WEATHER, []],
    ['weather, not sunny', WEATHER, ['weather']],
    [
      'a diamond with an || and an &&',
      [
        { _id: 'a', _tool: 't', _outputPath: '†state.a || †state.b' },
        { _id: 'b', _tool: 't', x: '†state.a', _outputPath: '†state.c' },
        { _id: 'c', _tool: 't', x: '†state.b', _outputPath: '†state.d' },
        { _id: 'd', _tool: 't', x: '†state.c || †state.d', _outputPath: '†state.e' },
        { _id: 'e', _tool: 't', x: '†state.c && †state.e' },
        { _id: 'f', _tool: 'effect', x: '†state.e' },
        { _id: 'g', _tool: 't', y: 1, _after: ['f'] },
      ],
      [],
    ],
  ])('agrees with the executor on %s', async (_name, calls, second) => {
    const plan = planOf(calls);
    const explainer = new PlanExplainer(plan);
    let checked = 0;
    for (const failing of plan.calls.map((c) => c.id)) {
      const blocks = explainer.explain(failing).blocks;
      const result = await run(plan, { tools: tools(new Set([failing]), new Set(second)) });
      const status = Object.fromEntries(result.calls.map((c) => [c.id, c.status]));
      if (status[failing] !== 'failed') continue;
      checked++;
      for (const id of blocks.ifFailed.upstreamFailed.ids)
        expect([failing, id, status[id]]).toEqual([failing, id, 'upstream_failed']);
      for (const id of blocks.ifFailed.skipped.ids)
        expect([failing, id, status[id]]).toEqual([failing, id, 'skipped']);
    }
    expect(checked).toBeGreaterThan(2);
  });

  it("agrees with the executor when park fails and the weather is not sunny: present runs on movie's value", async () => {
    const plan = planOf(WEATHER);
    const result = await run(plan, { tools: tools(new Set(['park']), new Set(['weather'])) });
    const status = Object.fromEntries(result.calls.map((c) => [c.id, c.status]));
    expect(status).toMatchObject({ park: 'skipped', movie: 'succeeded', present: 'succeeded' });
  });
});

describe('explainCall: independent parts', () => {
  it('lists the weakly connected components, the call’s own first', () => {
    const e = explainCall(planOf(WEATHER), 'alone');
    expect(e.independent).toEqual({
      components: 2,
      own: { ids: ['alone'], total: 1, more: 0 },
      others: [{ ids: ['weather', 'park', 'movie', 'present', 'log'], total: 5, more: 0 }],
      more: 0,
    });
  });

  it("finds graphlib's components with its own stack too, the same ones", () => {
    const graph = planGraph(planOf(WEATHER));
    const sorted = (lists: string[][]) =>
      lists.map((l) => [...l].sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
    expect(sorted(componentsWithStack(graph))).toEqual(sorted(alg.components(graph as never)));
  });
});

describe('explainCall: big plans and bad ids', () => {
  it('walks a 12,000-call chain without recursion, and bounds every list', () => {
    const n = 12_000;
    const calls: Call[] = [{ _id: 'c0', _tool: 't', _outputPath: '†state.v0' }];
    for (let i = 1; i < n; i++)
      calls.push({ _id: `c${i}`, _tool: 't', x: `†state.v${i - 1}`, _outputPath: `†state.v${i}` });
    for (let i = 0; i < 30; i++) calls.push({ _id: `solo${i}`, _tool: 't' });
    const plan = compile(calls).plan!;
    // graphlib's own recursive walks do not survive this chain: the reason for ours.
    expect(() => alg.topsort(toGraphlib(plan) as never)).toThrow(RangeError);
    const explainer = new PlanExplainer(plan);
    const last = explainer.explain(`c${n - 1}`, { limit: 10 });
    expect(last.longestChain).toMatchObject({ length: n, omitted: n - 10 });
    expect(last.longestChain.calls).toHaveLength(10);
    expect(last.longestChain.calls.at(-1)).toBe(`c${n - 1}`);
    const first = explainer.explain('c0', { limit: 10 });
    expect(first.blocks.descendants).toBe(n - 1);
    expect(first.blocks.ifFailed.upstreamFailed).toMatchObject({ total: n - 1, more: n - 11 });
    expect(first.blocks.ifFailed.upstreamFailed.ids).toHaveLength(10);
    expect(first.independent).toMatchObject({ components: 31, more: 20 });
    expect(first.independent.others).toHaveLength(10);
    expect(first.independent.own).toMatchObject({ total: n, more: n - 10 });
  });

  it("answers for ids that are Object.prototype's own names (graphlib keeps nodes in plain objects)", () => {
    const plan = planOf([
      { _id: 'constructor', _tool: 't', _outputPath: '†state.a' },
      { _id: '__proto__', _tool: 't', x: '†state.a', _outputPath: '†state.b' },
      { _id: 'toString', _tool: 't', x: '†state.b' },
      { _id: 'hasOwnProperty', _tool: 't' },
    ]);
    const e = explainCall(plan, 'toString');
    expect(e.longestChain.calls).toEqual(['constructor', '__proto__', 'toString']);
    expect(explainCall(plan, 'constructor').blocks.ifFailed.upstreamFailed.ids).toEqual([
      '__proto__',
      'toString',
    ]);
    expect(e.independent).toMatchObject({ components: 2, others: [{ ids: ['hasOwnProperty'] }] });
  });

  it('throws UnknownCallError naming the nearest id', () => {
    const plan = planOf(WEATHER);
    let error: unknown;
    try {
      explainCall(plan, 'presnet');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownCallError);
    expect(isUnknownCallError(error)).toBe(true);
    expect(error).toMatchObject({ callId: 'presnet', suggestion: 'present' });
    expect((error as Error).message).toBe(
      "the plan has no call 'presnet'; did you mean 'present'? (a call's id is its _id, or its 0-based index when it has none)",
    );
    expect(() => explainCall(plan, 'zzzzzzzzzz')).toThrow(/^the plan has no call 'zzzzzzzzzz' \(/);
    expect(() => explainCall(plan, 'park', { limit: 0 })).toThrow(TypeError);
  });
});
