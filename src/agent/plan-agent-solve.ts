/**
 * What PlanAgent.solve() hands solve(): the agent's budget under the call's own, its
 * `approveTool` as the answer to call requests when the call gives no `approve`, its `limiter`
 * when the call gives none, and its policy's classifier as the word on which tools are read-only.
 */
import type { Approve, CallApprovalRequest } from '../run/approval.js';
import { isLimiter, type Limiter } from '../run/limit/index.js';
import { describeValue } from '../language/describe-value.js';
import type { SolveBudget, SolveOptions } from './plan-loop/index.js';
import { type PermissionChecker, PermissionPolicy, type ToolClassifier } from './permissions/index.js';
import { PlanModePolicy } from './plan-mode/index.js';

export interface AgentSolveDefaults {
  /** The agent's budget: a field the call's own `budget` sets wins. */
  readonly budget?: SolveBudget | undefined;
  /** The agent's call approver: asked about calls when the call gives no `approve`. */
  readonly approveTool?: Approve<CallApprovalRequest> | undefined;
  /** The agent's limiter: the runs of a call that gives no `limiter` keep its quotas. */
  readonly limiter?: Limiter | undefined;
}

/** solve()'s options with the agent's defaults filled in. */
export function agentSolveOptions(options: SolveOptions, agent: AgentSolveDefaults): SolveOptions {
  // Not an object: left as is, for solve() to refuse by name.
  if (options === null || typeof options !== 'object') return options;
  const { approveTool } = agent;
  const withApprove: SolveOptions =
    options.approve === undefined && approveTool !== undefined
      ? // A lazy solution is not a call: with no `approve`, it is still turned down.
        { ...options, approve: (request) => (request.kind === 'call' ? approveTool(request) : false) }
      : options;
  const withLimiter: SolveOptions =
    withApprove.limiter === undefined && agent.limiter !== undefined
      ? { ...withApprove, limiter: agent.limiter }
      : withApprove;
  return withBudget(withLimiter, agent.budget);
}

/** solve()'s options with the agent's budget under their own, field by field. */
function withBudget(options: SolveOptions, budget: SolveBudget | undefined): SolveOptions {
  if (budget === undefined || options === null || typeof options !== 'object') return options;
  const own = options.budget;
  // A budget that is not an object is left as is, for solve() to refuse by name.
  if (own !== undefined && (own === null || typeof own !== 'object')) return options;
  return { ...options, budget: { ...budget, ...own } };
}

/** The classifier behind a policy, when it has one (a PlanModePolicy or a PermissionPolicy). */
export function classifierOf(policy: PermissionChecker): ToolClassifier | undefined {
  return policy instanceof PlanModePolicy || policy instanceof PermissionPolicy
    ? policy.classifier
    : undefined;
}

/** @throws {TypeError} when the agent's `limiter` is not one createLimiter() made. */
export function checkAgentLimiter(limiter: unknown): void {
  if (limiter !== undefined && !isLimiter(limiter))
    throw new TypeError(
      `PlanAgent: limiter must be a limiter made by createLimiter(), not ${describeValue(limiter)}`,
    );
}
