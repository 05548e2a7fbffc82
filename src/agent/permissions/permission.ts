/** What a permission check answers, and the one method every policy has. */
import type { DenialCause } from '../../errors.js';
import type { Tool } from '../../tools/tool.js';

export const PERMISSION_BEHAVIORS = ['allow', 'ask', 'deny'] as const;
export type PermissionBehavior = (typeof PERMISSION_BEHAVIORS)[number];

export interface PermissionDecision {
  readonly behavior: PermissionBehavior;
  /** Why, in words a person and the model can act on. */
  readonly reason: string;
  /** The rule pattern that decided, when a rule did. */
  readonly rule?: string;
  /**
   * What denied, on a deny from planmode's policies (`plan-mode`, `deny-rule`, `mode`); the
   * guard reports a deny without one as `policy`.
   */
  readonly cause?: DenialCause;
}

/**
 * Anything that decides about tool calls: PermissionPolicy, PlanModePolicy, or your own.
 * `check` is synchronous and reads its state at each call, so a flip of the plan-mode latch
 * applies to the very next check.
 *
 * `definition` is the tool object that would run, when the caller has it (guardTools and
 * PlanAgent always pass it): trust in a read-only definition binds to that object, so a
 * different definition under the same name is mutating. A policy that combines
 * others passes it on.
 */
export interface PermissionChecker {
  check(toolName: string, args?: Readonly<Record<string, unknown>>, definition?: Tool): PermissionDecision;
}

export function isPermissionChecker(value: unknown): value is PermissionChecker {
  return (
    value !== null && typeof value === 'object' && typeof (value as { check?: unknown }).check === 'function'
  );
}
