/** What `plan run --json` prints: a stable contract for scripts, made from the run's result. */
import type { CallReport, RunResult } from '../../run/types.js';

/**
 * One call in the `--json` object: exactly these keys, a stable contract for scripts; a
 * `_forEach` call's `elements` and a workflow call's `workflow` (its sub-plan's calls, the same
 * way) when it has them, so that `plan graph --result` can draw the run.
 */
export type RunJsonCall = Pick<
  CallReport,
  'id' | 'tool' | 'status' | 'branch' | 'handled' | 'attempts' | 'startedAt' | 'endedAt' | 'error'
> & {
  readonly elements?: readonly RunJsonElement[];
  readonly workflow?: RunJsonWorkflow;
};

/** One element of a `_forEach` call: its status and error, and its sub-run over a workflow. */
export interface RunJsonElement {
  readonly status: 'succeeded' | 'failed' | 'not_run';
  readonly error: CallReport['error'];
  readonly workflow?: RunJsonWorkflow;
}

/** A workflow call's sub-run: its status and its calls. */
export interface RunJsonWorkflow {
  readonly status: RunResult['status'];
  readonly calls: readonly RunJsonCall[];
}

/** What `run --json` prints: status, state, calls and diagnostics, then the run's timing. */
export interface RunJson {
  readonly status: RunResult['status'];
  readonly state: RunResult['state'];
  readonly calls: RunJsonCall[];
  readonly diagnostics: RunResult['diagnostics'];
  /** The run's own time in ms: from start to end, less the time spent waiting for approval. */
  readonly durationMs: number;
  /** Time in ms spent waiting for an answer at an approval prompt. */
  readonly approvalWaitMs: number;
  /** With --resume, when the run resumed from the journal of an earlier version of the plan. */
  readonly resumedFrom?: RunResult['resumedFrom'];
}

export function toRunJson(result: RunResult): RunJson {
  const approvalWaitMs = result.approvalWaitMs ?? 0;
  return {
    status: result.status,
    state: result.state,
    calls: result.calls.map(jsonCall),
    diagnostics: [...result.diagnostics],
    durationMs: Math.max(0, Date.parse(result.endedAt) - Date.parse(result.startedAt) - approvalWaitMs),
    approvalWaitMs,
    ...(result.resumedFrom && { resumedFrom: result.resumedFrom }),
  };
}

/** A call's keys; its sub-runs' calls the same way (workflows nest at most 32 deep). */
function jsonCall(c: CallReport): RunJsonCall {
  return {
    id: c.id,
    tool: c.tool,
    status: c.status,
    branch: c.branch,
    handled: c.handled,
    attempts: c.attempts,
    startedAt: c.startedAt,
    endedAt: c.endedAt,
    error: c.error,
    ...(c.elements !== undefined && {
      elements: c.elements.map((e) => ({
        status: e.status,
        error: e.error,
        ...(e.workflow !== undefined && { workflow: jsonWorkflow(e.workflow) }),
      })),
    }),
    ...(c.workflow !== undefined && { workflow: jsonWorkflow(c.workflow) }),
  };
}

function jsonWorkflow(w: NonNullable<CallReport['workflow']>): RunJsonWorkflow {
  return { status: w.status, calls: w.calls.map(jsonCall) };
}
