/**
 * Who answers for a person in `plan agent`: every request of every flow (a lazy solution of the
 * plan loop, a plan in plan mode or a todo list, a call of a tool that needs approval) goes to
 * one of three answers, the same for each kind:
 *
 * - `--yes`: yes, and one line on stderr saying what was approved (approved-by-yes.ts);
 * - a terminal on both ends: the question, and the person's answer;
 * - neither: no. The plan loop then ends `rejected` (exit 4); the command says how to approve.
 *
 * Calls turned down are counted: a `plan agent` in which a person (or nobody) turned a call down
 * does not exit 0.
 */
import type { SolveApprovalRequest } from '../../agent/plan-loop/index.js';
import { ApprovalRejectedError } from '../../errors.js';
import type {
  ApprovalResponse,
  Approve,
  CallApprovalRequest,
  PlanApprovalRequest,
} from '../../run/approval.js';
import { approvedByYesLine } from './approval-lines.js';
import {
  formatCallQuestion,
  formatPlanListing,
  formatPlanSimulation,
  type Prompter,
} from './approval-prompt.js';
import type { RunView } from '../output/index.js';
import type { CliIo } from '../io.js';

export interface AgentApprovalOptions {
  readonly yes: boolean;
  /** Asks on the terminal; null when there is none. */
  readonly prompter: Prompter | null;
  readonly io: CliIo;
  readonly color: boolean;
  /** The run view drawing now: it steps aside while a line or a question is written. */
  readonly view: () => RunView;
}

export interface AgentApprovals {
  /** A plan in Markdown: plan mode's, or a todo list. */
  readonly approvePlan: Approve<PlanApprovalRequest<string>>;
  /** A call the guard asks about (plan mode, todos): a tool that needs approval, or a policy's ask. */
  readonly approveTool: Approve<CallApprovalRequest>;
  /** The plan loop's requests: a lazy solution, and each call of a tool that needs approval. */
  readonly approveSolve: Approve<SolveApprovalRequest>;
  /** Calls turned down, by a person or for want of one. */
  readonly rejectedCalls: () => number;
  /** Calls turned down for want of a terminal (no --yes): the command says how to approve them. */
  readonly unaskedCalls: () => number;
}

export function agentApprovals(options: AgentApprovalOptions): AgentApprovals {
  const { yes, prompter, io, color } = options;
  let rejected = 0;
  let unasked = 0;
  const sayYes = (line: string): true => {
    const view = options.view();
    view.pause();
    io.stderr.write(line);
    view.resume();
    return true;
  };
  const approveCall = async (request: CallApprovalRequest): Promise<boolean> => {
    if (yes) return sayYes(approvedByYesLine(request));
    let approved = false;
    if (prompter) {
      const view = options.view();
      approved = await prompter.ask(formatCallQuestion(request, color), {
        before: () => view.pause(),
        after: () => view.resume(),
      });
    } else unasked++;
    if (!approved) rejected++;
    return approved;
  };
  return {
    approvePlan: async ({ plan, ...rest }) => {
      if (yes) return sayYes(approvedByYesLine({ plan, ...rest }));
      if (!prompter) {
        throw new ApprovalRejectedError(
          'the plan',
          undefined,
          'there is no terminal to ask on; pass --yes to approve it',
        );
      }
      const answer = await prompter.askLine(
        `\n${plan}\n\nCarry out this plan? [y/N, or say what to change] `,
      );
      return readPlanAnswer(answer);
    },
    approveTool: approveCall,
    approveSolve: async (request) => {
      if (request.kind === 'call') return approveCall(request);
      if (yes) return sayYes(approvedByYesLine(request, `solution ${request.iteration}`));
      if (!prompter) return false;
      const view = options.view();
      const listing = { file: 'solution', color };
      const question = `${formatPlanListing(request.plan, listing)}${formatPlanSimulation(request.plan, { ...listing, source: null })}Run this plan? [y/N] `;
      return prompter.ask(question, { before: () => view.pause(), after: () => view.resume() });
    },
    rejectedCalls: () => rejected,
    unaskedCalls: () => unasked,
  };
}

/**
 * The answer at the plan prompt: yes carries it out; no (or nothing, or the end of input) stops
 * the agent; anything else is what to change, handed to the model, which keeps planning.
 * @throws {ApprovalRejectedError} for a no.
 */
export function readPlanAnswer(line: string | null): ApprovalResponse {
  const text = line?.trim() ?? '';
  if (/^y(es)?$/i.test(text)) return true;
  if (text === '' || /^no?$/i.test(text)) throw new ApprovalRejectedError('the plan');
  return { approved: false, feedback: text };
}
