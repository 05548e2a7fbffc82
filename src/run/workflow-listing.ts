/**
 * What a plan's workflows will call, for a person approving the plan (PlanApprovalRequest's
 * `workflows`): per workflow the plan can reach (through the workflows it calls, too), the calls
 * of its plan as written. Keyed by workflow, each listed once however many calls run it, so the
 * listing grows with the workflows' plans, never with how often or how deep they are called.
 *
 * A worklist with an explicit stack, each workflow visited once; the registry refused cycles
 * and chains deeper than MAX_WORKFLOW_DEPTH when it bound them.
 */
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import { setOwnProperty } from '../language/json/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { WorkflowInnerCall } from './sub-run-types.js';
import { workflowPlanOf } from './workflow-plan.js';

export type WorkflowListing = Readonly<Record<string, readonly WorkflowInnerCall[]>>;

/** The listing of every workflow `plan` can reach, or undefined when it calls none. */
export function workflowListing(plan: CompiledPlan, tools: ToolRegistry): WorkflowListing | undefined {
  const stack: string[] = [];
  const seen = new Set<string>();
  const reach = (calls: readonly CompiledCall[]) => {
    for (const call of calls) {
      if (seen.has(call.tool) || workflowPlanOf(tools.get(call.tool)?.tool) === undefined) continue;
      seen.add(call.tool);
      stack.push(call.tool);
    }
  };
  reach(plan.calls);
  if (stack.length === 0) return undefined;
  const listing: Record<string, readonly WorkflowInnerCall[]> = {};
  while (stack.length > 0) {
    const name = stack.pop()!;
    const inner = workflowPlanOf(tools.get(name)!.tool)!;
    setOwnProperty(listing, name, Object.freeze(inner.calls.map((call) => innerCall(call, tools))));
    reach(inner.calls);
  }
  return Object.freeze(listing);
}

function innerCall(call: CompiledCall, tools: ToolRegistry): WorkflowInnerCall {
  return Object.freeze({
    id: call.id,
    tool: call.tool,
    args: call.args,
    outputPath: call.outputPath?.text ?? null,
    ...(call.forEach && { forEach: call.forEach.text }),
    ...(tools.get(call.tool)?.tool.needsApproval === true && { needsApproval: true as const }),
  });
}
