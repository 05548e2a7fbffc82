/**
 * A todo plan's spans: planTodos(), execute() and step() each run in an `invoke_agent TodoPlan`
 * span when the plan traces (its `tracing` option, else a global tracer provider), with the
 * runtime's model swapped for one whose turns each make a `chat` span (see agent/trace/).
 */
import { traceInvocation } from '../trace/agent-trace.js';
import type { TodoPlanRuntime } from './todo-plan-options.js';

/**
 * Runs `body` with the runtime it should ask the model through: the plan's own when it does not
 * trace (nothing loaded), else one whose model is traced, inside the invocation's span.
 * `statusOf` names how it ended (`planmode.agent.status`).
 */
export function traceTodoPlan<Plan, T>(
  runtime: TodoPlanRuntime<Plan>,
  phase: 'plan' | 'execute' | 'step',
  body: (runtime: TodoPlanRuntime<Plan>) => Promise<T>,
  statusOf: (result: T) => string,
): Promise<T> {
  const info = { agent: 'TodoPlan', phase, provider: runtime.provider } as const;
  return traceInvocation(
    runtime.tracing,
    info,
    ({ provider }) => body(provider === runtime.provider ? runtime : { ...runtime, provider }),
    statusOf,
  );
}
