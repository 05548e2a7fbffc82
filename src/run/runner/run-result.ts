/** The run's status and result, made from the call records once the run has ended. */
import { rememberPlan } from '../../compile/plan-of.js';
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import type { CallRecord } from '../call-record.js';
import { loopEndingOf } from '../call/index.js';
import type { LoopEnding } from '../../tools/end-loop.js';
import type { RunJournal } from '../journal/index.js';
import { isoAt, isoNow, type RunEventDraft } from '../run-event.js';
import type { RunState } from '../state/index.js';
import type { StreamState } from './streamed-plan.js';
import type { CallReport, ParentRun, RunOptions, RunResult, RunStatus } from '../types.js';
import { SubRuns } from './sub-run-results.js';

/** What the run's result is made from (the Runner is one). */
export interface ResultHost {
  readonly plan: CompiledPlan;
  readonly calls: readonly CompiledCall[];
  readonly records: readonly CallRecord[];
  readonly options: RunOptions;
  readonly state: RunState;
  readonly stream: StreamState | null;
  readonly journal: RunJournal | undefined;
  readonly startedAt: number;
  readonly approvalsPending: number;
  readonly approvalSince: number;
  readonly approvalWaitMs: number;
  /** What the run's workflow calls hand their sub-runs; `subRuns` holds what those did. */
  readonly asParent: ParentRun;
  event(event: RunEventDraft): void;
}

/**
 * The run's status: `succeeded` unless a call ended otherwise. When several apply: an aborted
 * run is `cancelled`; otherwise an unhandled failure makes it `failed` (calls that fail-fast
 * cancelled are its consequence); then `rejected`, then `cancelled` (but not the calls a tool's
 * `endLoop()` left unstarted).
 */
export function runStatus(run: ResultHost): RunStatus {
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
  // A tool that ended the loop (endLoop()) cancelled what had not started: that is its decision.
  if (cancelled && loopEndingOf(run) !== undefined) cancelled = false;
  return failed ? 'failed' : rejected ? 'rejected' : cancelled ? 'cancelled' : 'succeeded';
}

export function runResult(run: ResultHost, status: RunStatus): RunResult {
  const endedAt = isoNow();
  run.event({ type: 'run:end', status });
  // The reports are made when first read, once: a caller that wants the state only (a long-lived
  // service running plan after plan) pays for no object per call. The records no longer change.
  // `calls` is defined as a getter before the keys after it are added: turning a data property
  // into a getter afterwards made every result a slow dictionary-mode object (~2 µs a run).
  const result = { status, state: run.state.value } as Mutable<RunResult>;
  Object.defineProperty(result, 'calls', CALLS);
  result.diagnostics = run.plan.diagnostics;
  result.startedAt = isoAt(run.startedAt);
  result.endedAt = endedAt;
  result.approvalWaitMs =
    run.approvalWaitMs + (run.approvalsPending > 0 ? Date.now() - run.approvalSince : 0);
  const subRuns = run.asParent.subRuns instanceof SubRuns ? run.asParent.subRuns : null;
  const source: ReportSource = { calls: run.calls, records: run.records, subRuns, reports: undefined };
  Object.defineProperty(result, SOURCE, { value: source });
  if (run.journal) addJournalNotes(result, run.journal);
  const ending = loopEndingOf(run);
  if (ending) (result as { endedBy?: LoopEnding }).endedBy = ending;
  // A streamed plan has no order or levels to draw: its result is not tied to a plan.
  return run.stream ? result : rememberPlan(result, run.plan);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What the journal has to tell: an earlier version resumed from, stale locks taken over. */
function addJournalNotes(
  result: { -readonly [K in keyof RunResult]?: RunResult[K] },
  journal: RunJournal,
): void {
  const earlier = journal.earlier?.report();
  if (earlier) result.resumedFrom = earlier;
  if (journal.staleLocks.length > 0) result.staleLocks = journal.staleLocks;
}

/** What a result's call reports are made from, until they are. */
interface ReportSource {
  readonly calls: readonly CompiledCall[];
  readonly records: readonly CallRecord[];
  readonly subRuns: SubRuns | null;
  reports: readonly CallReport[] | undefined;
}

/**
 * Where a result keeps its source: a hidden property (not enumerable, so no copy, comparison or
 * JSON text sees it), not a WeakMap, which would keep every run's records alive through the
 * young generation's collections until a full one.
 */
const SOURCE = Symbol('planmode.callReports');

/**
 * The getter of every result's `calls`: one function for all of them, so that every result keeps
 * one shape (a getter made per result would give each result a map of its own).
 */
function callsOfResult(this: { [SOURCE]?: ReportSource }): readonly CallReport[] {
  const source = this[SOURCE];
  if (source === undefined) throw new TypeError('Expected a run result as the receiver of calls');
  if (source.reports === undefined) {
    const reports = callReports(source.calls, source.records);
    source.subRuns?.addTo(reports);
    source.reports = reports;
  }
  return source.reports;
}

const CALLS: PropertyDescriptor = { enumerable: true, configurable: true, get: callsOfResult };

/** Every call's report, from its record. */
function callReports(
  calls: readonly CompiledCall[],
  records: readonly CallRecord[],
): { -readonly [K in keyof CallReport]: CallReport[K] }[] {
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
  return calls.map((call, i) => {
    const r = records[i]!;
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
    if (r.elements) report.elements = r.elements;
    return report;
  });
}
