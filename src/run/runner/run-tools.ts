/**
 * The tools a run calls: its registry with the quotas applied (see run/limit), and what a
 * workflow's sub-run takes from the run.
 */
import { ToolRegistry } from '../../tools/registry.js';
import { type LimitedRun, limitedTools } from '../limit/index.js';
import type { ParentRun, RunEvent, RunOptions } from '../types.js';
import { SubRuns } from './sub-run-results.js';

/**
 * The run's tools, limited (see limitedTools), and what a workflow's sub-run takes from
 * the run: its options with the run's limiter, the one made for it included, so a sub-run's
 * calls share the run's quotas.
 */
export function runTools(options: {
  readonly options: RunOptions;
  readonly emit: ((event: RunEvent) => void) | null;
  readonly run: LimitedRun;
}): { tools: ToolRegistry; asParent: ParentRun } {
  const given = options.options;
  const { tools, limiter } = limitedTools({
    tools: ToolRegistry.from(given.tools),
    limiter: given.limiter,
    run: options.run,
  });
  const parentOptions = limiter === given.limiter ? given : { ...given, limiter };
  const subRuns = new SubRuns(options.run);
  return { tools, asParent: Object.freeze({ options: parentOptions, emit: options.emit, subRuns }) };
}
