/**
 * planmode/import: the field's plan dialects (NESTFUL, NesTools, LLMCompiler) read into
 * planmode plans and tool manifests.
 */
export { IMPORT_DEFAULTS, importPlans } from './import-plans.js';
export * from './types.js';
export {
  MOCK_DEFAULTS,
  type LatencyDraw,
  type MockLatency,
  type MockToolsOptions,
  mockLatencyMs,
  mockTools,
} from './mock/index.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  EVAL_DEFAULTS,
  type EvalDiagnostic,
  type EvalOverall,
  type EvalResult,
  type EvalSample,
  type F1Score,
  type LossReason,
  MAX_SAMPLES,
  type SampleScore,
  type Samples,
  type ScoreDirsOptions,
  type ScoreOptions,
  type ScorePlansOptions,
  scoreDirs,
  scorePlans,
} from './eval/index.js';
