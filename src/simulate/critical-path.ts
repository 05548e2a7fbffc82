/**
 * The heaviest chain of dependent calls and the widest level, over the calls that run in one
 * scenario (a call skipped there takes no time and holds nobody up, so an edge that is only
 * there to order calls of exclusive branches never lengthens the chain). Weights are each tool's
 * `estimatedMs`, 1 for a tool without one, so a plan without estimates gets the longest chain
 * by count. One pass over the topological order: no recursion (100k-call chains).
 */
import { dependencyIndices } from '../compile/compiled-plan.js';
import type { CompiledPlan } from '../compile/types.js';
import type { ToolRegistry } from '../tools/registry.js';

export interface CriticalPath {
  /** Call indices, first to last. */
  readonly calls: readonly number[];
  readonly weight: number;
}

/**
 * @param ran per call, 1 when it runs in the scenario.
 * @param durations per call, its duration in the scenario when it is not its tool's (a
 *   workflow call's sub-plan, a `_forEach` call's elements), else NaN; null when none has one.
 */
export function criticalPath(
  plan: CompiledPlan,
  tools: ToolRegistry | undefined,
  ran: Uint8Array,
  durations: Float64Array | null = null,
): CriticalPath {
  const n = plan.calls.length;
  if (n === 0) return { calls: [], weight: 0 };
  const weights = new Map<string, number>();
  const weightOf = (tool: string): number => {
    let w = weights.get(tool);
    if (w === undefined) {
      w = toolWeight(tools, tool);
      weights.set(tool, w);
    }
    return w;
  };
  const finish = new Float64Array(n);
  const previous = new Int32Array(n).fill(-1);
  let last = -1;
  const { offsets, from } = dependencyIndices(plan);
  for (const i of plan.order) {
    let start = 0;
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
      // Ties keep the earlier call in the array, so the path is stable (whatever the order of
      // the dependencies).
      const d = from[k]!;
      const f = finish[d]!;
      if (previous[i]! < 0 || f > start || (f === start && d < previous[i]!)) {
        start = f;
        previous[i] = d;
      }
    }
    // A skipped call takes no time, but ends only when what it waits for has ended (as in a
    // run), so it passes the wait on: park -> (skipped) movie -> present still chains.
    const runs = ran[i] === 1;
    const own = durations === null ? Number.NaN : durations[i]!;
    finish[i] = start + (runs ? (Number.isNaN(own) ? weightOf(plan.calls[i]!.tool) : own) : 0);
    if (runs && (last < 0 || finish[i]! > finish[last]! || (finish[i] === finish[last] && i < last)))
      last = i;
  }
  if (last < 0) return { calls: [], weight: 0 };
  const calls: number[] = [];
  for (let i = last; i >= 0; i = previous[i]!) if (ran[i] === 1) calls.push(i);
  calls.reverse();
  return { calls, weight: finish[last]! };
}

/** One call of `tool`'s duration: its `estimatedMs`, 1 for a tool without one. */
export function toolWeight(tools: ToolRegistry | undefined, tool: string): number {
  const estimated = tools?.get(tool)?.tool.estimatedMs;
  return typeof estimated === 'number' && Number.isFinite(estimated) && estimated >= 0 ? estimated : 1;
}

export interface WidestLevel {
  readonly level: number;
  /** Call indices in array order. */
  readonly calls: readonly number[];
}

/**
 * The level (depth from the calls without dependencies that run) holding the most calls that
 * run; the first on a tie.
 * @param ran per call, 1 when it runs in the scenario.
 */
export function widestLevel(plan: CompiledPlan, ran: Uint8Array): WidestLevel {
  const n = plan.calls.length;
  // A call's level is the number of calls that run on the longest chain before it; a skipped
  // call adds none but passes its own wait on, as in a run. Only calls that run have one (-1).
  const after = new Int32Array(n);
  const levels = new Int32Array(n).fill(-1);
  const { offsets, from } = dependencyIndices(plan);
  for (const i of plan.order) {
    let level = 0;
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) level = Math.max(level, after[from[k]!]!);
    if (ran[i]) {
      levels[i] = level;
      after[i] = level + 1;
    } else after[i] = level;
  }
  const counts: number[] = [];
  for (let i = 0; i < n; i++) if (levels[i]! >= 0) counts[levels[i]!] = (counts[levels[i]!] ?? 0) + 1;
  let widest = 0;
  for (let l = 1; l < counts.length; l++) if ((counts[l] ?? 0) > (counts[widest] ?? 0)) widest = l;
  const calls: number[] = [];
  for (let i = 0; i < n; i++) if (levels[i] === widest) calls.push(i);
  return { level: widest, calls };
}
