/** The plan-mode context an agent makes when it is given none: one of its own, over its tools. */
import type { ToolRegistry } from '../../tools/registry.js';
import { PermissionPolicy, type PermissionPolicyOptions } from '../permissions/index.js';
import { PlanMode } from './plan-mode.js';
import { PlanModeContext } from './plan-mode-context.js';
import { PlanModePolicy } from './plan-mode-policy.js';

/**
 * A new latch, and a PlanModePolicy over a PermissionPolicy of `permissions` (every tool allowed
 * by default: `bypassPermissions`) that knows the tools, so their trusted annotations count.
 */
export function defaultPlanModeContext(
  registry: ToolRegistry,
  permissions: PermissionPolicyOptions | undefined,
): PlanModeContext {
  const latch = new PlanMode();
  const base = new PermissionPolicy({ mode: 'bypassPermissions', ...permissions, tools: registry });
  return new PlanModeContext({ latch, policy: new PlanModePolicy(base, latch) });
}
