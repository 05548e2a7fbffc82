/**
 * Program order is not only timing. A call that follows another by effect order or `_after`
 * does not start when that call failed unhandled or ended `upstream_failed` itself: it ends
 * `upstream_failed`, and its error says which call it follows and why. A call it follows that
 * was skipped (a branch not taken), succeeded, was rejected or had its failure handled does
 * not hold it back. Write-after-write order keeps its own rule (timing only).
 */
import { GATE_AFTER, GATE_EFFECT, type GateKind, type OrderGates } from '../../compile/order/index.js';
import type { CompiledCall } from '../../compile/types.js';
import type { CallRecord } from '../call-record.js';
import type { CallStatus } from '../types.js';

/** What the order gates need of the run (the Runner is one). */
export interface GateHost {
  readonly calls: readonly CompiledCall[];
  readonly records: readonly CallRecord[];
  readonly gates: OrderGates;
  end(i: number, status: CallStatus): void;
}

/** Ends call i `upstream_failed` when a call it follows in program order failed; true then. */
export function endIfGated(run: GateHost, i: number): boolean {
  const gates = run.gates;
  for (let e = gates.first(i); e !== -1; e = gates.next(e)) {
    const j = gates.other(e);
    const record = run.records[j]!;
    if (!holdsBack(record)) continue;
    run.records[i]!.error = { message: gateMessage(run.calls, i, j, gates.kind(e), record) };
    run.end(i, 'upstream_failed');
    return true;
  }
  return false;
}

function holdsBack(record: CallRecord): boolean {
  return (record.status === 'failed' && !record.handled) || record.status === 'upstream_failed';
}

/** `follows call check (checkBillingHistory), which failed: refund (issueRefund) is an effect …`. */
function gateMessage(
  calls: readonly CompiledCall[],
  i: number,
  j: number,
  kind: GateKind,
  record: CallRecord,
): string {
  const call = calls[i]!;
  const other = calls[j]!;
  const outcome = record.status === 'failed' ? 'failed' : 'did not run (upstream_failed)';
  const why =
    kind === GATE_AFTER
      ? `its _after names ${other.id}`
      : kind === GATE_EFFECT
        ? `${call.id} (${call.tool}) is an effect: it waits for every earlier call`
        : `${other.id} (${other.tool}) is an effect: every later call waits for it`;
  return `not started: it follows call ${other.id} (${other.tool}), which ${outcome}; ${why}`;
}
