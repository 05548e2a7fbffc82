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
import {
  type ApprovalDecision,
  type Approve,
  type CallApprovalRequest,
  type PlanApprovalRequest,
  readApproval,
} from '../../run/approval.js';
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

/** The caller's answer about a lazy solution; no approver is a no. */
export async function askAboutSolution(
  approve: Approve<SolveApprovalRequest> | undefined,
  solution: { readonly plan: CompiledPlan; readonly simulation: Simulation; readonly iteration: number },
): Promise<ApprovalDecision> {
  if (!approve) return { approved: false };
  return readApproval(await approve({ kind: 'plan', reason: SOLUTION_REASON, ...solution }));
}

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
