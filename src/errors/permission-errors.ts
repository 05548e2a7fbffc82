/**
 * Errors of saying no: a call the permission policy or plan mode refuses, a person's rejection.
 */
import { isKind, PlanError } from './base.js';

/**
 * What refused a tool call: `plan-mode` (a mutating tool while planning, or in mode `plan`),
 * `deny-rule`, `mode` (`dontAsk`), `no-approver` (an ask with no one to ask),
 * `approval-failed` (the approve callback threw or answered garbage), `rejected` (a person
 * said no), `policy` (a policy or tool of your own, for a reason of its own).
 */
export type DenialCause =
  'plan-mode' | 'deny-rule' | 'mode' | 'no-approver' | 'approval-failed' | 'rejected' | 'policy';

/**
 * A refused tool call as data, beside the sentence the model reads (adk-fluent's
 * `plan_mode_state`): on PermissionDeniedError, guardTools' call results and the agent's
 * `tool-result` events.
 */
export interface PermissionDenial {
  /** The tool refused. */
  readonly tool: string;
  /**
   * The plan-mode state at the check: the latch's, `planning` for a plan-mode denial without
   * a latch (mode `plan`), null when no latch is involved.
   */
  readonly state: 'off' | 'planning' | 'executing' | null;
  readonly cause: DenialCause;
  /** Why, as the policy said it: `Plan mode denies mutating tool 'edit_file'`. */
  readonly reason: string;
}

/**
 * A tool call that the permission policy (or plan mode) refuses: `reason` says why, `denial`
 * says it as data. A run reports it as the call's `error: { message: reason, code:
 * 'PERMISSION_DENIED' }`.
 */
export class PermissionDeniedError extends PlanError {
  override name = 'PermissionDeniedError';
  readonly code = 'PERMISSION_DENIED';
  readonly denial: PermissionDenial;
  constructor(
    readonly tool: string,
    readonly reason: string,
    details: { readonly cause?: DenialCause; readonly state?: PermissionDenial['state'] } = {},
  ) {
    super(reason);
    this.denial = Object.freeze({
      tool,
      state: details.state ?? null,
      cause: details.cause ?? 'policy',
      reason,
    });
  }
}

/**
 * A person said no: to a tool call (`what` is `the call to 'x'`) or to a plan (`the plan`).
 * `feedback` is what they said, for the model; `hint` (when given) ends the message with
 * what to do next.
 */
export class ApprovalRejectedError extends PlanError {
  override name = 'ApprovalRejectedError';
  constructor(
    readonly what: string,
    readonly feedback?: string,
    hint?: string,
  ) {
    super(
      `${what} was rejected${feedback ? `; feedback: ${feedback}` : ' without feedback'}${hint ? `. ${hint}` : ''}`,
    );
  }
}

export function isPermissionDeniedError(value: unknown): value is PermissionDeniedError {
  return isKind(value, PermissionDeniedError, ['PermissionDeniedError']);
}

export function isApprovalRejectedError(value: unknown): value is ApprovalRejectedError {
  return isKind(value, ApprovalRejectedError, ['ApprovalRejectedError']);
}
