/** What `plan run --json` prints: a stable contract for scripts, made from the run's result. */
import type { CallReport, RunResult } from '../../run/types.js';

/** One call in the `--json` object: exactly these keys, a stable contract for scripts. */
export type RunJsonCall = Pick<
  CallReport,
  'id' | 'tool' | 'status' | 'branch' | 'handled' | 'attempts' | 'startedAt' | 'endedAt' | 'error'
>;

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
    calls: result.calls.map((c) => ({
      id: c.id,
      tool: c.tool,
      status: c.status,
      branch: c.branch,
      handled: c.handled,
      attempts: c.attempts,
      startedAt: c.startedAt,
      endedAt: c.endedAt,
      error: c.error,
    })),
    diagnostics: [...result.diagnostics],
    durationMs: Math.max(0, Date.parse(result.endedAt) - Date.parse(result.startedAt) - approvalWaitMs),
    approvalWaitMs,
    ...(result.resumedFrom && { resumedFrom: result.resumedFrom }),
  };
}
