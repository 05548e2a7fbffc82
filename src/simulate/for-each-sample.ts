/**
 * A `_forEach` call in the dry run. How many elements it has: the length of the array its
 * `_forEach` reads in the walk, at most `forEachSamples`; when that array is unknown (written by
 * a call whose output is not sampled), `forEachSamples`. What it writes: that many of its tool's
 * sample (or, over a workflow, of each element's sub-plan output). How long it takes: its
 * elements run in lanes, as many as the run's concurrency, so `ceil(count / concurrency)` times
 * the duration of one element (the slowest one, over a workflow).
 */
import { FOR_EACH_POINTER, type CompiledCall } from '../compile/types.js';
import type { JsonObject } from '../language/document.js';
import { cloneJson, setOwnProperty } from '../language/json/index.js';
import { resolveLoopReference } from '../language/loop-reference.js';
import { splitPointer } from '../language/pointer.js';
import type { ResolvedArgument } from './call-arguments.js';
import type { Sample } from './types.js';

/** Elements simulated per `_forEach` call, at most (see SimulateOptions.forEachSamples). */
export const DEFAULT_FOR_EACH_SAMPLES = 3;
/** The concurrency elements run within, as in a run without the option. */
export const DEFAULT_SIMULATED_CONCURRENCY = 16;

/** How a walk counts and times the elements of `_forEach` calls. */
export interface ForEachModel {
  /** True when the plan has a `_forEach` call. */
  readonly present: boolean;
  /** The most elements simulated per call; the count when the array is unknown. */
  readonly samples: number;
  /** How many elements of a call to `tool` run at once. */
  lanesOf(tool: string): number;
  /** The duration of one call of `tool` (its `estimatedMs`, else 1). */
  weightOf(tool: string): number;
}

/** The array a `_forEach` call reads in this walk, or null when it is unknown or not an array. */
export function forEachArray(resolved: readonly ResolvedArgument[] | null): readonly unknown[] {
  const found = resolved?.find((r) => r.at === FOR_EACH_POINTER);
  return found && Array.isArray(found.value) ? found.value : [];
}

/** How many elements the walk gives a `_forEach` call: see the file's comment. */
export function elementCount(resolved: readonly ResolvedArgument[] | null, samples: number): number {
  const found = resolved?.find((r) => r.at === FOR_EACH_POINTER);
  if (found === undefined || found.unknown || !Array.isArray(found.value)) return samples;
  return Math.min(found.value.length, samples);
}

/**
 * The arguments one element's tool gets, as a run gives them: `†item`, `†index` filled in (a
 * nested one's top-level value copied first), `_forEach` left out.
 */
export function elementArguments(
  call: CompiledCall,
  args: JsonObject,
  item: unknown,
  index: number,
): JsonObject {
  const out: JsonObject = { ...args };
  delete out['_forEach'];
  for (const { at, ref } of call.forEach?.loopArguments ?? []) {
    const value = (resolveLoopReference(ref, item, index) ?? null) as JsonObject[string];
    const tokens = splitPointer(at);
    const top = tokens[0]!;
    if (tokens.length === 1) {
      setOwnProperty(out, top, value);
      continue;
    }
    setOwnProperty(out, top, cloneJson(out[top]) as JsonObject[string]);
    let container = out[top] as Record<string, unknown>;
    for (let t = 1; t < tokens.length - 1; t++) container = container[tokens[t]!] as Record<string, unknown>;
    setOwnProperty(container as JsonObject, tokens[tokens.length - 1]!, value);
  }
  return out;
}

/** What a `_forEach` call over a plain tool writes: `count` of its tool's sample. */
export function repeatSample(sample: Sample, count: number): Sample {
  if (sample.source === 'unknown') return sample;
  const value: unknown[] = [];
  for (let k = 0; k < count; k++) value.push(sample.value);
  return { source: sample.source, value };
}
