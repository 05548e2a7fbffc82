/**
 * The requests a run or an agent makes, as `GET /api/approvals` shows them: JSON a page or a
 * script can read, beside the request's own fields (approval.ts). A lazy plan's comes with its
 * dry run, summed up here and drawn whole in its report; a call's with its resolved arguments.
 */
import type { CompiledPlan } from '../compile/index.js';
import type { JsonObject } from '../language/document.js';
import type { Limits } from '../language/limits.js';
import { renderReport } from '../report/index.js';
import type { CallApprovalRequest, PlanApprovalRequest } from '../run/index.js';
import { simulate, type Simulation } from '../simulate/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { RequestFields } from './approval-desk.js';

/** What a run's plan request is shown with: who asked, and what the dry run needs. */
export interface PlanRequestContext {
  readonly run: string;
  readonly tools: ToolRegistry;
  readonly input: JsonObject | undefined;
  readonly state: JsonObject | undefined;
  readonly limits: Limits;
  /** The plan as the client sent it: what an edit starts from. */
  readonly document: unknown;
}

/** A lazy run's plan: its calls as written, the dry run summed up, the edit that failed if any. */
export function planRequestFields(
  request: PlanApprovalRequest<CompiledPlan>,
  context: PlanRequestContext,
): { fields: RequestFields; report: (() => string) | undefined } {
  const simulation = dryRun(request.plan, context);
  return {
    fields: {
      kind: 'plan',
      run: context.run,
      reason: request.reason,
      mode: request.plan.mode,
      document: context.document,
      calls: request.plan.calls.map((c) => ({ id: c.id, tool: c.tool, args: c.args })),
      simulation: simulation === null ? null : simulationSummary(simulation),
      ...(request.edit && { edit: request.edit }),
      ...(request.workflows && { workflows: request.workflows }),
    },
    report:
      simulation === null
        ? undefined
        : () => renderReport({ plan: request.plan, simulation }, { title: 'planmode: plan to approve' }),
  };
}

/** A call whose tool needs approval: its arguments resolved, and where it is. */
export function callRequestFields(
  request: CallApprovalRequest,
  owner: { run: string } | { agent: string },
): RequestFields {
  return {
    kind: 'call',
    ...owner,
    call: request.call,
    tool: request.tool,
    args: request.args,
    reason: request.reason,
    ...(request.definition.description !== undefined && { description: request.definition.description }),
    ...(request.elements && { elements: request.elements }),
    ...(request.parent && { parent: request.parent }),
  };
}

/** An agent's plan (Markdown) at exit_plan_mode. */
export function markdownPlanFields(request: PlanApprovalRequest<string>, agent: string): RequestFields {
  return {
    kind: 'plan',
    agent,
    reason: request.reason,
    markdown: request.plan,
    ...(request.file !== undefined && { file: request.file }),
  };
}

/** Null when the dry run cannot be made (it never throws for a plan that compiled; guarded all the same). */
function dryRun(plan: CompiledPlan, context: PlanRequestContext): Simulation | null {
  try {
    return simulate(plan, {
      tools: context.tools,
      limits: context.limits,
      ...(context.input && { input: context.input }),
      ...(context.state && { state: context.state }),
    });
  } catch {
    return null;
  }
}

/** The dry run in a few numbers and lists: what a person reads before the report. */
export function simulationSummary(simulation: Simulation): Record<string, unknown> {
  return {
    scenarios: simulation.scenarios.map((s) => ({
      run: s.run,
      skipped: s.skipped,
      choices: s.choices,
      // The branches taken inside workflow calls, when a workflow's plan branches.
      ...(s.workflowChoices && { workflowChoices: s.workflowChoices }),
    })),
    truncated: simulation.truncated,
    criticalPath: simulation.criticalPath,
    criticalPathWeight: simulation.criticalPathWeight,
    maxParallelism: simulation.maxParallelism,
    argumentErrors: simulation.scenarios.flatMap((s) => s.argumentErrors),
    diagnostics: simulation.diagnostics,
  };
}
