/**
 * Property: random acyclic plans compile, and the order and levels respect every dependency,
 * including every ordering SPEC 4 demands (checked against an oracle, not the compiler's edges).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CompiledPlan, compile } from '../../src/index.js';
import { dependencyIndices, successorLists } from '../../src/compile/compiled-plan.js';
import { writersOf } from '../../src/simulate/value-sources.js';
import { buildPlan, INITIAL_STATE, planChoices } from './plans.js';

function checkPlan(plan: CompiledPlan): void {
  const n = plan.calls.length;
  const position = new Int32Array(n).fill(-1);
  plan.order.forEach((c, k) => {
    position[c] = k;
  });
  // The order is a permutation of the calls.
  expect(plan.order).toHaveLength(n);
  expect(position.every((p) => p >= 0)).toBe(true);
  // Ties are broken by array order: each step takes the earliest call whose dependencies are
  // all placed (plans without forward references take a path of their own to this).
  const placed = new Uint8Array(n);
  for (const v of plan.order) {
    const earliest = plan.calls.findIndex(
      (call, j) => placed[j] === 0 && call.dependencies.every((d) => placed[d.from] === 1),
    );
    expect(v).toBe(earliest);
    placed[v] = 1;
  }
  let maxLevel = -1;
  for (const call of plan.calls) {
    for (const d of call.dependencies) {
      expect(d.from).not.toBe(call.index);
      expect(position[d.from]!).toBeLessThan(position[call.index]!);
      expect(plan.levels[call.index]!).toBeGreaterThan(plan.levels[d.from]!);
    }
    const expected = call.dependencies.reduce((l, d) => Math.max(l, plan.levels[d.from]! + 1), 0);
    expect(plan.levels[call.index]).toBe(expected);
    maxLevel = Math.max(maxLevel, expected);
  }
  // The executor's successor lists (kept from the order) hold the same edges as the calls'
  // dependency lists, which are made from the data flow's columns.
  const lists = successorLists(plan)!;
  const fromLists: [number, number][] = [];
  for (let from = 0; from < n; from++)
    for (let k = lists.offsets[from]!; k < lists.offsets[from + 1]!; k++)
      fromLists.push([from, lists.targets[k]!]);
  const fromCalls = plan.calls.flatMap((call) =>
    call.dependencies.map((d) => [d.from, call.index] as [number, number]),
  );
  const byEdge = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];
  expect(fromLists).toEqual(fromCalls.sort(byEdge));
  // The dry run's dependency indices (from the same lists) and its writers of each read (from
  // the columns) say what the calls' own lists say.
  const indices = dependencyIndices(plan);
  for (const call of plan.calls) {
    const from = [...indices.from.subarray(indices.offsets[call.index]!, indices.offsets[call.index + 1]!)];
    expect(from.sort((a, b) => a - b)).toEqual(call.dependencies.map((d) => d.from).sort((a, b) => a - b));
  }
  // The critical path is a chain of dependencies no longer than the deepest level: as long,
  // unless a call on the deepest chain needs two alternatives of one branch and never runs
  // (it is left out, and the chain goes on through it).
  expect(plan.criticalPath.length).toBeLessThanOrEqual(maxLevel + 1);
  for (let k = 1; k < plan.criticalPath.length; k++) {
    expect(upstream(plan, plan.criticalPath[k]!).has(plan.criticalPath[k - 1]!)).toBe(true);
  }
}

/** Every call that `call` waits for, directly or not. */
function upstream(plan: CompiledPlan, call: number): Set<number> {
  const seen = new Set<number>();
  const stack = [call];
  while (stack.length > 0) {
    for (const d of plan.calls[stack.pop()!]!.dependencies) {
      if (!seen.has(d.from)) {
        seen.add(d.from);
        stack.push(d.from);
      }
    }
  }
  return seen;
}

describe('the oracle', () => {
  it('orders read after write, write after write and write after read, and forward references', () => {
    const style = [0, 0, 0, 0, 0];
    const read = { pick: 0, shape: 'same' as const, extension: 'x', combine: null, pick2: 0, nest: 0, style };
    const built = buildPlan([
      { write: { op: null, paths: [['a', 'x']] }, reads: [], forward: false },
      { write: null, reads: [read], forward: true },
      { write: { op: null, paths: [['a']] }, reads: [], forward: false },
    ]);
    expect(built.calls[1]).toMatchObject({ arg0: '†state.a.x', later: '†state.fwd1' });
    expect(built.calls[3]).toMatchObject({ _outputPath: '†state.fwd1' });
    expect(built.constraints).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
      [3, 1],
    ]);
  });
});

describe('random acyclic plans', () => {
  it('compile with ok=true, and order and levels respect every dependency and every SPEC 4 ordering', () => {
    fc.assert(
      fc.property(planChoices(), (choices) => {
        const built = buildPlan(choices);
        const text = JSON.stringify(built.calls, null, 1);
        const result = compile(text, { state: INITIAL_STATE });
        const errors = result.diagnostics.filter((d) => d.severity === 'error');
        expect(errors).toEqual([]);
        expect(result.ok).toBe(true);
        const plan = result.plan!;
        // The dry run's writers of each read, asked first (from the columns, before any call's
        // reads are made), are what the reads say once made.
        const asked = plan.calls.map((call) =>
          call.refs.flatMap((a) => a.expression.refs.map((ref) => [...writersOf(call, ref)])),
        );
        checkPlan(plan);
        plan.calls.forEach((call, i) => {
          const told = call.refs.flatMap((a) =>
            a.expression.refs.map((ref) => [...(call.reads.find((r) => r.ref === ref)?.writers ?? [])]),
          );
          expect(asked[i]).toEqual(told);
        });
        // Every read is there, bound as SPEC 4's order of preference says.
        const label = (kind: string, path: readonly unknown[]) =>
          `${kind} ${JSON.stringify(path.map(String))}`;
        plan.calls.forEach((call, i) => {
          const got = call.reads.map((r) => label(r.kind, r.path.segments)).sort();
          expect(got).toEqual(built.reads[i]!.map((r) => label(r.kind, r.path)).sort());
        });
        // Every ordering SPEC 4 implies holds in the order, even where the graph leaves an
        // implied edge out.
        const position = new Map(plan.order.map((c, k) => [c, k]));
        for (const [first, then] of built.constraints) {
          expect(
            position.get(first)!,
            `${plan.calls[first]!.id} before ${plan.calls[then]!.id}`,
          ).toBeLessThan(position.get(then)!);
        }
      }),
      { numRuns: Number(process.env.ACYCLIC_RUNS ?? 300) },
    );
  });

  it('compile the same way from text and from the value', () => {
    fc.assert(
      fc.property(planChoices(12), (choices) => {
        const { calls } = buildPlan(choices);
        const fromText = compile(JSON.stringify(calls), { state: INITIAL_STATE });
        const fromValue = compile(calls, { state: INITIAL_STATE });
        expect(fromValue.ok).toBe(fromText.ok);
        expect(fromValue.plan!.order).toEqual(fromText.plan!.order);
        expect(fromValue.plan!.levels).toEqual(fromText.plan!.levels);
        expect(fromValue.diagnostics.map((d) => [d.code, d.pointer])).toEqual(
          fromText.diagnostics.map((d) => [d.code, d.pointer]),
        );
      }),
      { numRuns: 100 },
    );
  });
});
