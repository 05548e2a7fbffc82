/**
 * The keys of TodoPlanOptions, for checkOptions: an unknown key is a TypeError naming
 * it. Values have their own checks (resolveTodoPlanOptions), so every key is `any` here. Data
 * only: test/errors-unknown-options.test.ts holds the spec to the interface.
 */
import type { OptionKind } from '../../language/option-keys.js';

export const TODO_PLAN_OPTIONS = {
  provider: 'any',
  tools: 'any',
  context: 'any',
  permissions: 'any',
  approveTool: 'any',
  approvePlan: 'any',
  systemPrompt: 'any',
  maxTodos: 'any',
  maxIterations: 'any',
  maxTurnsPerTodo: 'any',
  maxRepairs: 'any',
  limits: 'any',
  onEvent: 'any',
  hooks: 'any',
  signal: 'any',
  history: 'any',
  tracing: 'any',
} as const satisfies Readonly<Record<string, OptionKind>>;
