/** The `call:end` event of a call that has just ended, from its record. */
import type { RunEventDraft } from '../run-event.js';
import type { CompiledCall } from '../../compile/types.js';
import type { CallRecord } from '../call-record.js';
import type { CallStatus } from '../types.js';

/** What callEndEvent reads of the run (the Runner is one). */
export interface EndingRun {
  readonly calls: readonly CompiledCall[];
  readonly records: readonly CallRecord[];
  /** Calls whose result came from the journal: their end says so, with their arguments. */
  readonly resumed: ReadonlySet<number>;
}

export function callEndEvent(run: EndingRun, i: number, status: CallStatus): RunEventDraft {
  const call = run.calls[i]!;
  const record = run.records[i]!;
  return {
    type: 'call:end',
    call: call.id,
    tool: call.tool,
    status,
    branch: record.branch,
    handled: record.handled,
    attempts: record.attempts,
    durationMs: record.startedAt === null ? null : record.endedAt! - record.startedAt,
    error: record.error,
    ...(record.output !== undefined && { output: record.output }),
    ...(run.resumed.has(i) && { resumed: true, args: record.args }),
    ...(record.reused && { reused: true }),
  };
}
