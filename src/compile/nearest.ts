/**
 * "Did you mean …?": the closest name by edit distance, within a budget of work.
 *
 * Names come from plans and tool schemas, so their number and length are the attacker's: 2,000
 * names of 1,000 characters compared with 2,000 others, cell by cell, took minutes. Each
 * comparison is banded (only the cells within the distance still worth finding, Ukkonen's
 * cut-off) and every cell, and every character lowered for the comparison, is paid from a
 * budget: {@link MAX_SEARCH_CELLS} for one search and, when the caller passes its collection's
 * {@link HintBudget}, {@link MAX_HINT_CELLS} for all the searches of one compile. A search that
 * runs out suggests nothing: a hint is a courtesy, never worth seconds.
 */
import { type HintBudget, MAX_HINT_CELLS } from '../language/diagnostics.js';

export { type HintBudget, MAX_HINT_CELLS };

/** Most cells (and characters lowered) one search may spend, whatever its collection has left. */
export const MAX_SEARCH_CELLS = 1_000_000;

/** Rows of the banded table, reused from comparison to comparison and grown as needed. */
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/**
 * Levenshtein distance, or `max + 1` as soon as it is known to exceed `max`. With a finite
 * `max` only the band of cells within `max` of the diagonal is computed; each cell costs one
 * of `budget.cells`, and a comparison that empties the budget stops there (the caller sees the
 * budget at or below 0).
 */
export function editDistance(
  a: string,
  b: string,
  max = Number.POSITIVE_INFINITY,
  budget: { cells: number } = { cells: Number.POSITIVE_INFINITY },
): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  const band = Math.min(max, Math.max(n, m));
  const far = band + 1;
  if (previousRow.length < m + 1) {
    previousRow = new Int32Array(m + 1);
    currentRow = new Int32Array(m + 1);
  }
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= m; j++) previous[j] = j <= band ? j : far;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - band);
    const hi = Math.min(m, i + band);
    current[lo - 1] = lo === 1 ? Math.min(i, far) : far;
    let rowMin = current[lo - 1]!;
    const code = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const cost = code === b.charCodeAt(j - 1) ? 0 : 1;
      let value = previous[j - 1]! + cost;
      const up = previous[j]! + 1;
      const left = current[j - 1]! + 1;
      if (up < value) value = up;
      if (left < value) value = left;
      if (value > far) value = far;
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    // The next row reads one cell past this band: beyond the distance worth finding.
    if (hi < m) current[hi + 1] = far;
    budget.cells -= hi - lo + 1;
    if (rowMin > max || budget.cells <= 0) return max + 1;
    [previous, current] = [current, previous];
  }
  const distance = previous[m]!;
  return distance > max ? max + 1 : distance;
}

/**
 * The candidate closest to `name`, when it is close enough to be a likely typo: at most a
 * third of the name's length (and at least 2) edits, case differences counting as none.
 * Undefined too when the search ran out of budget: `budget` is the collection's (see
 * {@link HintBudget}), spent by what this search spends.
 */
export function nearest(name: string, candidates: Iterable<string>, budget?: HintBudget): string | undefined {
  const allowed = Math.min(MAX_SEARCH_CELLS, budget?.cells ?? MAX_SEARCH_CELLS);
  if (allowed <= 0) return undefined;
  const work = { cells: allowed };
  const found = search(name, candidates, work);
  // A comparison stops at the end of a row: it may overshoot by one, never charged past what was allowed.
  if (budget) budget.cells -= Math.min(allowed, allowed - work.cells);
  return work.cells > 0 ? found : undefined;
}

function search(name: string, candidates: Iterable<string>, work: { cells: number }): string | undefined {
  const limit = Math.max(2, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  work.cells -= name.length;
  const lower = name.toLowerCase();
  for (const candidate of candidates) {
    work.cells -= 1;
    if (work.cells <= 0) return undefined;
    if (candidate === name) continue;
    // Too long or too short to be closer than the best so far: not even lowered.
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    work.cells -= candidate.length;
    const other = candidate.toLowerCase();
    const distance = other === lower ? 0 : editDistance(lower, other, bestDistance - 1, work);
    if (work.cells <= 0) return undefined;
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
