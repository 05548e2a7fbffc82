/** What a traced (or untraced) agent invocation is, and what its body gets. */
import type { RunOptions } from '../../run/types.js';
import type { ModelProvider } from '../model.js';

/** What an invocation's body works with: the model to ask, and what its runs add to their options. */
export interface TracedInvocation {
  /** The agent's model, whose turns each make a `chat` span when the invocation traces. */
  readonly provider: ModelProvider;
  /** Spread into the options of each run the invocation starts: its tracing, its parent span. */
  readonly runOptions: Pick<RunOptions, 'tracing'>;
}

/** What the invocation is, for its span. */
export interface InvocationInfo {
  /** The agent (`gen_ai.agent.name`): a PlanAgent, or a todo plan. */
  readonly agent: 'PlanAgent' | 'TodoPlan';
  /** Which of its methods runs: plan() (planTodos() for a todo plan), execute(), solve(), step(). */
  readonly phase: 'plan' | 'execute' | 'solve' | 'step';
  readonly provider: ModelProvider;
}
