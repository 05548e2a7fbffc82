/**
 * The lines `plan run` and `plan agent` write about approvals they did not ask a person about.
 *
 * `--yes` answers yes in a person's place, so it says what it approved: one line on stderr per
 * approval, with what acts. A call is shown with its resolved arguments, as a person at the
 * prompt would have seen them; every part is bounded (ids, names and arguments come from a
 * model or a plan file, and may be megabytes long or hold line breaks).
 */
import type { ApprovalRequest } from '../../run/approval.js';
import type { ParentCall } from '../../run/sub-run-types.js';
import { jsonExcerptText } from '../../language/json-excerpt.js';
import { clip, plural } from '../output/index.js';

/** Most characters of a call's arguments, and of a plan's text, in the line. */
export const YES_LINE_CHARS = 200;

/**
 * `approved by --yes: call 2 issueRefund {"customerId":"cust_123","amount":50}`, or for a plan
 * `approved by --yes: plan.json (lazy plan, 3 calls)` / `approved by --yes: plan "Record the price."`.
 * @param what How a compiled plan is named (its file, `solution 2`).
 */
export function approvedByYesLine(request: ApprovalRequest, what = 'plan'): string {
  if (request.kind === 'call') {
    const args = jsonExcerptText(request.args, { maxLength: YES_LINE_CHARS, countUpTo: 100_000 });
    const where = request.parent ? ` in ${parentChainText(request.parent)}` : '';
    return `approved by --yes: call ${name(request.call)} ${name(request.tool)}${where} ${clip(args, YES_LINE_CHARS + 60)}\n`;
  }
  if (typeof request.plan === 'string') {
    return `approved by --yes: plan ${clip(JSON.stringify(clip(request.plan, YES_LINE_CHARS)), YES_LINE_CHARS + 10)}\n`;
  }
  const plan = request.plan;
  return `approved by --yes: ${clip(what, 100)} (${plan.mode} plan, ${plural(plan.calls.length, 'call')})\n`;
}

/**
 * Where a call inside a workflow is: the workflow calls above it, outermost first, each with its
 * workflow and its element under a `_forEach`: `top (release) › s[1] (ship)`.
 */
export function parentChainText(parent: readonly ParentCall[]): string {
  return parent
    .map((p) => `${name(p.call)}${p.element === undefined ? '' : `[${p.element}]`} (${name(p.tool)})`)
    .join(' › ');
}

/** An id or a tool name as written when it is plain, else quoted (a line break cannot end the line). */
function name(text: string): string {
  return /^[\w.:-]{1,100}$/.test(text) ? text : clip(JSON.stringify(text.slice(0, 100)), 110);
}

/** The line for calls turned down for want of a terminal, or '' when there were none. */
export function unaskedCallsText(count: number): string {
  if (count === 0) return '';
  return count === 1
    ? '1 call was rejected: its tool needs approval, and there is no terminal to ask on; pass --yes to approve it\n'
    : `${count} calls were rejected: their tools need approval, and there is no terminal to ask on; pass --yes to approve them\n`;
}

/**
 * Written above a call's question: while a person answers, no other call starts (the calls
 * running, a workflow's sub-plan among them, go on to their end).
 */
export const PAUSED_LINE = 'plan: paused: no other call starts until you answer';
