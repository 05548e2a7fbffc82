/**
 * Who goes first when calls wait for a quota: the call with the longest chain of calls still
 * to run after it (its own included). The calls of the plan's critical path have the longest
 * chains of their level, so they go first, and a call that many others wait behind never
 * waits behind a leaf. Computed once per compiled plan, in reverse topological order over the
 * dependency lists the compile kept (no recursion, no graph object).
 */
import { dependencyIndices } from '../../compile/compiled-plan.js';
import type { CompiledPlan } from '../../compile/types.js';

const chains = new WeakMap<CompiledPlan, Int32Array>();

/** Per call, the number of calls on its longest chain to an end of the plan (1 for a leaf). */
export function remainingChains(plan: CompiledPlan): Int32Array {
  let lengths = chains.get(plan);
  if (lengths !== undefined) return lengths;
  const n = plan.calls.length;
  lengths = new Int32Array(n).fill(1);
  const { offsets, from } = dependencyIndices(plan);
  const order = plan.order;
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k]!;
    const through = lengths[i]! + 1;
    for (let e = offsets[i]!; e < offsets[i + 1]!; e++) {
      const d = from[e]!;
      if (lengths[d]! < through) lengths[d] = through;
    }
  }
  chains.set(plan, lengths);
  return lengths;
}

/**
 * The priority of the call a tool was given `toolCallId` for: its remaining chain; an element
 * of a `_forEach` call (`id[k]`) has its call's. 0 for an id the plan does not know (a plan
 * that streams in is not ordered yet).
 */
export function callPriority(plan: CompiledPlan, toolCallId: string): number {
  let i = plan.indexOf(toolCallId);
  if (i === undefined && toolCallId.endsWith(']')) {
    const open = toolCallId.lastIndexOf('[');
    if (open > 0) i = plan.indexOf(toolCallId.slice(0, open));
  }
  if (i === undefined || plan.order.length !== plan.calls.length) return 0;
  return remainingChains(plan)[i] ?? 0;
}
