/**
 * Mock tools for running the field's plans without their APIs: each tool of a JSON manifest
 * answers with a value sampled from its `outputSchema` (json-schema-faker, through the dry
 * run's own sampler), seeded by (seed, tool name, canonical JSON of the arguments). The same
 * call gives the same answer in any process and in any order of calls, so a gold plan and a
 * model's plan that make the same call see the same value, and their final outputs can be
 * compared.
 */
import { resolveLimits, type Limits } from '../../language/limits.js';
import { canonicalJson } from '../../run/journal/index.js';
import { sleep } from '../../run/retry.js';
import { mixSeed, sampleSchema } from '../../simulate/sample-outputs.js';
import { type JsonSchema, type Tool, type ToolContext, toolsFromManifest } from '../../tools/index.js';
import type { ToolManifest } from '../types.js';
import { checkLatency, type MockLatency, mockLatencyMs } from './mock-latency.js';
import { checkOptions, type OptionSpec } from '../../language/option-keys.js';

/** The defaults of {@link MockToolsOptions}. */
export const MOCK_DEFAULTS = { seed: 0 } as const;

/** Options of {@link mockTools}. */
export interface MockToolsOptions {
  /**
   * Mixed into every sample and every latency draw: another seed, other answers.
   * @default 0
   */
  readonly seed?: number;
  /**
   * Each call waits a duration drawn from `[minMs, maxMs]` (see `mockLatencyMs`), keyed by the
   * seed, the tool, the arguments and how many times those arguments were called before; the
   * wait ends early, with the abort's reason, when the call's `abortSignal` fires. Without it a
   * call answers at once and sets no timer.
   * @default undefined (no wait)
   */
  readonly latency?: MockLatency;
  /**
   * Bounds on a sampled value (its depth and size), as for a dry run's samples.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
}

/**
 * planmode tools with an `execute` for every tool of `manifest` (its name, description and
 * schemas kept). `execute` returns a sample of the tool's `outputSchema`, the same for the same
 * seed, tool and arguments; a tool without `outputSchema` (or with one no sample can be made
 * of within the limits) returns `null`.
 *
 * @throws {ToolsFileError} when `manifest` is not `{tools: [...]}` of definitions.
 * @throws {TypeError} for a bad option value.
 */
/** seed, latency and limits have their own checks. */
const MOCK_TOOLS_OPTIONS: OptionSpec<MockToolsOptions> = {
  seed: 'any',
  latency: 'any',
  limits: 'any',
};

export function mockTools(manifest: ToolManifest, options: MockToolsOptions = {}): Tool[] {
  checkOptions('mockTools', options, MOCK_TOOLS_OPTIONS);
  const seed = options.seed ?? MOCK_DEFAULTS.seed;
  if (!Number.isSafeInteger(seed))
    throw new TypeError(`Expected seed to be a whole number, got ${String(seed)}`);
  const latency = options.latency === undefined ? undefined : checkLatency(options.latency);
  const limits = resolveLimits(options.limits);
  return toolsFromManifest(manifest, 'the mock manifest').map((definition) => {
    const answer = answerOf(definition.name, definition.outputSchema, seed, limits);
    if (!latency)
      return { ...definition, execute: (args: Record<string, unknown>) => answer(canonicalJson(args)) };
    // Per tool: how many times each argument text was called, for the n of the latency draw.
    const calls = new Map<string, number>();
    const execute = async (args: Record<string, unknown>, context: ToolContext) => {
      const text = canonicalJson(args);
      const nth = (calls.get(text) ?? 0) + 1;
      calls.set(text, nth);
      await sleep(
        mockLatencyMs({ seed, tool: definition.name, args: text, nth, latency }),
        context.abortSignal,
      );
      return answer(text);
    };
    return { ...definition, execute };
  });
}

/** The answer of one tool to the arguments given as canonical JSON. */
function answerOf(
  name: string,
  schema: JsonSchema | undefined,
  seed: number,
  limits: Limits,
): (args: string) => unknown {
  if (schema === undefined) return () => null;
  return (args) => {
    const sampled = sampleSchema(schema, mixSeed(seed, `${name}\n${args}`), limits);
    return sampled.kind === 'value' ? sampled.value : null;
  };
}
