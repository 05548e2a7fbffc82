/**
 * The floor of bench/run: the least any Promise-based executor of a compiled plan can do. Per
 * call, one async function that awaits its inputs' promises, then the tool; nothing else (no
 * ready queue, no concurrency bound, no state beyond the values the calls pass on). It handles
 * what the benchmark plans contain (the same subset as bench/baseline-executor) and refuses
 * anything else.
 */
import type { CompiledPlan } from '../src/compile/index.js';
import type { BaselineExecute } from './baseline-executor.js';

export interface FloorOptions {
  /** `execute` of each tool, by name. */
  readonly tools: ReadonlyMap<string, BaselineExecute>;
}

function singleSegment(segments: readonly unknown[], what: string): string {
  const name = segments[0];
  if (segments.length !== 1 || typeof name !== 'string') {
    throw new Error(`floor executor: ${what} must be one †state segment`);
  }
  return name;
}

/** Runs every call once its inputs have settled; resolves to the final state. */
export async function runFloor(plan: CompiledPlan, options: FloorOptions): Promise<Record<string, unknown>> {
  const { calls } = plan;
  const promises = new Array<Promise<unknown>>(calls.length);
  const state: Record<string, unknown> = {};
  const one = async (i: number): Promise<unknown> => {
    const call = calls[i]!;
    // The inputs, one await each: what any executor must wait for.
    for (const d of call.dependencies) await promises[d.from];
    const args: Record<string, unknown> = { ...call.args };
    for (const ref of call.refs) {
      args[ref.at.slice(1)] = state[singleSegment(ref.expression.refs[0]!.segments, 'a reference')];
    }
    const value = await options.tools.get(call.tool)!(args);
    const output = call.outputPath;
    if (output) state[singleSegment(output.paths[0]!.segments, 'an output path')] = value;
    return value;
  };
  // In topological order, so that every input's promise exists when a call awaits it.
  for (const i of plan.order) promises[i] = one(i);
  await Promise.all(promises);
  return state;
}
