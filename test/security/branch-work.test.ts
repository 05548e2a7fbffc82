/**
 * The branch guards' work grows with the plan, not with its square: a writer of N `||`
 * alternatives each read by its own call, and one call of N references after a branching call.
 * No time is asserted: the work is counted (path comparisons, steps of array searches) at N and
 * at 4N, and must grow about 4 times, not 16.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { arraySteps } from './array-steps.js';

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
