/**
 * The heaviest chain of dependent calls and the widest level of the graph. Weights are each
 * tool's `estimatedMs`, 1 for a tool without one, so a plan without estimates gets the longest
 * chain by count. One pass over the topological order: no recursion (100k-call chains).
 */
import type { CompiledPlan } from '../compile/types.js';
import type { ToolRegistry } from '../tools/registry.js';

export interface CriticalPath {
  /** Call indices, first to last. */
  readonly calls: readonly number[];
  readonly weight: number;
}

export function criticalPath(plan: CompiledPlan, tools: ToolRegistry | undefined): CriticalPath {
  const n = plan.calls.length;
  if (n === 0) return { calls: [], weight: 0 };
  const weights = new Map<string, number>();
  const weightOf = (tool: string): number => {
    let w = weights.get(tool);
    if (w === undefined) {
      const estimated = tools?.get(tool)?.tool.estimatedMs;
      w = typeof estimated === 'number' && Number.isFinite(estimated) && estimated >= 0 ? estimated : 1;
      weights.set(tool, w);
    }
    return w;
  };
  const finish = new Float64Array(n);
  const previous = new Int32Array(n).fill(-1);
  let last = plan.order[0]!;
  for (const i of plan.order) {
    let start = 0;
    for (const d of plan.calls[i]!.dependencies) {
      // Ties keep the earlier call in the array, so the path is stable.
      const f = finish[d.from]!;
      if (previous[i]! < 0 || f > start || (f === start && d.from < previous[i]!)) {
        start = f;
        previous[i] = d.from;
      }
    }
    finish[i] = start + weightOf(plan.calls[i]!.tool);
    if (finish[i]! > finish[last]! || (finish[i] === finish[last] && i < last)) last = i;
  }
  const calls: number[] = [];
  for (let i = last; i >= 0; i = previous[i]!) calls.push(i);
  calls.reverse();
  return { calls, weight: finish[last]! };
}

export interface WidestLevel {
  readonly level: number;
  /** Call indices in array order. */
  readonly calls: readonly number[];
}

/** The level (depth from calls without dependencies) holding the most calls; the first on a tie. */
export function widestLevel(plan: CompiledPlan): WidestLevel {
  const counts: number[] = [];
  for (const level of plan.levels) counts[level] = (counts[level] ?? 0) + 1;
  let widest = 0;
  for (let l = 1; l < counts.length; l++) if ((counts[l] ?? 0) > (counts[widest] ?? 0)) widest = l;
  const calls: number[] = [];
  plan.levels.forEach((level, i) => {
    if (level === widest) calls.push(i);
  });
  return { level: widest, calls };
}
