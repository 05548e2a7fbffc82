/**
 * A base policy with the plan-mode latch on top: while the latch is planning, every tool that
 * is not read-only is denied; otherwise the base decides. Nothing is cached: each check reads
 * the latch, so a flip applies to the very next check.
 *
 * The plan tools stay callable in every state and over every base mode: only a deny that the
 * base itself gives (an explicit deny rule) refuses one, and a base that denies
 * `exit_plan_mode` is refused at construction, since plan mode could then never be left.
 */
import type { Tool } from '../../tools/tool.js';
import { describeValue } from '../../language/describe-value.js';
import {
  checkPresented,
  isPermissionChecker,
  type PermissionChecker,
  type PermissionDecision,
  PermissionPolicy,
  planModeDenialReason,
  ToolClassifier,
  type ToolClassifierOptions,
} from '../permissions/index.js';
import { isPlanModeLatch as isLatch, type PlanMode } from './plan-mode.js';
import { checkOptions } from '../../language/option-keys.js';
import { PLAN_MODE_POLICY_OPTIONS } from './option-specs.js';

export type PlanModePolicyOptions = Omit<ToolClassifierOptions, 'edits'>;

export class PlanModePolicy implements PermissionChecker {
  readonly base: PermissionChecker;
  readonly latch: PlanMode;
  /** Which tools are read-only: the base's classifier when the base is a PermissionPolicy. */
  readonly classifier: ToolClassifier;

  /**
   * @param options `tools`, `readOnly` and `trustAnnotations` say which tools are read-only.
   *   Leave them out when the base is a PermissionPolicy: its classification is used, so there
   *   is one definition of "mutating". Giving them to both is a TypeError.
   * @throws {TypeError} for a bad base, latch or option, or a base that denies exit_plan_mode.
   */
  constructor(base: PermissionChecker, latch: PlanMode, options: PlanModePolicyOptions = {}) {
    if (!isPermissionChecker(base)) {
      throw new TypeError(
        `PlanModePolicy: the base policy must have a check() method, not ${describeValue(base)}`,
      );
    }
    if (!isLatch(latch)) {
      throw new TypeError(`PlanModePolicy: the latch must be a PlanMode, not ${describeValue(latch)}`);
    }
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`PlanModePolicy: options must be an object, not ${describeValue(options)}`);
    }
    if ('edits' in options) {
      throw new TypeError(`PlanModePolicy: edits belongs to the base PermissionPolicy (acceptEdits mode)`);
    }
    checkOptions('PlanModePolicy', options, PLAN_MODE_POLICY_OPTIONS);
    const given =
      options.tools !== undefined || options.readOnly !== undefined || options.trustAnnotations !== undefined;
    if (base instanceof PermissionPolicy && given && base.classifier.configured) {
      throw new TypeError(
        'PlanModePolicy: the base PermissionPolicy already says which tools are read-only; give tools, readOnly and trustAnnotations to one of them, not both',
      );
    }
    this.base = base;
    this.latch = latch;
    this.classifier =
      base instanceof PermissionPolicy && !given
        ? base.classifier
        : new ToolClassifier(options, 'PlanModePolicy');
    const exit = base.check('exit_plan_mode');
    if (exit.behavior === 'deny') {
      throw new TypeError(
        `PlanModePolicy: the base policy denies 'exit_plan_mode' (${exit.reason}), so plan mode could never be left; narrow that deny rule`,
      );
    }
  }

  /**
   * `definition` is the tool that would run, when the caller has it: while planning, only the
   * definition the classifier trusts as read-only passes, not another one with its name (see
   * ToolClassifier). It is passed on to the base.
   * @throws {TypeError} for a bad name, or a definition that is not a tool of that name.
   */
  check(toolName: string, args?: Readonly<Record<string, unknown>>, definition?: Tool): PermissionDecision {
    if (typeof toolName !== 'string' || toolName === '') {
      throw new TypeError(
        `PlanModePolicy.check: the tool name must be a non-empty string, not ${describeValue(toolName)}`,
      );
    }
    checkPresented('PlanModePolicy.check', toolName, definition);
    if (this.classifier.isPlanTool(toolName, definition)) {
      const decision = this.base.check(toolName, args, definition);
      return decision.behavior === 'deny'
        ? decision
        : { behavior: 'allow', reason: `'${toolName}' is a plan tool, which plan mode keeps callable` };
    }
    if (this.latch.isPlanning && this.classifier.isMutating(toolName, definition)) {
      return { behavior: 'deny', reason: planModeDenialReason(toolName), cause: 'plan-mode' };
    }
    return this.base.check(toolName, args, definition);
  }
}
