/**
 * Approval in the plan loop, with the one callback the caller gives solve() (`approve`):
 *
 * - a lazy solution is asked about whole, with its dry run, before any of it runs
 *   (`{ kind: 'plan', plan, reason, simulation, iteration }`);
 * - each call of a tool that `needsApproval` is asked about by itself, when it is ready, with
 *   its resolved arguments (`{ kind: 'call', call, tool, args, reason, definition, plan }`), in
 *   lazy and eager loops alike: run() asks, and this file hands its requests to the caller.
 *
 * Without `approve`, both are a no: nothing lazy runs and no such call runs.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { Approve, CallApprovalRequest, PlanApprovalRequest } from '../../run/approval.js';
import { askWithEdits, type EditLoopOptions, type PlanVerdict } from '../../run/runner/index.js';
import { workflowListing } from '../../run/workflow-listing.js';
import type { RunResult } from '../../run/types.js';
import type { Simulation } from '../../simulate/types.js';

/** A lazy solution, as solve() asks about it: the compiled solution, its dry run and its number. */
export type SolvePlanApprovalRequest = PlanApprovalRequest<CompiledPlan> & {
  readonly simulation: Simulation;
  readonly iteration: number;
};

/** What solve()'s `approve` is asked: a lazy solution, or one call of a tool that needs approval. */
export type SolveApprovalRequest = SolvePlanApprovalRequest | CallApprovalRequest;

/** The reason given with a lazy solution. */
export const SOLUTION_REASON = 'a lazy solution runs only once approved';

/** What asking about a lazy solution needs beside the callback. */
export interface SolutionQuestion {
  readonly plan: CompiledPlan;
  readonly simulation: Simulation;
  readonly iteration: number;
  /** Compiles an edit as the solution was compiled. */
  readonly compile: EditLoopOptions['compile'];
  readonly maxEditRetries?: number;
}

/**
 * The caller's answer about a lazy solution, with the edit when the answer was one (see
 * askWithEdits); no approver is a no.
 */
export async function askAboutSolution(
  approve: Approve<SolveApprovalRequest> | undefined,
  question: SolutionQuestion,
): Promise<PlanVerdict> {
  if (!approve) return { approved: false };
  const { plan, simulation, iteration } = question;
  const workflows = plan.tools ? workflowListing(plan, plan.tools) : undefined;
  return askWithEdits({
    plan,
    ask: async (edit) =>
      approve({
        kind: 'plan',
        reason: SOLUTION_REASON,
        plan,
        simulation,
        iteration,
        ...(edit && { edit }),
        ...(workflows && { workflows }),
      }),
    compile: question.compile,
    ...(question.maxEditRetries !== undefined && { maxEditRetries: question.maxEditRetries }),
  });
}

/** What the model is told after a person edited its solution at approval. */
export const EDITED_NOTE =
  'A person edited your plan before it ran: the plan that ran is theirs, shown as the current plan with its results. Do not propose your earlier version again; go on from theirs.';

/**
 * The `approve` run() is given. Its plan request is a yes: solve() asked about the solution (with
 * its dry run) just before running it, and only runs what was approved. Its call requests are the
 * caller's to answer; with no approver each is a no, and the call ends `rejected`.
 */
export function runApprover(approve: Approve<SolveApprovalRequest> | undefined): Approve {
  return (request) => {
    if (request.kind === 'plan') return true;
    return approve ? approve(request) : false;
  };
}

/** Whether a person turned down a call of the run: the loop then ends `rejected`. */
export function hasRejectedCall(result: RunResult): boolean {
  return result.calls.some((call) => call.status === 'rejected');
}
