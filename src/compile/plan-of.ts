/**
 * Which compiled plan a run result or a simulation came from. `run()` and `simulate()` note it
 * here, so `renderReport(result)` needs no second argument; a copy (JSON, structuredClone) or a
 * result from another process has no entry, and then the plan must be passed along.
 */
import type { CompiledPlan } from './types.js';

const plans = new WeakMap<object, CompiledPlan>();

/** Notes that `value` came from `plan`, and returns `value`. */
export function rememberPlan<T extends object>(value: T, plan: CompiledPlan): T {
  plans.set(value, plan);
  return value;
}

/** The plan `value` came from, when this process made it. */
export function planOf(value: object): CompiledPlan | undefined {
  return plans.get(value);
}
