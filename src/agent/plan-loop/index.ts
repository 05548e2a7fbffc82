/**
 * The plan loop (`PlanAgent.solve()`): the model answers with a plan, the plan is compiled,
 * repaired, approved and run, and the model is asked again with what happened, within a
 * budget. Also the JSON Schema a solution is written in, and where a loop starts from.
 */
export {
  type BudgetName,
  type BudgetReport,
  type BudgetSpent,
  DEFAULT_BUDGET,
  resolveBudget,
  type SolveBudget,
} from './budget.js';
export { solutionSchema, type SolutionSchemaOptions } from './solution-schema.js';
export { solve } from './solve.js';
export type { FailedCallRecord, SolveOptions, SolveResult } from './solve-types.js';
export { type SolveApprovalRequest, type SolvePlanApprovalRequest } from './solve-approvals.js';
export { RESULT_SHOWN_CHARS, RESULTS_SHOWN_CHARS } from './solve-results.js';
export { solveStart } from './solve-start.js';
export {
  checkSessionTools,
  definitionDigest,
  SESSION_SNAPSHOT_VERSION,
  type SessionSideEffect,
  type SolveSession,
  type SolveSnapshot,
} from './session.js';
export { readSnapshot, type SnapshotSource } from './session-read.js';
export {
  DEFAULT_MAX_SESSION_BYTES,
  type FileSession,
  fileSession,
  type FileSessionOptions,
} from './session-file.js';
