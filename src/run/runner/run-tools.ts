/**
 * The tools a run calls: its registry with the quotas applied (see run/limit), and what a
 * workflow's sub-run takes from the run.
 */
import { ToolRegistry } from '../../tools/registry.js';
import { type LimitedRun, limitedTools } from '../limit/index.js';
import type { CallSlots } from '../schedule/index.js';
import type { ParentRun, RunEvent, RunOptions } from '../types.js';
import { SubRuns } from './sub-run-results.js';

/**
 * The run's tools, limited (see limitedTools), and what a workflow's sub-run takes from
 * the run: its options with the run's limiter, the one made for it included, so a sub-run's
 * calls share the run's quotas; and the top run's slots, so a sub-run pauses with it.
 */
export function runTools(options: {
  readonly options: RunOptions;
  readonly emit: ((event: RunEvent) => void) | null;
  /** The run: its slots made already (a sub-run's follow the top run's, CallSlots.root). */
  readonly run: LimitedRun & { readonly slots: CallSlots };
}): { tools: ToolRegistry; asParent: ParentRun } {
  const given = options.options;
  const { tools, limiter } = limitedTools({
    tools: ToolRegistry.from(given.tools),
    limiter: given.limiter,
    run: options.run,
  });
  const parentOptions = limiter === given.limiter ? given : { ...given, limiter };
  const subRuns = new SubRuns(options.run);
  const { emit, run } = options;
  const dispatch = run.slots.root;
  return { tools, asParent: Object.freeze({ options: parentOptions, emit, subRuns, dispatch }) };
}
