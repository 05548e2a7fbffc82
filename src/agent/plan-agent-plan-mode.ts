/**
 * PlanAgent's `planMode` option: plan mode installed in one go (plan tools, guard, policy,
 * todo reminder) through setupPlanMode, or shared with another agent by passing its setup.
 */
import type { ToolRegistry } from '../tools/registry.js';
import type { Approve, CallApprovalRequest, PlanApprovalRequest } from '../run/approval.js';
import { describeValue } from '../language/describe-value.js';
import {
  type GuardedTools,
  guardTools,
  isPlanModeSetup,
  PlanModeContext,
  type PlanModeSetup,
  type PlanModeSetupOptions,
  setupPlanMode,
} from './plan-mode/index.js';
import type { PermissionPolicyOptions } from './permissions/index.js';

/** What `planMode: {...}` may set; the rest comes from the agent's own options. */
export type PlanAgentPlanModeOptions = Pick<
  PlanModeSetupOptions,
  'plansDir' | 'store' | 'planFile' | 'todos' | 'maxPlanLength' | 'reminders'
>;

/** The part of PlanAgentOptions the wiring reads. */
export interface PlanModeWiringOptions {
  readonly planMode?: boolean | PlanAgentPlanModeOptions | PlanModeSetup;
  readonly context?: PlanModeContext;
  readonly permissions?: PermissionPolicyOptions;
  readonly approvePlan?: Approve<PlanApprovalRequest<string>>;
  readonly approveTool?: Approve<CallApprovalRequest>;
}

export interface PlanModeWiring {
  readonly setup: PlanModeSetup;
  readonly context: PlanModeContext;
  readonly guarded: GuardedTools;
}

const OPTION_KEYS: readonly string[] = [
  'plansDir',
  'store',
  'planFile',
  'todos',
  'maxPlanLength',
  'reminders',
];

/**
 * The plan mode a PlanAgent asked for, or undefined for none (`planMode` false or absent).
 * @throws {TypeError} naming the bad option value.
 */
export function wirePlanMode(
  options: PlanModeWiringOptions,
  registry: ToolRegistry,
  where = 'PlanAgent',
): PlanModeWiring | undefined {
  const { planMode, context, approveTool } = options;
  if (planMode === undefined || planMode === false) return undefined;
  if (isPlanModeSetup(planMode)) {
    // Shared: the same latch, plan tools, todo list and plan file; this agent's own tools and guard.
    if (context !== undefined && context.latch !== planMode.latch) {
      throw new TypeError(`${where}: context reads another latch than the planMode setup given`);
    }
    const shared = context ?? planMode.context;
    const guarded = guardTools([...registry.tools(), ...planMode.planTools], shared.policy, {
      ...(approveTool && { approve: approveTool }),
      latch: shared.latch,
    });
    return { setup: planMode, context: shared, guarded };
  }
  if (planMode !== true && (planMode === null || typeof planMode !== 'object' || Array.isArray(planMode))) {
    throw new TypeError(
      `${where}: planMode must be true, an options object or a setupPlanMode() result, not ${describeValue(planMode)}`,
    );
  }
  const chosen = planMode === true ? {} : planMode;
  const unknown = Object.keys(chosen).find((key) => !OPTION_KEYS.includes(key));
  if (unknown !== undefined) {
    throw new TypeError(
      `${where}: planMode has an unknown option ${describeValue(unknown)}; it takes ${OPTION_KEYS.join(', ')} (approvePlan, approveTool, permissions and context are the agent's own options)`,
    );
  }
  if (options.approvePlan === undefined) {
    throw new TypeError(
      `${where}: planMode needs approvePlan, the person who approves the plan when the model calls exit_plan_mode; pass approvePlan: () => true to accept every plan`,
    );
  }
  try {
    const setup = setupPlanMode({
      ...chosen,
      tools: registry,
      approve: options.approvePlan,
      ...(approveTool && { approveTool }),
      ...(context && { context }),
      ...(options.permissions && { permissions: options.permissions }),
    });
    return { setup, context: setup.context, guarded: setup.guarded };
  } catch (error) {
    throw asPlanModeOptionError(error, where);
  }
}

/** `planTools: plansDir must be ...` as `PlanAgent: planMode.plansDir must be ...`: named as the user wrote it. */
function asPlanModeOptionError(error: unknown, where: string): unknown {
  if (!(error instanceof TypeError)) return error;
  for (const prefix of ['setupPlanMode: ', 'planTools: ']) {
    if (!error.message.startsWith(prefix)) continue;
    const rest = error.message.slice(prefix.length);
    if (OPTION_KEYS.some((key) => rest.startsWith(`${key} `))) {
      return new TypeError(`${where}: planMode.${rest}`, { cause: error });
    }
  }
  return error;
}
