/**
 * Plan mode, as Claude Code has it: a latch (planning or not) that a parent shares with its
 * children, a policy that denies every mutating tool while it is planning, the guard between a
 * model and its tools that follows that policy turn by turn, the plan tools (enter and exit
 * plan mode, write the plan file, keep a todo list) with the one file they may write, the todo
 * reminder, and snapshots that save and restore all of it.
 */
export { defaultPlanModeContext } from './default-context.js';
export {
  type GuardedCallOptions,
  type GuardedCallResult,
  type GuardedTools,
  type GuardToolsOptions,
  guardTools,
} from './guard-tools.js';
export { PlanFile, type PlanFileReadOptions } from './plan-file.js';
export {
  isPlanModeLatch,
  PLAN_MODE_STATES,
  PlanMode,
  type PlanModeChange,
  type PlanModeJson,
  type PlanModeObserver,
  type PlanModeOptions,
  type PlanModeState,
} from './plan-mode.js';
export {
  type PlanModeChildOptions,
  PlanModeContext,
  type PlanModeContextOptions,
} from './plan-mode-context.js';
export { PlanModePolicy, type PlanModePolicyOptions } from './plan-mode-policy.js';
export {
  isPlanModeSetup,
  type PlanModeSetup,
  type PlanModeSetupOptions,
  setupPlanMode,
  SNAPSHOT_KEY,
} from './plan-mode-setup.js';
export {
  DEFAULT_MAX_PLAN_LENGTH,
  type PlanModeParts,
  type PlanModeSnapshot,
  planModeSnapshot,
  readPlanModeSnapshot,
  type ReadPlanModeSnapshotOptions,
  restorePlanMode,
} from './plan-mode-snapshot.js';
export {
  DEFAULT_PLANS_DIR,
  type PlanToolList,
  planTools,
  type PlanToolsOptions,
  TODOS_KEY,
} from './plan-tools.js';
export { TODO_REMINDER_HEADING, todoReminder, todoReminderText } from './todo-reminder.js';
export {
  MAX_TODO_CONTENT,
  MAX_TODOS,
  readTodos,
  type Todo,
  TODO_STATUSES,
  TodoList,
  type TodoStatus,
} from './todos.js';
