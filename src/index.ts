/**
 * planmode: compile the tool-call plans LLMs write into validated dependency graphs, run them
 * and dry-run them. Every name here is documented in docs/library.md; the optional parts have
 * their own entry points (planmode/report, planmode/agent, planmode/adapters,
 * planmode/distributed), and none of their names is repeated here. Importing this entry loads
 * no model SDK, queue, MCP SDK, schema faker or layout engine.
 */

// The language: parsing a plan or a context, its diagnostics and the limits on what is read.
export {
  DEFAULT_LIMITS,
  type Diagnostic,
  DIAGNOSTIC_CODES,
  type DiagnosticCode,
  type DocumentShape,
  type ExecutionMode,
  type Limits,
  parseContext,
  parsePlan,
  type ParsePlanOptions,
  type ParsePlanResult,
  type Path,
  type PathSegment,
  type PlanDocument,
  type PlanInput,
  type PlanRequest,
  type PlanTextEnd,
  PlanTextReader,
  type PlanTextReaderOptions,
  resolveLimits,
  type Severity,
  SIMULATION_CODES,
  type StreamedCall,
  streamPlanText,
  type StreamedPlanText,
} from './language/index.js';

// Compile.
export {
  type ArgumentReference,
  type BindingKind,
  compile,
  type CompiledCall,
  type CompiledPlan,
  type CompileOptions,
  type CompileResult,
  type CompileSuccess,
  type CompileFailure,
  type Dependency,
  type DependencyKind,
  type OrderReason,
  type OutputPath,
  type ReadBinding,
} from './compile/index.js';
export { planSchema, type PlanSchemaOptions } from './compile/plan-schema/index.js';

// Tools.
export {
  defineTool,
  type JsonSchema,
  endLoop,
  EndLoopSignal,
  isEndLoopSignal,
  loadToolsFile,
  type LoadToolsFileOptions,
  type LoopEnding,
  type PlanOrigin,
  type Quota,
  type RateLimit,
  type RetryPolicy,
  type Tool,
  type ToolAnnotations,
  type ToolContext,
  ToolRegistry,
  toolsFromManifest,
} from './tools/index.js';

// Run.
export {
  type ApprovalRequest,
  type ApprovalResponse,
  type Approve,
  type CallApprovalRequest,
  type PlanApprovalRequest,
  BRANCH_KEY,
  type BranchValue,
  branch,
  type CallError,
  type CallReport,
  type CallStatus,
  type EarlierVersionReport,
  isBranchValue,
  type LatentFunction,
  type LatentRequest,
  type NotReusedCall,
  type NotReusedReason,
  type ParentCall,
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
  MAX_WORKFLOW_DEPTH,
  run,
  type StaleJournalLock,
  startRun,
  createLimiter,
  isLimiter,
  Limiter,
  type LimiterGroupState,
  type LimiterOptions,
  type TracingOptions,
  type WorkflowInnerCall,
  type WorkflowRunEvent,
} from './run/index.js';

// Questions about one call of a compiled plan, on its graph.
export {
  type BlockedOutcome,
  type BoundedIds,
  type CallExplanation,
  type ExplainDependency,
  type ExplainEdge,
  explainCall,
  type ExplainLink,
  type ExplainOptions,
  PlanExplainer,
} from './explain/index.js';

// Dry run.
export {
  type ArgumentError,
  type Sample,
  type SampleSource,
  type Scenario,
  type SimulateOptions,
  type Simulation,
  simulate,
} from './simulate/index.js';

// Every error of every part, with its guard: one module, so that no error has two homes.
export * from './errors.js';
