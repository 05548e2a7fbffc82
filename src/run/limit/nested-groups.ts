/**
 * A workflow call that waits for a slot of a concurrency-limited group holds that slot while
 * its sub-plan runs. When a call inside the sub-plan (at any depth) needs a slot of the same
 * group, the two wait for each other: with `concurrency: 1`, at once; with N, as soon as N
 * workflow calls hold the N slots (a `_forEach` over the workflow gets there). Nothing would
 * ever free a slot, so the run would never end. A run whose tools can do that does not start:
 * this check finds the first such pair and says how to part them.
 *
 * The workflows' plans are walked with an explicit stack (never recursion), each workflow once
 * per check; a registry is checked once per limiter.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { Quota } from '../../tools/quota.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { workflowPlanValue } from '../../tools/workflow-definition.js';
import type { Limiter } from './limiter.js';

const checked = new WeakMap<ToolRegistry, WeakSet<Limiter>>();

/** A tool's group and the quota that holds for it (only groups with a `concurrency` matter here). */
export type GroupOf = (name: string) => { readonly group: string; readonly quota: Quota } | undefined;

/**
 * @throws {TypeError} naming the workflow, the tool inside it, their group and its bound, when
 *   a workflow's call could wait for a slot its own caller holds.
 */
export function checkNestedGroups(tools: ToolRegistry, limiter: Limiter, groupOf: GroupOf): void {
  let seen = checked.get(tools);
  if (seen?.has(limiter) === true) return;
  for (const name of tools.names()) {
    const outer = groupOf(name);
    if (outer?.quota.concurrency === undefined) continue;
    const plan = planOf(tools, name);
    if (plan === undefined) continue;
    const inside = firstInGroup(tools, plan, outer.group, groupOf);
    if (inside === undefined) continue;
    const via = inside.via.length === 0 ? '' : ` (through ${inside.via.map((w) => `'${w}'`).join(' → ')})`;
    throw new TypeError(
      `Expected workflow '${name}' and the tools its plan calls to use different quota groups: its plan calls '${inside.tool}'${via}, and both are in group '${outer.group}' (concurrency ${outer.quota.concurrency}); a call of '${name}' would hold the slot its own call of '${inside.tool}' waits for, and the run would never end. Give '${name}' a quotaGroup of its own, or no concurrency (its calls are limited inside)`,
    );
  }
  if (seen === undefined) checked.set(tools, (seen = new WeakSet()));
  seen.add(limiter);
}

function planOf(tools: ToolRegistry, name: string): CompiledPlan | undefined {
  const tool = tools.get(name)?.tool;
  if (tool === undefined) return undefined;
  const plan = workflowPlanValue(tool) as CompiledPlan | undefined;
  return plan !== undefined && Array.isArray(plan.calls) ? plan : undefined;
}

/** The first tool reachable from `plan` (through workflows) whose group is `group`. */
function firstInGroup(
  tools: ToolRegistry,
  plan: CompiledPlan,
  group: string,
  groupOf: GroupOf,
): { tool: string; via: string[] } | undefined {
  const stack: { plan: CompiledPlan; via: string[] }[] = [{ plan, via: [] }];
  const visited = new Set<string>();
  while (stack.length > 0) {
    const { plan: current, via } = stack.pop()!;
    for (const call of current.calls) {
      const name = call.tool;
      if (groupOf(name)?.group === group) return { tool: name, via };
      if (visited.has(name)) continue;
      visited.add(name);
      const inner = planOf(tools, name);
      if (inner !== undefined) stack.push({ plan: inner, via: [...via, name] });
    }
  }
  return undefined;
}
