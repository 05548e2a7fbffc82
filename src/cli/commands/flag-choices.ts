/**
 * The values a flag of `plan` may take, listed in its help as commander's choices and checked
 * again by the command. Constants only, with nothing imported at run time: the program defines
 * every command's flags from here without loading any command's code.
 */
import type { PlanSchemaOptions } from '../../compile/plan-schema/index.js';

/** `plan graph --format`. */
export const GRAPH_FORMATS = ['mermaid', 'dot', 'json'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

/** `plan run --mode` and `plan agent --mode`. */
export const RUN_MODES = ['eager', 'lazy'] as const;

/*
 * The library's own lists (compile/plan-schema), repeated here because loading them loads the
 * schema builder; `satisfies` keeps each a subset of the library's, and test/cli/schema.test.ts
 * checks they are the same lists in the same order.
 */

/** `plan schema --mode`. */
export const PLAN_SCHEMA_MODES = ['eager', 'lazy'] as const satisfies readonly NonNullable<
  PlanSchemaOptions['mode']
>[];
/** `plan schema --format` and `plan agent --schema-format`. */
export const PLAN_SCHEMA_FORMATS = [
  'json-schema',
  'openai-strict',
  'grammar',
] as const satisfies readonly NonNullable<PlanSchemaOptions['format']>[];
/** `plan schema --shape`. */
export const PLAN_SCHEMA_SHAPES = ['calls', 'solution'] as const satisfies readonly NonNullable<
  PlanSchemaOptions['shape']
>[];
