/**
 * The JSON Schema of a plan over a set of tools, for constrained decoding (a product of the
 * compile's rules, not one of its stages).
 */
export {
  PLAN_SCHEMA_FORMATS,
  PLAN_SCHEMA_MODES,
  PLAN_SCHEMA_SHAPES,
  planSchema,
  type PlanSchemaOptions,
} from './plan-schema.js';
