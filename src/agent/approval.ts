/** What a person is asked, and how they answer: yes, no, or no with feedback for the model. */
import type { Tool } from '../tools/tool.js';

/** `true`/`false`, or an answer with feedback (passed to the model when it is a no). */
export type ApprovalResponse = boolean | { readonly approved: boolean; readonly feedback?: string };

/** A tool call the policy said `ask` about. */
export interface ToolApprovalRequest {
  readonly kind: 'tool';
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The model's id for the call (or the plan call's id). */
  readonly toolCallId: string;
  /** Why the policy asks. */
  readonly reason: string;
  readonly definition: Tool;
}

/** A plan the model submitted with `exit_plan_mode`. */
export interface PlanApprovalRequest {
  readonly kind: 'plan';
  readonly plan: string;
  /** The plan file the plan was read from, when the model gave no `plan` argument. */
  readonly file?: string;
}

export type ApproveToolCall = (request: ToolApprovalRequest) => ApprovalResponse | Promise<ApprovalResponse>;
export type ApprovePlan = (request: PlanApprovalRequest) => ApprovalResponse | Promise<ApprovalResponse>;

/**
 * Reads an answer; anything that is not `true` or `{ approved: true }` is a no.
 * @throws {TypeError} when the answer is not an ApprovalResponse, so a broken callback is not
 *   mistaken for a decision.
 */
export function readApproval(response: unknown): { approved: boolean; feedback?: string } {
  if (typeof response === 'boolean') return { approved: response };
  if (
    response !== null &&
    typeof response === 'object' &&
    typeof (response as { approved?: unknown }).approved === 'boolean'
  ) {
    const { approved, feedback } = response as { approved: boolean; feedback?: unknown };
    return typeof feedback === 'string' && feedback.trim() !== '' ? { approved, feedback } : { approved };
  }
  throw new TypeError(
    `an approval callback must answer true, false or { approved, feedback? }, not ${response === null ? 'null' : typeof response}`,
  );
}
