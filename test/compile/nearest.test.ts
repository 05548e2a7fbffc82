/**
 * The banded edit distance answers what the full table answers, within its bound: the exact
 * distance when it is at most `max`, `max + 1` otherwise; and a search out of budget suggests
 * nothing and spends what it was allowed.
 */
import { describe, expect, it } from 'vitest';
import { editDistance, MAX_SEARCH_CELLS, nearest } from '../../src/compile/nearest.js';

function fullDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => i + j),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      rows[i]![j] = Math.min(
        rows[i - 1]![j]! + 1,
        rows[i]![j - 1]! + 1,
        rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
  return rows[a.length]![b.length]!;
}

describe('editDistance', () => {
  it('matches the full table within the bound', () => {
    let s = 7;
    const random = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const word = () =>
      Array.from({ length: Math.floor(random() * 9) }, () => 'abc'[Math.floor(random() * 3)]).join('');
    for (let round = 0; round < 2_000; round++) {
      const a = word();
      const b = word();
      const exact = fullDistance(a, b);
      expect(editDistance(a, b)).toBe(exact);
      for (const max of [0, 1, 2, 3, 5]) expect(editDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
    }
  });
});

describe('nearest', () => {
  it('suggests within a third of the name, case aside', () => {
    expect(nearest('amuont', ['currency', 'amount'])).toBe('amount');
    expect(nearest('AMOUNT', ['amount'])).toBe('amount');
    expect(nearest('zzzzzz', ['amount'])).toBeUndefined();
  });

  it('out of budget, suggests nothing and spends what it was allowed', () => {
    const budget = { cells: 50 };
    expect(nearest('amuont', ['currency', 'amount'], budget)).toBeUndefined();
    expect(budget.cells).toBeLessThanOrEqual(0);
    const large = { cells: 10 * MAX_SEARCH_CELLS };
    const long = 'a'.repeat(1_200);
    const candidates = Array.from({ length: 50 }, (_, i) => `${'b'.repeat(1_200)}${i}`);
    expect(nearest(long, candidates, large)).toBeUndefined();
    expect(large.cells).toBe(9 * MAX_SEARCH_CELLS);
  });
});
