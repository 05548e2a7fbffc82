/** Questions about one call of a compiled plan, answered on its graph (see explain.ts). */
export { edgeText } from './edges.js';
export { explainCall, PlanExplainer } from './explain.js';
export type {
  BlockedOutcome,
  BoundedIds,
  CallExplanation,
  ExplainDependency,
  ExplainEdge,
  ExplainLink,
  ExplainOptions,
} from './types.js';
