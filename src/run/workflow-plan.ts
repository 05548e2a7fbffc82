/**
 * A bound workflow keeps its compiled plan, so that what shows a plan before it runs (a lazy
 * plan's approval, the CLI's listing at the prompt) can show what its workflows will call.
 */
import type { CompiledPlan } from '../compile/types.js';
import type { Tool } from '../tools/tool.js';

/**
 * The key under which a bound workflow keeps its compiled plan: a symbol property, enumerable,
 * so that a copy made by spreading the definition (a guard's wrapper of it) keeps it too (as
 * tools/workflow-definition.ts keeps the tools a workflow can call).
 */
const WORKFLOW_PLAN: unique symbol = Symbol('planmode.workflowPlan');

/** A bound workflow's field: its compiled plan, under a private key. */
export function workflowPlanField(plan: CompiledPlan): { readonly [WORKFLOW_PLAN]: CompiledPlan } {
  return { [WORKFLOW_PLAN]: plan };
}

/** The compiled plan of a bound workflow (or a copy of one); undefined for any other tool. */
export function workflowPlanOf(tool: Tool | undefined): CompiledPlan | undefined {
  return (tool as { [WORKFLOW_PLAN]?: CompiledPlan } | undefined)?.[WORKFLOW_PLAN];
}
