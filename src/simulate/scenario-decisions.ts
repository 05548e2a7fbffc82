/**
 * The choices a scenario makes, the plan's own and those inside its workflow calls. A choice is
 * keyed by the path of call indices down to its branching call, joined with `/`: `4` is the
 * plan's call 4; `2/0` is call 0 of the plan of the workflow that call 2 calls; `2/1/3` one
 * level deeper. The elements of a `_forEach` call over a workflow share their call's key, so they
 * take the same choice. A scenario's assignment maps keys to alternatives; a key it leaves out
 * takes its baseline.
 */
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import type { Tool } from '../tools/tool.js';
import { workflowPlan } from '../run/workflow/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { WorkflowChoice } from './types.js';
import { baselineChoice, type Decision, type Walk, type WalkPlan } from './walk.js';

const NO_DECISIONS: readonly Decision[] = [];

/** The choices made in a walk of `p`, in walk order (see Walk.decisions). */
export function decisionsOf(p: WalkPlan, result: Walk): readonly Decision[] {
  if (result.decisions !== null) return result.decisions;
  if (result.branched.length === 0) return NO_DECISIONS;
  return result.branched.map((b) => ({
    path: [b],
    key: `${b}`,
    alternatives: p.alternatives[b]!,
    baseline: baselineChoice(p, b),
    choice: result.choice[b]!,
  }));
}

/** The choices an assignment makes for the plan's own branching calls (keys without a `/`). */
export function ownChoices(assigned: ReadonlyMap<string, number>): ReadonlyMap<number, number> {
  const own = new Map<number, number>();
  for (const [key, choice] of assigned) if (!key.includes('/')) own.set(Number(key), choice);
  return own;
}

/**
 * The choices a walk made inside workflow calls, named by ids: the workflow calls down to the
 * branching call (each in its own plan), then its id; null when it made none.
 */
export function workflowChoicesOf(
  plan: CompiledPlan,
  tools: ToolRegistry | undefined,
  decisions: readonly Decision[],
): WorkflowChoice[] | null {
  let found: WorkflowChoice[] | null = null;
  for (const d of decisions) {
    if (d.path.length < 2) continue;
    const within: string[] = [];
    let inPlan: CompiledPlan | undefined = plan;
    for (let k = 0; k < d.path.length - 1 && inPlan !== undefined; k++) {
      const call: CompiledCall = inPlan.calls[d.path[k]!]!;
      within.push(call.id);
      const tool: Tool | undefined = tools?.get(call.tool)?.tool;
      inPlan = tool === undefined ? undefined : workflowPlan(tool)?.plan;
    }
    const call = inPlan?.calls[d.path[d.path.length - 1]!];
    if (call === undefined) continue;
    (found ??= []).push({ within, call: call.id, choice: d.choice, varies: d.choice !== d.baseline });
  }
  return found;
}
