/**
 * What a run reports: the terminal states of calls and runs, each call's report (its elements'
 * and its workflow's too) and the run's result.
 */
import type { Diagnostic } from '../language/diagnostics.js';
import type { JsonObject } from '../language/document.js';
import type { LoopEnding } from '../tools/end-loop.js';
import type { EarlierVersionReport, StaleJournalLock } from './resume-types.js';

/** Every call of a run ends in exactly one of these terminal states, in this order of reporting. */
export const CALL_STATUSES = [
  'succeeded',
  'failed',
  'skipped',
  'upstream_failed',
  'cancelled',
  'rejected',
] as const;

export type CallStatus = (typeof CALL_STATUSES)[number];

export type RunStatus = 'succeeded' | 'failed' | 'cancelled' | 'rejected';

export interface CallError {
  readonly message: string;
  readonly code?: string;
}

/** One element of a `_forEach` call: whether its tool ran and answered, and its error if it failed. */
export interface ElementReport {
  /** `not_run`: the call failed (or was cancelled) before the element started. */
  readonly status: 'succeeded' | 'failed' | 'not_run';
  readonly error: CallError | null;
  /** Of a `_forEach` call over a workflow: the element's sub-run, once it ran. */
  readonly workflow?: WorkflowRunReport;
}

/** What a workflow call's sub-run did: its status and a report per call of the workflow's plan. */
export interface WorkflowRunReport {
  readonly status: RunStatus;
  /** Every call of the workflow's plan, in array order (a workflow inside has its own `workflow`). */
  readonly calls: readonly CallReport[];
}

/** One call in the run report (`run --json` prints these). */
export interface CallReport {
  readonly id: string;
  readonly tool: string;
  readonly status: CallStatus;
  /** Index of the output alternative written, or null (nothing written, or no alternatives). */
  readonly branch: number | null;
  /**
   * True when the tool's own error (its throw, or its error result) was written to the call's
   * declared error alternative (`_onError`, or the tool's `errorBranch: true`). A contract error
   * (INVALID_ARGUMENTS, INVALID_OUTPUT, BAD_BRANCH, NO_MODEL, planmode's TIMEOUT, ...) is never
   * handled.
   */
  readonly handled: boolean;
  /** How many times the tool was started (0 for calls that never ran). */
  readonly attempts: number;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly error: CallError | null;
  /** The tool's result (after output-schema checks), when it returned one. */
  readonly output?: unknown;
  /** The fully resolved arguments it ran with, when it ran. */
  readonly args?: JsonObject;
  /**
   * True when the tool did not run: an earlier result was written in its place
   * ({@link RunOptions.reuse}; the plan loop does this for a side effect an earlier turn had).
   */
  readonly reused?: true;
  /**
   * For a call that ended `skipped` (or `upstream_failed`) because a value it reads was
   * missing: those references, as written (`†state.sunny`). Absent otherwise.
   */
  readonly missing?: readonly string[];
  /**
   * For a `_forEach` call that started its elements: each element's status and error, in
   * element order. Absent otherwise.
   */
  readonly elements?: readonly ElementReport[];
  /** For a workflow call (not a `_forEach` one: see `elements`) whose sub-run ran: what it did. */
  readonly workflow?: WorkflowRunReport;
}

export interface RunResult {
  readonly status: RunStatus;
  readonly state: JsonObject;
  /** Every call of the plan, in array order. */
  readonly calls: readonly CallReport[];
  readonly diagnostics: readonly Diagnostic[];
  readonly startedAt: string;
  readonly endedAt: string;
  /**
   * Time, in ms, during which the run waited for an answer from `approve` (a person at a
   * prompt): the plan's approval, and any time at least one call's approval was pending.
   * The run's own time is `endedAt - startedAt - approvalWaitMs`. Always set by `run`.
   */
  readonly approvalWaitMs?: number;
  /**
   * Set when a person edited the plan at its approval (`approve` answered `{ approved: true,
   * plan }` with a plan that differs from the one asked about): the run ran `editedPlan`, and
   * `calls` are its calls. Absent otherwise; an edit that changes nothing counts as none.
   */
  readonly edited?: true;
  /** With `edited`: the plan that ran, as the edit gave it (its JSON value). */
  readonly editedPlan?: unknown;
  /**
   * Set when the run resumed (`resume: true`) from the journal of an earlier version of the
   * plan: which calls reused its results, and which ran and why. Absent otherwise (a fresh run,
   * or a resume of this very plan's journal).
   */
  readonly resumedFrom?: EarlierVersionReport;
  /**
   * Locks of journals left by processes that no longer run (killed, crashed), which this run
   * took over. Absent when there were none.
   */
  readonly staleLocks?: readonly StaleJournalLock[];
  /**
   * Set when a tool ended the loop (it threw or returned `endLoop(reason)`): which tool, in
   * which call, and why. That call ended `succeeded` with nothing written; no call started after
   * it (those running finished; the rest ended `cancelled`, which alone does not make the run
   * `cancelled`). Absent otherwise.
   */
  readonly endedBy?: LoopEnding;
}
