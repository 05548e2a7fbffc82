/**
 * Permissions: who may call which tool. A decision (allow, ask, deny) and the one method every
 * policy has, the rule-and-mode PermissionPolicy (modeled on Claude Code's permission modes),
 * the classifier that judges a tool read-only or mutating from the definition presented, glob
 * rules on tool names, and the names of the plan tools no mode blocks. It knows nothing of the
 * plan-mode latch: plan mode builds on it.
 */
export type { Glob } from './glob.js';
export {
  isPermissionChecker,
  PERMISSION_BEHAVIORS,
  type PermissionBehavior,
  type PermissionChecker,
  type PermissionDecision,
} from './permission.js';
export {
  PERMISSION_MODES,
  type PermissionMode,
  PermissionPolicy,
  type PermissionPolicyOptions,
} from './permission-policy.js';
export {
  isGenuinePlanTool,
  isPlanToolName,
  markPlanTool,
  PLAN_TOOL_NAMES,
  type PlanToolName,
} from './plan-tool-names.js';
export { strictestOf } from './strictest-policy.js';
export {
  checkPresented,
  planModeDenialReason,
  ToolClassifier,
  type ToolClassifierOptions,
} from './tool-classifier.js';
export { markWrapperOf } from './tool-identity.js';
