/**
 * The compiled sub-plan of each bound workflow tool, for what must look inside a workflow call
 * without running it (a resume judging the journaled records of its sub-calls).
 */
import type { CompiledPlan } from './types.js';
import type { Tool } from '../tools/tool.js';

const plans = new WeakMap<Tool, CompiledPlan>();

export function rememberWorkflowPlan(tool: Tool, plan: CompiledPlan): void {
  plans.set(tool, plan);
}

/** The workflow's compiled plan; undefined for a tool that is not a bound workflow. */
export function workflowPlanOf(tool: Tool | undefined): CompiledPlan | undefined {
  return tool === undefined ? undefined : plans.get(tool);
}
