/**
 * Todo plans, as gollem has them: the model proposes todos, a person may approve them, and
 * each runs as its own agent turn followed by a reflection; the plan saves and resumes.
 */
export { MAX_APPROVAL_ROUNDS, planTodos } from './plan-todos.js';
export { TodoPlan, type TodoPlanHooks, type TodoPlanOptions, type TodoPlanOutcome } from './todo-plan.js';
export { TODO_PLAN_HOOK_NAMES, type TodoPlanEvent, type TodoPlanListener } from './todo-plan-events.js';
export { MAX_TODOS_CEILING, TODO_PLAN_DEFAULTS } from './todo-plan-options.js';
export { TODO_EXECUTOR_PROMPT, TODO_PLANNER_PROMPT, TODO_REFLECTOR_PROMPT } from './todo-plan-prompts.js';
export { MAX_GOAL_LENGTH } from './todo-plan-snapshot.js';
export { TODO_PLAN_MESSAGE_TYPES, type TodoPlanMessage } from './todo-plan-messages.js';
export {
  PLANNED_TODO_STATUSES,
  type PlannedTodo,
  type PlannedTodoStatus,
  type ReflectionAction,
  TODO_PLAN_STATES,
  type TodoChange,
  type TodoPlanExchange,
  type TodoPlanJson,
  type TodoPlanState,
  type TodoResult,
  type TodoToolCall,
  type TodoToolCallOutcome,
} from './todo-plan-types.js';
