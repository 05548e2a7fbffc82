/**
 * What a parent agent hands its children so they cannot escape plan mode: the same latch and
 * the same policy, by reference. A child never gets a copy, so when the parent enters or
 * leaves plan mode the child's very next check sees it. A child may add a policy of its own,
 * which can only make it stricter.
 */
import { describeValue } from '../../language/describe-value.js';
import { isPermissionChecker, type PermissionChecker, strictestOf } from '../permissions/index.js';
import { isPlanModeLatch, type PlanMode } from './plan-mode.js';
import { PlanModePolicy } from './plan-mode-policy.js';
import { checkOptions } from '../../language/option-keys.js';
import { PLAN_MODE_CHILD_OPTIONS, PLAN_MODE_CONTEXT_OPTIONS } from './option-specs.js';

export interface PlanModeContextOptions {
  /** The latch shared by the whole agent tree. Required. */
  readonly latch: PlanMode;
  /** The policy shared by the whole agent tree, normally a PlanModePolicy over `latch`. Required. */
  readonly policy: PermissionChecker;
}

export interface PlanModeChildOptions {
  /**
   * A policy of the child's own, checked together with the parent's; the stricter answer wins.
   * @default none: the parent's policy alone
   */
  readonly policy?: PermissionChecker;
}

export class PlanModeContext {
  readonly latch: PlanMode;
  readonly policy: PermissionChecker;

  /** @throws {TypeError} for a bad latch or policy, or a PlanModePolicy bound to another latch. */
  constructor(options: PlanModeContextOptions) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`PlanModeContext: options must be an object, not ${describeValue(options)}`);
    }
    checkOptions('PlanModeContext', options, PLAN_MODE_CONTEXT_OPTIONS);
    const { latch, policy } = options;
    if (!isPlanModeLatch(latch)) {
      throw new TypeError(`PlanModeContext: latch must be a PlanMode, not ${describeValue(latch)}`);
    }
    if (!isPermissionChecker(policy)) {
      throw new TypeError(`PlanModeContext: policy must have a check() method, not ${describeValue(policy)}`);
    }
    if (policy instanceof PlanModePolicy && policy.latch !== latch) {
      throw new TypeError('PlanModeContext: the PlanModePolicy reads another latch than the one given');
    }
    this.latch = latch;
    this.policy = policy;
    Object.freeze(this);
  }

  /** The context for a child agent: the same latch and policy objects, plus its own policy if any. */
  child(options: PlanModeChildOptions = {}): PlanModeContext {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`PlanModeContext.child: options must be an object, not ${describeValue(options)}`);
    }
    checkOptions('PlanModeContext.child', options, PLAN_MODE_CHILD_OPTIONS);
    const { policy } = options;
    if (policy !== undefined && !isPermissionChecker(policy)) {
      throw new TypeError(
        `PlanModeContext.child: policy must have a check() method, not ${describeValue(policy)}`,
      );
    }
    return new PlanModeContext({
      latch: this.latch,
      policy: policy === undefined ? this.policy : strictestOf(this.policy, policy),
    });
  }
}
