/**
 * The keys of the plan-mode options interfaces, for checkOptions: an unknown key is a TypeError
 * naming it. Values have their own checks where they are read, so every key is `any` here.
 * Data only (no import of the interfaces, which would make a cycle with the files that check
 * them): test/errors-unknown-options.test.ts holds each spec to its interface.
 */
import type { OptionKind } from '../../language/option-keys.js';

type Spec = Readonly<Record<string, OptionKind>>;

export const PLAN_MODE_OPTIONS = { onObserverError: 'function' } as const satisfies Spec;
export const PLAN_MODE_CONTEXT_OPTIONS = { latch: 'any', policy: 'any' } as const satisfies Spec;
export const PLAN_MODE_CHILD_OPTIONS = { policy: 'any' } as const satisfies Spec;
export const PLAN_MODE_POLICY_OPTIONS = {
  tools: 'any',
  readOnly: 'any',
  trustAnnotations: 'any',
} as const satisfies Spec;
export const GUARD_TOOLS_OPTIONS = {
  approve: 'any',
  latch: 'any',
  planModeAdvice: 'any',
} as const satisfies Spec;
export const PLAN_TOOLS_OPTIONS = {
  latch: 'any',
  plansDir: 'any',
  store: 'any',
  approve: 'any',
  planFile: 'any',
  todos: 'any',
  maxPlanLength: 'any',
} as const satisfies Spec;
export const PLAN_MODE_SETUP_OPTIONS = {
  tools: 'any',
  approve: 'any',
  approveTool: 'any',
  context: 'any',
  permissions: 'any',
  plansDir: 'any',
  store: 'any',
  planFile: 'any',
  todos: 'any',
  maxPlanLength: 'any',
  reminders: 'any',
} as const satisfies Spec;
export const READ_PLAN_MODE_SNAPSHOT_OPTIONS = {
  maxPlanLength: 'any',
  where: 'string',
} as const satisfies Spec;
export const PLAN_FILE_READ_OPTIONS = { maxBytes: 'any' } as const satisfies Spec;
