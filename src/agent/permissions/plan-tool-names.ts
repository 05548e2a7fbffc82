/**
 * The plan tools' names, and a mark on the definitions `planTools()` makes, so a user's own
 * tool that happens to be called `plan_write` is never mistaken for one (it would be exempt
 * from plan mode).
 */
import type { Tool } from '../../tools/tool.js';

export const PLAN_TOOL_NAMES = ['enter_plan_mode', 'exit_plan_mode', 'plan_write', 'todo_write'] as const;
export type PlanToolName = (typeof PLAN_TOOL_NAMES)[number];

const genuine = new WeakSet<object>();

export function isPlanToolName(name: string): name is PlanToolName {
  return (PLAN_TOOL_NAMES as readonly string[]).includes(name);
}

/** Marks a definition as one of the plan tools (done by `planTools()` only). */
export function markPlanTool<T extends Tool>(tool: T): T {
  genuine.add(tool);
  return tool;
}

/** Whether `tool` is a definition `planTools()` made (or a guarded wrapper of one). */
export function isGenuinePlanTool(tool: Tool): boolean {
  return genuine.has(tool);
}
