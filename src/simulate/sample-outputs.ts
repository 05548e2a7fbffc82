/**
 * Simulated outputs: one sample per tool from its `outputSchema` (json-schema-faker, seeded),
 * the `_output` of a latent call, or the unknown placeholder for a tool without a schema (a
 * `_forEach` call's array of them is made in the walk, see for-each-sample.ts).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { generateSync } from 'json-schema-faker';
import type { CompiledCall } from '../compile/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { JsonSchema } from '../tools/tool.js';
import { DEFAULT_LIMITS, type Limits } from '../language/limits.js';
import { withArrayItems } from './array-items.js';
import { schemaForFaker } from './faker-schema.js';
import { FAKER_MAX_DEPTH, sampleBudget } from './sample-budget.js';
import type { Sample } from './types.js';

type Generate = typeof generateSync;
let generate: Generate | undefined;

/**
 * json-schema-faker, loaded at the first sample instead of at import, so that importing
 * planmode (whose simulate() stays synchronous) does not pay for it. The package is ES modules
 * only, with no `require` export: its entry is resolved as an import would, then required
 * (Node >= 20.19 requires ES modules without top-level await).
 */
function loadFaker(): Generate {
  if (!generate) {
    const entry = import.meta.resolve('json-schema-faker');
    const faker = createRequire(import.meta.url)(fileURLToPath(entry)) as { generateSync: Generate };
    generate = faker.generateSync;
  }
  return generate;
}

/** What a call without a known output writes: reads of it exist, and are not type-checked. */
export const UNKNOWN_SAMPLE: Sample = Object.freeze({ source: 'unknown', value: null });

const FAKER_OPTIONS = {
  // Every property present: a reader of an optional property must not be skipped, or not,
  // depending on the sample; a dry run should show what runs when the tool fills it in.
  alwaysFakeOptionals: true,
  // Arrays hold at least one element, so `†state.list[0]` and `[*]` reads have something.
  minItems: 1,
  maxItems: 3,
  useDefaultValue: true,
  maxDepth: FAKER_MAX_DEPTH,
} as const;

/**
 * One sample per tool, not per call: a call's output does not depend on its inputs in a dry
 * run, and sampling 100k calls would cost more than walking them. A tool's sample is seeded
 * with the simulation's seed mixed with the tool's name, so adding a tool changes no other sample.
 */
export class OutputSampler {
  readonly #byTool = new Map<string, Sample>();
  /**
   * The tools whose `outputSchema` was not sampled because no sample within the limits could be
   * made of it (see sample-budget.ts), each with why: their calls' outputs are unknown.
   */
  readonly refused = new Map<string, string>();

  constructor(
    private readonly tools: ToolRegistry | undefined,
    private readonly seed: number,
    private readonly mode: 'eager' | 'lazy',
    private readonly limits: Limits = DEFAULT_LIMITS,
  ) {}

  /** @param mode the mode of the plan the call is in (a workflow's plan has its own) */
  sample(call: CompiledCall, mode: 'eager' | 'lazy' = this.mode): Sample {
    if (call.hasOutput && mode === 'eager') return { source: 'output', value: call.output };
    let sample = this.#byTool.get(call.tool);
    if (!sample) {
      sample = this.#sampleTool(call.tool);
      this.#byTool.set(call.tool, sample);
    }
    return sample;
  }

  #sampleTool(name: string): Sample {
    const schema: JsonSchema | undefined = this.tools?.get(name)?.tool.outputSchema;
    if (schema === undefined) return UNKNOWN_SAMPLE;
    const sampled = sampleSchema(schema, mixSeed(this.seed, name), this.limits);
    if (sampled.kind === 'refused') this.refused.set(name, sampled.reason);
    return sampled.kind === 'value' ? { source: 'schema', value: sampled.value } : UNKNOWN_SAMPLE;
  }
}

/** A sample of a schema: a value, none (the schema says nothing faker can use), or refused (why). */
export type SchemaSample =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'none' }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * One sample of `schema` (json-schema-faker, seeded with `seed`): the same schema and seed give
 * the same value in any process, since the faker makes a fresh generator from `seed` on every
 * call. The schema is held to the limits a result is (see sample-budget.ts) before the faker sees it.
 */
export function sampleSchema(
  schema: JsonSchema,
  seed: number,
  limits: Limits = DEFAULT_LIMITS,
): SchemaSample {
  // Outside the try: a faker that cannot be loaded is an error to see, not an unknown sample.
  const fake = loadFaker();
  try {
    const budget = sampleBudget(withArrayItems(schemaForFaker(schema)), limits);
    if (!budget.ok) return { kind: 'refused', reason: budget.reason };
    const value = fake(budget.schema as Parameters<Generate>[0], {
      ...FAKER_OPTIONS,
      // A sample nests no deeper than a result may (the faker's levels are objects and arrays).
      maxDepth: Math.max(1, Math.min(FAKER_MAX_DEPTH, limits.maxDepth - 1)),
      seed,
    });
    // A schema faker cannot satisfy (an unresolvable $ref, `false`), or one that says nothing
    // of the value (`{}`, `true`: faker gives null), is as good as none.
    if (value === undefined || (value === null && !namesNull(schema))) return { kind: 'none' };
    return { kind: 'value', value: JSON.parse(JSON.stringify(value)) as unknown };
  } catch {
    return { kind: 'none' };
  }
}

/** True when a schema asks for null somewhere (`type: "null"`, `const: null`, `enum: [null]`). */
function namesNull(schema: JsonSchema): boolean {
  return typeof schema === 'object' && /"null"|:null\b|\bnull[,\]]/.test(JSON.stringify(schema));
}

/** FNV-1a of `name`, mixed with `seed`: a whole number faker's generator accepts (never 0). */
export function mixSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0 || 1;
}
