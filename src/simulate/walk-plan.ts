/** What walking a plan needs, made once per plan (the simulated plan, or a workflow's). */
import type { CompiledPlan } from '../compile/types.js';
import type { JsonObject } from '../language/document.js';
import { workflowPlan } from '../run/workflow/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ForEachModel } from './for-each-sample.js';
import type { OutputSampler } from './sample-outputs.js';
import type { WalkPlan } from './walk.js';

export interface WalkPlanOptions {
  readonly plan: CompiledPlan;
  readonly tools: ToolRegistry | undefined;
  readonly sampler: OutputSampler;
  /** The mode the plan runs in (its `_output`s are samples only when eager). */
  readonly mode: 'eager' | 'lazy';
  readonly forEach: ForEachModel;
  /** Per call: its `||` alternatives when it branches, else 0 (see branch-groups.ts). */
  readonly alternatives: Int32Array;
  readonly input: JsonObject;
  /** Build each argument's `key`: there is more than one walk of this plan. */
  readonly keys: boolean;
}

export function walkPlanOf(options: WalkPlanOptions): WalkPlan {
  const { plan, tools, sampler, mode, alternatives } = options;
  const n = plan.calls.length;
  const rank = new Int32Array(n);
  plan.order.forEach((i, position) => (rank[i] = position));
  // Declared, never guessed: only a call's declared error alternative samples the error object.
  const errorAlternative = new Int32Array(n).fill(-1);
  let workflows: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const call = plan.calls[i]!;
    const k = call.errorAlternative;
    if (alternatives[i]! > 0 && k !== null) errorAlternative[i] = k;
    const tool = tools?.get(call.tool)?.tool;
    if (tool !== undefined && workflowPlan(tool) !== undefined) (workflows ??= new Uint8Array(n))[i] = 1;
  }
  return {
    plan,
    rank,
    alternatives,
    errorAlternative,
    samples: plan.calls.map((call) => sampler.sample(call, mode)),
    input: options.input,
    state: plan.state ?? {},
    keys: options.keys,
    workflows,
    forEach: { ...options.forEach, present: plan.calls.some((c) => c.forEach) },
  };
}
