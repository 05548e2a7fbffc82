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
