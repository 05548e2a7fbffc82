/**
 * A bound workflow's compiled sub-plan and output template, kept on its definition under a
 * private key, so that what reads a registry without running it (the dry run) can walk into the
 * sub-plan. A symbol property, enumerable, so that a copy made by spreading the definition (a
 * guard's wrapper of it) still has it; private to planmode, so no definition can claim it.
 */
import type { OutputTemplate } from '../../compile/check/index.js';
import type { CompiledPlan } from '../../compile/types.js';
import type { SourceText } from '../../language/text/index.js';
import type { Tool } from '../../tools/tool.js';

const WORKFLOW_PLAN: unique symbol = Symbol('planmode.workflowPlan');

/** What a bound workflow runs: its plan, compiled against its registry, and its output. */
export interface WorkflowPlan {
  readonly plan: CompiledPlan;
  readonly output: OutputTemplate;
  /** The plan's text, which its calls' pointers point into. */
  readonly source: SourceText;
}

/** The field the binder puts on a bound workflow. */
export function workflowPlanField(workflow: WorkflowPlan): { readonly [WORKFLOW_PLAN]: WorkflowPlan } {
  return { [WORKFLOW_PLAN]: workflow };
}

/** The compiled plan of a bound workflow (or a copy of one); undefined for any other tool. */
export function workflowPlan(tool: Tool): WorkflowPlan | undefined {
  return (tool as { [WORKFLOW_PLAN]?: WorkflowPlan })[WORKFLOW_PLAN];
}
