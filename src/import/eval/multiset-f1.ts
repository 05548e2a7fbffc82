/** Precision, recall and F1 of multisets, and the longest common subsequence of two sequences. */
import type { F1Score } from './eval-types.js';

/**
 * F1 of `predicted` against `gold`, both multisets of strings: an element matches as many times
 * as it is in both. Two empty multisets agree perfectly (1); one empty against a non-empty one
 * scores 0.
 */
export function multisetF1(gold: readonly string[], predicted: readonly string[]): F1Score {
  if (gold.length === 0 && predicted.length === 0) return { precision: 1, recall: 1, f1: 1 };
  const counts = new Map<string, number>();
  for (const item of gold) counts.set(item, (counts.get(item) ?? 0) + 1);
  let matched = 0;
  for (const item of predicted) {
    const left = counts.get(item) ?? 0;
    if (left > 0) {
      matched++;
      counts.set(item, left - 1);
    }
  }
  const precision = predicted.length === 0 ? 0 : matched / predicted.length;
  const recall = gold.length === 0 ? 0 : matched / gold.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/**
 * Length of the longest common subsequence of two sequences of strings: one row of the
 * dynamic programme at a time (memory linear in `b`), elements compared as small integers.
 */
export function commonSubsequenceLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const ids = new Map<string, number>();
  const idOf = (s: string) => {
    let id = ids.get(s);
    if (id === undefined) ids.set(s, (id = ids.size));
    return id;
  };
  const aIds = Int32Array.from(a, idOf);
  const bIds = Int32Array.from(b, idOf);
  let previous = new Int32Array(bIds.length + 1);
  let current = new Int32Array(bIds.length + 1);
  for (let i = 0; i < aIds.length; i++) {
    const x = aIds[i]!;
    for (let j = 0; j < bIds.length; j++) {
      current[j + 1] = x === bIds[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, current[j]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[bIds.length]!;
}
