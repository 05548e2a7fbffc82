/**
 * planmode/agent: the model contract, model providers and plan mode for agents. The errors of
 * this layer (PermissionDeniedError, ModelProviderError, ...) come from `planmode`, with all
 * the others. A provider loads its SDK (openai, @anthropic-ai/sdk) at its first request, so
 * importing this entry loads neither.
 */
export * from './model.js';
export * from './complete.js';
export * from './providers/index.js';
export type { Glob } from './permissions/glob.js';
export {
  type GuardedCallOptions,
  type GuardedCallResult,
  type GuardedTools,
  type GuardToolsOptions,
  guardTools,
} from './plan-mode/guard-tools.js';
export {
  isPermissionChecker,
  PERMISSION_BEHAVIORS,
  type PermissionBehavior,
  type PermissionChecker,
  type PermissionDecision,
} from './permissions/permission.js';
export {
  PERMISSION_MODES,
  type PermissionMode,
  PermissionPolicy,
  type PermissionPolicyOptions,
} from './permissions/permission-policy.js';
export { PlanFile } from './plan-mode/plan-file.js';
export {
  isPlanModeLatch,
  PLAN_MODE_STATES,
  PlanMode,
  type PlanModeChange,
  type PlanModeJson,
  type PlanModeObserver,
  type PlanModeOptions,
  type PlanModeState,
} from './plan-mode/plan-mode.js';
export {
  type PlanModeChildOptions,
  PlanModeContext,
  type PlanModeContextOptions,
} from './plan-mode/plan-mode-context.js';
export { PlanModePolicy, type PlanModePolicyOptions } from './plan-mode/plan-mode-policy.js';
export {
  isPlanModeSetup,
  type PlanModeSetup,
  type PlanModeSetupOptions,
  setupPlanMode,
} from './plan-mode/plan-mode-setup.js';
export {
  DEFAULT_MAX_PLAN_LENGTH,
  type PlanModeParts,
  type PlanModeSnapshot,
  planModeSnapshot,
  readPlanModeSnapshot,
  type ReadPlanModeSnapshotOptions,
  restorePlanMode,
} from './plan-mode/plan-mode-snapshot.js';
export { isPlanToolName, PLAN_TOOL_NAMES, type PlanToolName } from './permissions/plan-tool-names.js';
export { DEFAULT_PLANS_DIR, type PlanToolList, planTools, type PlanToolsOptions } from './plan-mode/plan-tools.js';
export { strictestOf } from './permissions/strictest-policy.js';
export { TODO_REMINDER_HEADING, todoReminder, todoReminderText } from './plan-mode/todo-reminder.js';
export {
  MAX_TODO_CONTENT,
  MAX_TODOS,
  readTodos,
  type Todo,
  TODO_STATUSES,
  TodoList,
  type TodoStatus,
} from './plan-mode/todos.js';
export { ToolClassifier, type ToolClassifierOptions } from './permissions/tool-classifier.js';
export {
  type AgentEvent,
  type AgentEventListener,
  type AgentPhase,
  type ToolCallOutcome,
} from './agent-events.js';
export {
  type ExecuteOutcome,
  PlanAgent,
  type PlanAgentChildOptions,
  type PlanAgentOptions,
  type PlanOutcome,
} from './plan-agent.js';
export { type PlanAgentPlanModeOptions } from './plan-agent-plan-mode.js';
export { EXIT_PLAN_TOOL, LATENT_PROMPT, PLAN_MODE_ADVICE, PLANNING_PROMPT, SOLVE_PROMPT } from './prompts.js';
export { solutionSchema, type SolutionSchemaOptions } from './plan-loop/solution-schema.js';
export { type FailedCallRecord, type SolveOptions, type SolveResult } from './plan-loop/solve.js';
export { type SolveApprovalRequest, type SolvePlanApprovalRequest } from './plan-loop/solve-approvals.js';
export { RESULT_SHOWN_CHARS, RESULTS_SHOWN_CHARS } from './plan-loop/solve-results.js';
export {
  type BudgetName,
  type BudgetReport,
  type BudgetSpent,
  DEFAULT_BUDGET,
  type SolveBudget,
} from './plan-loop/budget.js';
export {
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  isReplyTooLargeError,
  ReplyTooLargeError,
} from './providers/reply-bytes.js';
export { MAX_APPROVAL_ROUNDS, planTodos, TodoPlan, type TodoPlanOutcome } from './todo-plan/todo-plan.js';
export {
  TODO_PLAN_HOOK_NAMES,
  type TodoPlanEvent,
  type TodoPlanHooks,
  type TodoPlanListener,
} from './todo-plan/todo-plan-events.js';
export { MAX_TODOS_CEILING, TODO_PLAN_DEFAULTS, type TodoPlanOptions } from './todo-plan/todo-plan-options.js';
export { TODO_EXECUTOR_PROMPT, TODO_PLANNER_PROMPT, TODO_REFLECTOR_PROMPT } from './todo-plan/todo-plan-prompts.js';
export { MAX_GOAL_LENGTH } from './todo-plan/todo-plan-snapshot.js';
export {
  PLANNED_TODO_STATUSES,
  type PlannedTodo,
  type PlannedTodoStatus,
  type ReflectionAction,
  TODO_PLAN_STATES,
  type TodoChange,
  type TodoPlanExchange,
  type TodoPlanJson,
  type TodoPlanState,
  type TodoResult,
  type TodoToolCall,
  type TodoToolCallOutcome,
} from './todo-plan/todo-plan-types.js';
