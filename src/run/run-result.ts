/** The run's status and result, made from the call records once the run has ended. */
import { rememberPlan } from '../compile/plan-of.js';
import type { Runner } from './runner.js';
import type { CallReport, RunResult, RunStatus } from './types.js';

/**
 * The run's status: `succeeded` unless a call ended otherwise. When several apply: an aborted
 * run is `cancelled`; otherwise an unhandled failure makes it `failed` (calls that fail-fast
 * cancelled are its consequence); then `rejected`, then `cancelled`.
 */
export function runStatus(run: Runner): RunStatus {
  if (run.options.signal?.aborted) return 'cancelled';
  let failed = run.stream?.cut === true;
  let rejected = false;
  let cancelled = false;
  for (const record of run.records) {
    if (record.status === 'cancelled') cancelled = true;
    else if (record.status === 'rejected') rejected = true;
    else if (record.status === 'upstream_failed' || (record.status === 'failed' && !record.handled)) {
      failed = true;
    }
  }
  return failed ? 'failed' : rejected ? 'rejected' : cancelled ? 'cancelled' : 'succeeded';
}

export function runResult(run: Runner, status: RunStatus): RunResult {
  // Calls start and end in bursts within one millisecond: each distinct time is converted once.
  const isoByTime = new Map<number, string>();
  const iso = (t: number | null) => {
    if (t === null) return null;
    let text = isoByTime.get(t);
    if (text === undefined) {
      text = new Date(t).toISOString();
      isoByTime.set(t, text);
    }
    return text;
  };
  const calls: CallReport[] = run.calls.map((call, i) => {
    const r = run.records[i]!;
    const report: { -readonly [K in keyof CallReport]: CallReport[K] } = {
      id: call.id,
      tool: call.tool,
      status: r.status ?? 'cancelled',
      branch: r.branch,
      handled: r.handled,
      attempts: r.attempts,
      startedAt: iso(r.startedAt),
      endedAt: iso(r.endedAt),
      error: r.error,
    };
    // Assigned, not spread: a spread per call is a slow object copy on 100k-call runs.
    if (r.output !== undefined) report.output = r.output;
    if (r.args !== undefined) report.args = r.args;
    if (r.reused) report.reused = true;
    if (r.missing) report.missing = r.missing;
    return report;
  });
  const endedAt = new Date().toISOString();
  run.event({ type: 'run:end', status });
  const result: RunResult = {
    status,
    state: run.state.value,
    calls,
    diagnostics: run.plan.diagnostics,
    startedAt: new Date(run.startedAt).toISOString(),
    endedAt,
    approvalWaitMs: run.approvalWaitMs + (run.approvalsPending > 0 ? Date.now() - run.approvalSince : 0),
  };
  // A streamed plan has no order or levels to draw: its result is not tied to a plan.
  return run.stream ? result : rememberPlan(result, run.plan);
}
