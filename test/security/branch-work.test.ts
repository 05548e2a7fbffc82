/**
 * The branch guards' work grows with the plan, not with its square: a writer of N `||`
 * alternatives each read by its own call, one call of N references after a branching call, and
 * N calls each on its own alternative writing one path (the join pattern).
 * No time is asserted: the work is counted (path comparisons, steps of array searches) at N and
 * at 4N, and must grow about 4 times, not 16.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { arraySteps, iterationSteps } from './array-steps.js';

const counted = vi.hoisted(() => ({ overlaps: 0 }));

vi.mock('../../src/language/paths.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/language/paths.js')>();
  return {
    ...original,
    pathsOverlap: (...args: Parameters<typeof original.pathsOverlap>) => {
      counted.overlaps++;
      return original.pathsOverlap(...args);
    },
    segmentsOverlap: (...args: Parameters<typeof original.segmentsOverlap>) => {
      counted.overlaps++;
      return original.segmentsOverlap(...args);
    },
  };
});

const { compile } = await import('../../src/index.js');

const tools = [{ name: 't', execute: () => 1 }];

function alternativesEachRead(n: number): unknown[] {
  const alternatives = Array.from({ length: n }, (_, i) => `†state.a${i}`);
  const plan: unknown[] = [{ _tool: 't', _outputPath: alternatives.join(' || ') }];
  for (const alternative of alternatives) plan.push({ _tool: 't', x: alternative });
  return plan;
}

function manyReferencesAfterABranch(n: number): { plan: unknown[]; input: Record<string, number> } {
  const big: Record<string, string> = { _tool: 't' };
  const input: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    big[`x${i}`] = `†input.v${i}`;
    input[`v${i}`] = i;
  }
  return { plan: [{ _tool: 't', _outputPath: '†state.a || †state.b' }, big], input };
}

beforeEach(() => {
  counted.overlaps = 0;
});
afterEach(() => {
  counted.overlaps = 0;
});

describe('`||` with N alternatives, each read by its own call', () => {
  function overlapsAt(n: number): number {
    counted.overlaps = 0;
    const result = compile(alternativesEachRead(n), { tools });
    expect(result.ok).toBe(true);
    return counted.overlaps;
  }

  it('compares paths in proportion to N (4N alternatives: about 4 times the comparisons, not 16)', () => {
    const small = overlapsAt(500);
    const large = overlapsAt(2_000);
    // 76db711 compared every read with every alternative: 250k, then 4M comparisons.
    expect(large).toBeLessThan(5 * small + 1_000);
    expect(large).toBeLessThan(100_000);
  });

  it('still guards each reader by its alternative: two readers of different alternatives may write one path', () => {
    const alternatives = Array.from({ length: 40 }, (_, i) => `†state.a${i}`);
    const plan = [
      { _tool: 't', _outputPath: alternatives.join(' || ') },
      { _tool: 't', x: '†state.a3', _outputPath: '†state.out' },
      { _tool: 't', x: '†state.a30', _outputPath: '†state.out' },
      { _tool: 't', x: '†state.out' },
    ];
    const result = compile(plan, { tools });
    expect(result.ok).toBe(true);
    // Exclusive writers: no multiple-writers warning, and the reader waits for both.
    expect(result.diagnostics).toEqual([]);
    const calls = result.plan!.calls;
    expect(calls[2]!.dependencies.map((d) => d.from)).not.toContain(1);
    expect(calls[3]!.dependencies.map((d) => d.from).sort()).toEqual([1, 2]);
  });
});

describe('one call with N references after a branching call', () => {
  function stepsAt(n: number): number {
    const { plan, input } = manyReferencesAfterABranch(n);
    return arraySteps('find', () => {
      const result = compile(plan, { tools, input });
      expect(result.ok).toBe(true);
    });
  }

  it('finds each reference’s read in constant time (4N references: about 4 times the steps, not 16)', () => {
    const small = stepsAt(1_000);
    const large = stepsAt(4_000);
    // 76db711 searched the call's reads from the start for each reference: N²/2 steps.
    expect(large).toBeLessThan(5 * small + 1_000);
    expect(large).toBeLessThan(100_000);
  });
});

/** A branch of N alternatives; call k+1 reads `†state.ak` and writes `at`; a last call reads `at`. */
function joinOf(n: number, at = '†state.joined', before: unknown[] = []): unknown[] {
  const alternatives = Array.from({ length: n }, (_, i) => `†state.a${i}`);
  const plan: unknown[] = [{ _tool: 't', _outputPath: alternatives.join(' || ') }, ...before];
  for (const alternative of alternatives) plan.push({ _tool: 't', x: alternative, _outputPath: at });
  plan.push({ _tool: 't', x: at });
  return plan;
}

describe('N calls on N alternatives of one branch, all writing one path (the join pattern)', () => {
  function stepsAt(plan: unknown[], warning: string | null): number {
    return iterationSteps(() => {
      const result = compile(plan, { tools });
      expect(result.ok).toBe(true);
      // (A compile keeps the first 1,000 diagnostics and counts the rest.)
      expect(result.diagnostics.slice(0, 1_000).every((d) => d.code === warning)).toBe(true);
    });
  }

  it('checks each writer against the others in constant time (4N writers: about 4 times the steps, not 16)', () => {
    const small = stepsAt(joinOf(500), null);
    const large = stepsAt(joinOf(2_000), null);
    // 76db711 compared each writer with every earlier one (and copied their list): 400k, then 6M steps.
    expect(large).toBeLessThan(5 * small + 1_000);
    expect(large).toBeLessThan(300_000);
  });

  it('keeps what the writers wait for once each (a read above the path: about 4 times the steps, not 16)', () => {
    // Each writer of †state.o.j overwrites part of call 1's †state.o (W_MULTIPLE_WRITERS) and
    // waits for call 2, which read it: 76db711 appended both to the path's list again per writer.
    const before = [
      { _tool: 't', _outputPath: '†state.o' },
      { _tool: 't', x: '†state.o' },
    ];
    const small = stepsAt(joinOf(500, '†state.o.j', before), 'W_MULTIPLE_WRITERS');
    const large = stepsAt(joinOf(2_000, '†state.o.j', before), 'W_MULTIPLE_WRITERS');
    expect(large).toBeLessThan(5 * small + 1_000);
    expect(large).toBeLessThan(600_000);
  });

  it('compares a writer one by one with at most 1,000 writers of a path: past that, it is ordered after them', () => {
    // Call 1 branches again on alternative a0: its two sides and the other alternatives are all
    // exclusive, but not as distinct alternatives of one branch, so each writer is compared with
    // the writers before it, and the 1,002nd is compared with none: it is ordered after them all.
    // They still never both run, so no W_MULTIPLE_WRITERS is claimed.
    const n = 1_003;
    const alternatives = Array.from({ length: n }, (_, i) => `†state.a${i}`);
    const plan: unknown[] = [
      { _tool: 't', _outputPath: alternatives.join(' || ') },
      { _tool: 't', x: '†state.a0', _outputPath: '†state.p || †state.q' },
      { _tool: 't', x: '†state.p', _outputPath: '†state.j' },
      { _tool: 't', x: '†state.q', _outputPath: '†state.j' },
    ];
    for (let k = 1; k < n; k++) plan.push({ _tool: 't', x: `†state.a${k}`, _outputPath: '†state.j' });
    const result = compile(plan, { tools });
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([]);
    // Writers are calls 2 on; the 1,002nd writer, call 1,003, waits for its read's writer and all 1,001.
    const calls = result.plan!.calls;
    expect(calls[1_002]!.dependencies.map((d) => d.from)).toEqual([0]);
    expect(calls[1_003]!.dependencies.map((d) => d.from)).toEqual([
      0,
      ...Array.from({ length: 1_001 }, (_, k) => k + 2),
    ]);
    // The next writer is exclusive with call 1,003 again: not ordered after it, but after what it waited for.
    expect(calls[1_004]!.dependencies.map((d) => d.from)).toEqual(
      calls[1_003]!.dependencies.map((d) => d.from),
    );
  });
});
