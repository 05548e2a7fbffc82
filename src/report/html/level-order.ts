/**
 * The calls of each level of a plan's graph, in an order that crosses few edges: levels as
 * columns, rows ordered by the mean row of each call's dependencies, then of its dependents,
 * then of its dependencies again: three linear sweeps that remove most crossings of plans built
 * in layers. The layered layout and the folded one both start from it.
 */
import type { CompiledPlan } from '../../compile/types.js';

/** `levels[l]` lists the calls of level `l` in order; a level with no call is left empty. */
export function orderedLevels(plan: CompiledPlan): number[][] {
  const n = plan.calls.length;
  const columns: number[][] = [];
  for (let i = 0; i < n; i++) (columns[plan.levels[i] ?? 0] ??= []).push(i);
  for (let l = 0; l < columns.length; l++) columns[l] ??= [];
  const row = new Float64Array(n);
  for (const column of columns) column.forEach((c, r) => (row[c] = r));
  const dependents: number[][] = Array.from({ length: n }, () => []);
  plan.calls.forEach((call, i) => call.dependencies.forEach((d) => dependents[d.from]!.push(i)));
  const sweep = (neighbours: (i: number) => Iterable<number>, list: number[][]) => {
    for (const column of list) {
      const key = new Map<number, number>();
      for (const c of column) {
        let sum = 0;
        let count = 0;
        for (const o of neighbours(c)) {
          sum += row[o]!;
          count++;
        }
        key.set(c, count > 0 ? sum / count : row[c]!);
      }
      column.sort((a, b) => key.get(a)! - key.get(b)! || a - b);
      column.forEach((c, r) => (row[c] = r));
    }
  };
  const before = (i: number) => plan.calls[i]!.dependencies.map((d) => d.from);
  sweep(before, columns);
  sweep((i) => dependents[i]!, [...columns].reverse());
  sweep(before, columns);
  return columns;
}
