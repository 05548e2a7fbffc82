/**
 * `plan agent "<goal>" --todos`: the goal becomes a todo plan (planTodos). The todos are shown
 * for approval like a plan (on a terminal; --yes off one), then each runs as its own agent
 * turn, and after each the model reflects: continue, revise the todos, or finish. Progress goes
 * to stderr (each todo as it starts and ends, the revisions, the end); the result to stdout, or
 * with --json the plan's final JSON (`TodoPlan.toJSON()`).
 */
import type { AgentEvent } from '../../agent/agent-events.js';
import type { Approve, CallApprovalRequest, PlanApprovalRequest } from '../../run/approval.js';
import type { ModelProvider } from '../../agent/model.js';
import type { PermissionPolicyOptions } from '../../agent/permissions/index.js';
import {
  planTodos,
  TODO_PLAN_DEFAULTS,
  type TodoChange,
  type TodoPlanEvent,
} from '../../agent/todo-plan/index.js';
import type { Limits } from '../../language/limits.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { ExitCode } from '../exit-codes.js';
import { oneLine, paint } from '../output/index.js';
import type { CliIo } from '../io.js';

export interface TodoFlowOptions {
  readonly provider: ModelProvider;
  readonly tools: ToolRegistry;
  /** The same permissions `plan agent` gives PlanAgent. */
  readonly permissions: PermissionPolicyOptions;
  readonly limits: Partial<Limits> | undefined;
  /** --max-iterations: most reflections. */
  readonly maxIterations: number | undefined;
  readonly approvePlan: Approve<PlanApprovalRequest<string>>;
  /** Asked about a call of a tool that needs approval (and a call the policy asks about). */
  readonly approveTool: Approve<CallApprovalRequest>;
  /** Prints the agent events of each todo's turn (text, tool calls, tool results). */
  readonly onAgentEvent: (event: AgentEvent) => void;
  readonly signal: AbortSignal;
  /** Progress on stderr; false with --json. */
  readonly progress: boolean;
  readonly json: boolean;
  readonly color: boolean;
}

/**
 * @returns 0 completed, 3 failed or out of iterations. What planTodos and execute throw
 *   (a rejection, an abort, the model's API) is the caller's to map.
 */
export async function runTodoFlow(goal: string, io: CliIo, options: TodoFlowOptions): Promise<number> {
  const { color } = options;
  // The model's text streams in pieces; a line of ours starts on a line of its own.
  let midLine = false;
  const endLine = () => {
    if (midLine) io.stderr.write('\n');
    midLine = false;
  };
  const line = (text: string) => {
    if (!options.progress) return;
    endLine();
    io.stderr.write(`${text}\n`);
  };
  const onEvent = (event: TodoPlanEvent | AgentEvent) => {
    switch (event.type) {
      case 'text-delta':
        if (!options.progress) return;
        io.stderr.write(event.text);
        midLine = !event.text.endsWith('\n');
        return;
      case 'todos-created':
        line(
          `todos:\n${event.todos.map((todo, i) => `  ${i + 1}. ${todo.id}: ${oneLine(todo.description)}`).join('\n')}`,
        );
        return;
      case 'todo-start':
        line(`${paint('▶', color, 'dim')} ${event.todo.id}: ${oneLine(event.todo.description)}`);
        return;
      case 'todo-done':
        line(
          event.todo.status === 'completed'
            ? `✓ ${event.todo.id} completed`
            : `✗ ${event.todo.id} failed: ${oneLine(event.todo.error ?? '')}`,
        );
        return;
      case 'reflected':
        line(paint(`reflection ${event.iteration}: ${event.action}`, color, 'dim'));
        return;
      case 'todos-revised':
        line(`revised:\n${event.changes.map(changeLine).join('\n')}`);
        return;
      case 'todo-plan-done':
        line(
          event.state === 'completed'
            ? 'plan completed'
            : event.state === 'failed'
              ? `plan failed: ${oneLine(event.error ?? '')}`
              : `plan ended: out of iterations (at most ${reflections(options.maxIterations)}) before the model finished`,
        );
        return;
      default:
        if (options.progress) endLine();
        options.onAgentEvent(event);
    }
  };
  const plan = await planTodos(goal, {
    provider: options.provider,
    tools: options.tools,
    permissions: options.permissions,
    approvePlan: options.approvePlan,
    approveTool: options.approveTool,
    onEvent,
    signal: options.signal,
    ...(options.limits && { limits: options.limits }),
    ...(options.maxIterations !== undefined && { maxIterations: options.maxIterations }),
  });
  if (!plan.finished) await plan.execute();
  if (options.json) io.stdout.write(`${JSON.stringify(plan)}\n`);
  else if (plan.result !== null) io.stdout.write(`${plan.result}\n`);
  return plan.state === 'completed' || plan.state === 'ended' ? ExitCode.OK : ExitCode.RUN_FAILED;
}

function reflections(max: number = TODO_PLAN_DEFAULTS.maxIterations): string {
  return `${max} reflection${max === 1 ? '' : 's'}`;
}

function changeLine(change: TodoChange): string {
  switch (change.type) {
    case 'added':
      return `  + ${change.todo.id}: ${oneLine(change.todo.description)}`;
    case 'removed':
      return `  - ${change.todo.id}: ${oneLine(change.todo.description)}`;
    default:
      return `  ~ ${change.todo.id}: ${oneLine(change.todo.description)}`;
  }
}
