/**
 * A run's tools with their quotas applied: each tool that a quota limits (its own, its group's,
 * or the limiter's for its group) gets an `execute` that waits for its group's queue; every
 * other tool is the very definition it was. A run whose tools have no quota and which was
 * given no limiter gets its registry back as is: its calls never meet a queue.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { Quota } from '../../tools/quota.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Tool, ToolContext } from '../../tools/tool.js';
import { callPriority } from './call-priority.js';
import { createLimiter, type Limiter } from './limiter.js';
import { checkNestedGroups } from './nested-groups.js';

/** What the wrapping needs of the run: its plan as it stands when a call asks. */
export interface LimitedRun {
  readonly plan: CompiledPlan;
}

export interface LimitedToolsOptions {
  readonly tools: ToolRegistry;
  /** The run's `limiter` option; one is made for the run when a tool has a quota and this is absent. */
  readonly limiter: Limiter | undefined;
  /** The run, for its calls' priorities; null for a worker (no plan: arrival order). */
  readonly run: LimitedRun | null;
}

export interface LimitedTools {
  readonly tools: ToolRegistry;
  /** The limiter the run's limited calls go through; undefined when none is. */
  readonly limiter: Limiter | undefined;
}

/**
 * @throws {TypeError} when a group is given two quotas (by two tools of one MCP server, or by
 *   this run and an earlier one sharing the limiter), or when a workflow and a tool its plan
 *   calls share a group with a concurrency (see nested-groups.ts).
 */
export function limitedTools(options: LimitedToolsOptions): LimitedTools {
  const { tools, run } = options;
  let limiter = options.limiter;
  const replaced = new Map<string, Tool>();
  const groups = new Map<string, { group: string; quota: Quota }>();
  for (const name of tools.names()) {
    const tool = tools.get(name)!.tool;
    const declared = declaredQuota(tool);
    if (declared === undefined && limiter === undefined) continue;
    limiter ??= createLimiter();
    const group = tool.quotaGroup ?? name;
    const quota = limiter.quotaFor(group, declared);
    if (quota === undefined || typeof tool.execute !== 'function') continue;
    limiter.claim(group, quota);
    groups.set(name, { group, quota });
    replaced.set(name, limitedTool(tool, limiter, group, quota, run));
  }
  if (replaced.size === 0) return { tools, limiter: options.limiter };
  checkNestedGroups(tools, limiter!, (name) => groups.get(name));
  return { tools: tools.withTools(replaced), limiter };
}

function declaredQuota(tool: Tool): Quota | undefined {
  const { concurrency, rateLimit } = tool;
  if (concurrency === undefined && rateLimit === undefined) return undefined;
  return { ...(concurrency !== undefined && { concurrency }), ...(rateLimit !== undefined && { rateLimit }) };
}

function limitedTool(
  tool: Tool,
  limiter: Limiter,
  group: string,
  quota: Quota,
  run: LimitedRun | null,
): Tool {
  const execute = tool.execute!;
  return {
    ...tool,
    execute: (args: Record<string, unknown>, context: ToolContext) =>
      limiter.schedule(group, quota, () => execute.call(tool, args, context), {
        priority: run === null ? 0 : callPriority(run.plan, context.toolCallId),
        signal: context.abortSignal,
      }),
  };
}
