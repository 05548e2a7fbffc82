/**
 * A call whose tool ended the loop (`endLoop()`, tools/end-loop.ts): it ends `succeeded` with
 * nothing written, and the run starts nothing new (as `failFast` does: calls running finish,
 * those not started end `cancelled`). The first ending is kept beside the run, not on it (the
 * Runner's fields are its hot path's), and becomes `RunResult.endedBy`.
 */
import type { EndLoopSignal, LoopEnding } from '../../tools/end-loop.js';
import type { CompiledCall } from '../../compile/types.js';
import type { CallRecord } from '../call-record.js';
import type { CallStatus } from '../types.js';

/** What ending the loop needs of the run (the Runner is one). */
export interface LoopEndingHost {
  readonly calls: readonly CompiledCall[];
  readonly records: readonly CallRecord[];
  stopping: boolean;
  end(i: number, status: CallStatus): void;
}

const endings = new WeakMap<object, LoopEnding>();

export function endLoopAt(run: LoopEndingHost, i: number, signal: EndLoopSignal): void {
  const call = run.calls[i]!;
  run.records[i]!.error = null;
  if (!endings.has(run)) endings.set(run, { tool: call.tool, callId: call.id, reason: signal.reason });
  run.stopping = true;
  run.end(i, 'succeeded');
}

/** The ending of a run whose tool ended the loop, if one did. */
export function loopEndingOf(run: object): LoopEnding | undefined {
  return endings.get(run);
}
