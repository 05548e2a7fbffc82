/** What PlanAgent's constructor refuses: every option checked before anything is built. */
import { rejectUnknownOptions } from '../language/option-keys.js';
import { describeValue } from '../language/describe-value.js';
import { checkTracingOptions } from '../run/trace/tracing-options.js';
import { PlanModeContext } from './plan-mode/index.js';
import { resolveBudget } from './plan-loop/index.js';
import { checkAgentLimiter } from './plan-agent-solve.js';
import { checkCountOption } from './providers/index.js';
import { PLAN_AGENT_OPTIONS, type PlanAgentOptions } from './plan-agent-options.js';

/** @throws {TypeError} naming the bad option value (or the unknown option). */
export function checkPlanAgentOptions(options: PlanAgentOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`PlanAgent: options must be an object, not ${describeValue(options)}`);
  }
  rejectUnknownOptions('PlanAgent', options, PLAN_AGENT_OPTIONS);
  const { provider, maxTurns, planningPrompt } = options;
  if (provider === null || typeof provider !== 'object' || typeof provider.stream !== 'function') {
    throw new TypeError(`PlanAgent: provider must be a ModelProvider, not ${describeValue(provider)}`);
  }
  if (maxTurns !== undefined && (!Number.isSafeInteger(maxTurns) || maxTurns < 1)) {
    throw new TypeError(`PlanAgent: maxTurns must be a whole number >= 1, not ${describeValue(maxTurns)}`);
  }
  if (planningPrompt !== undefined && (typeof planningPrompt !== 'string' || planningPrompt.trim() === '')) {
    throw new TypeError(
      `PlanAgent: planningPrompt must be a non-empty string, not ${describeValue(planningPrompt)}`,
    );
  }
  for (const name of ['approveTool', 'approvePlan', 'onEvent'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`PlanAgent: ${name} must be a function, not ${describeValue(options[name])}`);
    }
  }
  if (options.context !== undefined && !(options.context instanceof PlanModeContext)) {
    throw new TypeError(
      `PlanAgent: context must be a PlanModeContext, not ${describeValue(options.context)}`,
    );
  }
  resolveBudget(options.budget, 'PlanAgent');
  checkAgentLimiter(options.limiter);
  checkCountOption('PlanAgent', 'maxToolCallsPerTurn', options.maxToolCallsPerTurn, 1);
  checkCountOption('PlanAgent', 'maxConversationBytes', options.maxConversationBytes, 1);
  checkTracingOptions(options.tracing);
}
