/** planmode: compile the tool-call plans LLMs write into validated dependency graphs. */

export type {
  ArgumentReference,
  BindingKind,
  CompiledCall,
  CompiledPlan,
  Dependency,
  DependencyKind,
  OutputPath,
  ReadBinding,
} from './compile/index.js';
export { type CompileOptions, type CompileResult, compile } from './compile/index.js';
export {
  ApprovalRejectedError,
  type DenialCause,
  type PermissionDenial,
  isApprovalRejectedError,
  isPermissionDeniedError,
  isPlanModeTransitionError,
  PermissionDeniedError,
  PlanModeTransitionError,
  isPlanError,
  isPlanValidationError,
  isToolDefinitionError,
  isRunCancelledError,
  isToolExecutionError,
  isToolTimeoutError,
  isToolsFileError,
  isMissingDependencyError,
  MissingDependencyError,
  type MissingDependencyErrorOptions,
  PlanError,
  PlanValidationError,
  RunCancelledError,
  ToolDefinitionError,
  TOOL_ERROR_CODES,
  type ToolErrorCode,
  ToolExecutionError,
  type ToolExecutionErrorOptions,
  ToolTimeoutError,
  ToolsFileError,
  type ToolsFileErrorOptions,
} from './errors.js';
export {
  DEFAULT_LIMITS,
  DIAGNOSTIC_CODES,
  MAX_DEPTH_CEILING,
  resolveLimits,
  type Diagnostic,
  type DiagnosticCode,
  type DocumentShape,
  type Expression,
  formatPath,
  type Limits,
  type ParsePlanOptions,
  type ParsePlanResult,
  type Path,
  type PathSegment,
  type PlanDocument,
  type ExecutionMode,
  parseContext,
  parseExpression,
  parsePlan,
  parseString,
  type Reference,
  resolveExpression,
  resolveReference,
  type Severity,
  SIMULATION_CODES,
} from './language/index.js';
export {
  type GraphJson,
  type GraphJsonEdge,
  type GraphJsonNode,
  type GraphJsonOutput,
  type GraphlibEdge,
  type GraphlibNode,
  REPORT_LAYOUTS,
  type ReportInput,
  type ReportOptions,
  renderReport,
  toDot,
  toGraphJson,
  toGraphlib,
  toMermaid,
} from './report/index.js';
export {
  type ArgumentError,
  DEFAULT_MAX_SCENARIOS,
  DEFAULT_SEED,
  type Sample,
  type SampleSource,
  type Scenario,
  type SimulateOptions,
  type Simulation,
  simulate,
} from './simulate/index.js';
export {
  defineTool,
  type JsonSchema,
  loadToolsFile,
  type RetryPolicy,
  type Tool,
  type ToolAnnotations,
  type ToolContext,
  ToolRegistry,
  toolsFromManifest,
} from './tools/index.js';
export {
  type ApprovalRequest,
  BRANCH_KEY,
  type BranchValue,
  branch,
  type CallError,
  type CallReport,
  type CallStatus,
  isBranchValue,
  isJournalError,
  Journal,
  JournalError,
  journalKey,
  type LatentFunction,
  type RemoteCall,
  type RemoteInvoker,
  type RemoteRetry,
  type Retries,
  type ReusedResult,
  type ReuseRequest,
  type RunEvent,
  type RunHandle,
  type RunOptions,
  type RunResult,
  type RunStatus,
  run,
  startRun,
} from './run/index.js';
// Plan mode for agents (all of it, the model contract and the providers, in planmode/agent).
// Imported file by file, so that `planmode` does not load the model SDKs.
export type { AgentEvent } from './agent/agent-events.js';
export type { ApprovalResponse } from './agent/approval.js';
export {
  type GuardedCallResult,
  type GuardedTools,
  type GuardToolsOptions,
  guardTools,
} from './agent/guard-tools.js';
export type { PermissionChecker, PermissionDecision } from './agent/permission.js';
export {
  PERMISSION_MODES,
  type PermissionMode,
  PermissionPolicy,
  type PermissionPolicyOptions,
} from './agent/permission-policy.js';
export {
  type ExecuteOutcome,
  PlanAgent,
  type PlanAgentOptions,
  type PlanOutcome,
} from './agent/plan-agent.js';
export {
  PlanMode,
  type PlanModeChange,
  type PlanModeOptions,
  type PlanModeState,
} from './agent/plan-mode.js';
export { PlanModeContext } from './agent/plan-mode-context.js';
export { PlanModePolicy, type PlanModePolicyOptions } from './agent/plan-mode-policy.js';
export { type PlanModeSetup, type PlanModeSetupOptions, setupPlanMode } from './agent/plan-mode-setup.js';
export {
  type PlanModeSnapshot,
  planModeSnapshot,
  readPlanModeSnapshot,
  restorePlanMode,
} from './agent/plan-mode-snapshot.js';
export { planTools, type PlanToolList, type PlanToolsOptions } from './agent/plan-tools.js';
export { solutionSchema } from './agent/solution-schema.js';
export type { SolveOptions, SolveResult } from './agent/solve.js';
export { type Todo, TodoList } from './agent/todos.js';
export { ToolClassifier } from './agent/tool-classifier.js';
export { planTodos, TodoPlan, type TodoPlanOutcome } from './agent/todo-plan.js';
export type { TodoPlanEvent, TodoPlanHooks } from './agent/todo-plan-events.js';
export type { TodoPlanOptions } from './agent/todo-plan-options.js';
export type { PlannedTodo, TodoChange, TodoPlanJson, TodoPlanState } from './agent/todo-plan-types.js';
export { isPlanAlreadyExecutedError, PlanAlreadyExecutedError } from './errors.js';
