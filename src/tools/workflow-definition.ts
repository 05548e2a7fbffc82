/**
 * A workflow is a tool whose `plan` runs as a sub-plan (see Tool.plan). This file checks the
 * shape of its definition (the registry then has the plan compiled by the binder that
 * run/workflow/ installs) and keeps, per bound workflow, the tools its plan can reach.
 */
import { isArrayValue, showValue } from './safe-describe.js';
import type { Tool } from './tool.js';

/**
 * The key under which a bound workflow keeps the tools its plan can call. A symbol property,
 * enumerable, so that a copy made by spreading the definition (a guard's wrapper of it) is
 * still known as a bound workflow; private to planmode, so no definition can claim it.
 */
const WORKFLOW_CALLS: unique symbol = Symbol('planmode.workflowCalls');

/**
 * The key under which a bound workflow keeps its compiled plan, for the pictures (`plan graph`,
 * the HTML report) to draw inside it. Typed `unknown` here because this folder sits below the
 * compiler; report/workflow-plan.ts reads it as the CompiledPlan it is.
 */
const WORKFLOW_PLAN: unique symbol = Symbol('planmode.workflowPlan');

/** A bound workflow's fields: the tools its plan can call and its compiled plan, under private keys. */
export function workflowCallsField(
  tools: readonly string[],
  plan?: unknown,
): {
  readonly [WORKFLOW_CALLS]: readonly string[];
  readonly [WORKFLOW_PLAN]?: unknown;
} {
  return {
    [WORKFLOW_CALLS]: Object.freeze([...tools]),
    ...(plan !== undefined && { [WORKFLOW_PLAN]: plan }),
  };
}

/** A bound workflow's compiled plan (see WORKFLOW_PLAN), or undefined for any other tool. */
export function workflowPlanValue(tool: Tool): unknown {
  return (tool as { [WORKFLOW_PLAN]?: unknown })[WORKFLOW_PLAN];
}

/**
 * The names of every tool a workflow can call (workflows excluded, as they are walked
 * through), or undefined when `tool` is not a bound workflow (or a copy of one).
 */
export function workflowCalls(tool: Tool): readonly string[] | undefined {
  return (tool as { [WORKFLOW_CALLS]?: readonly string[] })[WORKFLOW_CALLS];
}

/** True when the definition has a `plan` (it is meant as a workflow). */
export function isWorkflowDefinition(tool: Tool): boolean {
  return tool.plan !== undefined;
}

/**
 * The problems with the workflow fields of a definition whose fields read without throwing:
 * `plan` with `execute` or `latent`, `output` missing, or either of the wrong type.
 */
export function workflowShapeProblems(fields: {
  readonly plan: unknown;
  readonly output: unknown;
  readonly execute: unknown;
  readonly latent: unknown;
}): string[] {
  const { plan, output, execute, latent } = fields;
  if (plan === undefined) {
    return output === undefined
      ? []
      : ['"output" belongs to a workflow: give the tool a "plan" too, or remove "output"'];
  }
  const problems: string[] = [];
  if (typeof plan !== 'string' && (plan === null || typeof plan !== 'object'))
    problems.push(`"plan" must be a plan document (its text, or an array of calls), not ${showValue(plan)}`);
  if (execute !== undefined) problems.push('a workflow has "plan" instead of "execute": remove one of them');
  if (latent === true) problems.push('a workflow cannot be latent: remove "latent" or "plan"');
  if (output === undefined)
    problems.push('a workflow needs "output": a reference such as "†state.result", or a template of them');
  else if (typeof output !== 'string' && (output === null || typeof output !== 'object'))
    problems.push(
      `"output" must be a reference or a JSON template (object or array) of references, not ${showValue(output)}`,
    );
  else if (typeof output !== 'string' && !isArrayValue(output) && Object.keys(output).length === 0)
    problems.push('"output" is an empty object: name what the workflow returns');
  return problems;
}
