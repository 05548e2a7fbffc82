/**
 * Which workflow calls branch inside: a call of a workflow whose plan has a branching call, or
 * calls a workflow that has one (at any depth). Their outputs depend on choices made inside, so
 * the dry run enumerates those choices as it does the plan's own (see branch-groups.ts and
 * scenario-decisions.ts). Found with an explicit stack over the workflows' names, each looked
 * at once; registering workflows refuses a cycle, and the walk never goes deeper than
 * MAX_WORKFLOW_DEPTH, as the dry run does not walk past it.
 */
import type { CompiledPlan } from '../compile/types.js';
import { MAX_WORKFLOW_DEPTH, workflowPlan } from '../run/workflow/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import { alternativesOf } from './branch-groups.js';

/** Per call of `plan`: 1 when it calls a workflow that branches inside; null when none does. */
export function branchingWorkflowCalls(
  plan: CompiledPlan,
  tools: ToolRegistry | undefined,
): Uint8Array | null {
  if (tools === undefined) return null;
  const branches = new Map<string, boolean>();
  let found: Uint8Array | null = null;
  plan.calls.forEach((call, i) => {
    if (workflowBranches(call.tool, tools, branches)) (found ??= new Uint8Array(plan.calls.length))[i] = 1;
  });
  return found;
}

/** True when `name` is a workflow whose plan branches, at any depth; memoized in `known`. */
function workflowBranches(name: string, tools: ToolRegistry, known: Map<string, boolean>): boolean {
  const plan = planOf(name, tools);
  if (plan === undefined) return false;
  // Depth first over the workflows each one calls: a workflow is decided once all it calls are.
  const stack: { name: string; plan: CompiledPlan; next: number }[] = [{ name, plan, next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (known.has(top.name)) {
      stack.pop();
      continue;
    }
    let branches = false;
    let descended = false;
    for (; top.next < top.plan.calls.length; top.next++) {
      const call = top.plan.calls[top.next]!;
      if (alternativesOf(call) > 0) {
        branches = true;
        break;
      }
      const inner = known.get(call.tool);
      if (inner === true) {
        branches = true;
        break;
      }
      if (inner === false) continue;
      const innerPlan = planOf(call.tool, tools);
      if (innerPlan === undefined || stack.length > MAX_WORKFLOW_DEPTH) continue;
      stack.push({ name: call.tool, plan: innerPlan, next: 0 });
      descended = true;
      break;
    }
    if (descended) continue;
    known.set(top.name, branches);
    stack.pop();
  }
  return known.get(name) === true;
}

function planOf(name: string, tools: ToolRegistry): CompiledPlan | undefined {
  const tool = tools.get(name)?.tool;
  return tool === undefined ? undefined : workflowPlan(tool)?.plan;
}
