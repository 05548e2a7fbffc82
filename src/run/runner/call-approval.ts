/** Asking for approval: of a lazy plan before it runs, of a call before its tool runs. */
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import { ApprovalRejectedError } from '../../errors.js';
import type { JsonObject } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import { elementArguments } from '../call/index.js';
import { type ApprovalResponse, readApproval } from '../approval.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { CallRecord } from '../call-record.js';
import type { RunEventDraft } from '../run-event.js';
import type { CallStatus, RunOptions } from '../types.js';

/** What asking for approval needs of the run (the Runner is one). */
export interface ApprovalHost {
  readonly plan: CompiledPlan;
  readonly calls: readonly CompiledCall[];
  readonly records: readonly CallRecord[];
  readonly tools: ToolRegistry;
  readonly options: RunOptions;
  readonly limits: Limits;
  readonly stopping: boolean;
  /** Approvals being asked now, since when, and the time waited in all (see approvalAsked). */
  approvalsPending: number;
  approvalSince: number;
  approvalWaitMs: number;
  event(event: RunEventDraft): void;
  end(i: number, status: CallStatus): void;
  dispatch(i: number, args: JsonObject): void;
  drain(): void;
}

/**
 * Approvals overlap (several calls may wait at once): the wait counted is the time during
 * which at least one was pending, so it never exceeds the run's own length.
 */
export function approvalAsked(run: ApprovalHost): void {
  if (run.approvalsPending++ === 0) run.approvalSince = Date.now();
}

export function approvalAnswered(run: ApprovalHost): void {
  if (--run.approvalsPending === 0) run.approvalWaitMs += Date.now() - run.approvalSince;
}

/** The answer, or false as soon as the run is aborted: nobody waits on a person forever. */
export function unlessAborted(
  run: ApprovalHost,
  answer: ApprovalResponse | Promise<ApprovalResponse>,
): Promise<ApprovalResponse> {
  const signal = run.options.signal;
  if (!signal) return Promise.resolve(answer);
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<ApprovalResponse>((resolve, reject) => {
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(answer).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export async function approveCall(run: ApprovalHost, i: number, args: JsonObject): Promise<void> {
  const call = run.calls[i]!;
  run.event({ type: 'approval:requested', kind: 'call', call: call.id });
  let approved = false;
  const approve = run.options.approve;
  const definition = run.tools.get(call.tool)?.tool;
  if (approve !== undefined) approvalAsked(run);
  try {
    if (approve !== undefined && definition !== undefined) {
      // A `_forEach` call is asked about once, with what each element will run with. Its own
      // arguments are copied: the loop takes `_forEach` out of them as it starts.
      const elements = call.forEach ? elementArguments(run, i, args) : undefined;
      const request = {
        kind: 'call',
        plan: run.plan,
        call: call.id,
        tool: call.tool,
        args: call.forEach ? { ...args } : args,
        reason: `tool '${call.tool}' needs approval`,
        definition,
        ...(elements && { elements }),
      } as const;
      const decision = readApproval(await unlessAborted(run, approve(request)));
      approved = decision.approved;
      // A person's reasons for a no are kept where the report shows them: the call's error.
      if (!approved && decision.feedback !== undefined)
        run.records[i]!.error = {
          message: new ApprovalRejectedError(`the call '${call.id}'`, decision.feedback).message,
        };
    }
  } catch (e) {
    run.records[i]!.error = { message: `approval failed: ${(e as Error).message}` };
  } finally {
    if (approve !== undefined) approvalAnswered(run);
  }
  if (run.stopping) run.end(i, 'cancelled');
  else if (!approved) run.end(i, 'rejected');
  else run.dispatch(i, args);
  run.drain();
}
