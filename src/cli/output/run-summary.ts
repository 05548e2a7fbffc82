/**
 * The last words of `plan run` on stderr: status, duration, counts per terminal state, what
 * failed and why calls were skipped, then the state.
 */
import type { CompiledPlan } from '../../compile/types.js';
import { CALL_STATUSES, type CallStatus, type RunResult } from '../../run/types.js';
import { formatCallOutcomes } from './call-outcomes.js';
import { formatDuration, paint, plural, type Style } from './format.js';

export interface SummaryOptions {
  /** The plan's name. */
  readonly file: string;
  readonly color: boolean;
  /** Ctrl-C ended the run. */
  readonly interrupted?: boolean;
  /** --fail-fast was given: a cancelled run was stopped by it. */
  readonly failFast?: boolean;
  /**
   * The final state is printed whole (indented) when its JSON takes at most this many bytes:
   * a small state is what a person wants to see; a bigger one gets its size, and --json.
   * @default 4096
   */
  readonly maxStateBytes?: number;
  /**
   * The compiled plan that ran: with it, each skipped call says why its value was missing.
   * @default undefined
   */
  readonly plan?: CompiledPlan;
  /**
   * List each failed call with its error (the live view has shown them already).
   * @default true
   */
  readonly failures?: boolean;
}

const STATUS_STYLE: Record<RunResult['status'], Style> = {
  succeeded: 'green',
  failed: 'red',
  cancelled: 'yellow',
  rejected: 'yellow',
};

const CALL_STYLE: Record<Exclude<CallStatus, 'succeeded'>, Style> = {
  failed: 'red',
  upstream_failed: 'red',
  skipped: 'dim',
  cancelled: 'yellow',
  rejected: 'yellow',
};

/**
 * `plan.json: run succeeded in 1.24s (plus 8.00s waiting for approval), 4 calls: 3 succeeded,
 * 1 skipped`, a line per failed or skipped call, then `state: {...}` (or its size, when big).
 */
export function formatRunSummary(result: RunResult, options: SummaryOptions): string {
  const c = options.color;
  // Time at an approval prompt is a person's, not the run's: it is told apart.
  const waitedMs = result.approvalWaitMs ?? 0;
  const ms = Math.max(0, Date.parse(result.endedAt) - Date.parse(result.startedAt) - waitedMs);
  let status = options.interrupted
    ? `${paint('interrupted', c, 'yellow', 'bold')} after`
    : `${paint(result.status, c, STATUS_STYLE[result.status], 'bold')} in`;
  const stoppedEarly = result.calls.some((call) => call.status === 'cancelled');
  if (!options.interrupted && options.failFast && result.status === 'failed' && stoppedEarly)
    status = `${paint('stopped by --fail-fast', c, 'red', 'bold')} after`;
  const counts = new Map<CallStatus, number>();
  let handled = 0;
  for (const call of result.calls) {
    counts.set(call.status, (counts.get(call.status) ?? 0) + 1);
    if (call.handled) handled++;
  }
  const parts = CALL_STATUSES.filter((s) => counts.has(s)).map((s) => {
    const text = `${counts.get(s)} ${s}${s === 'failed' && handled > 0 ? ` (${handled} handled)` : ''}`;
    return s === 'succeeded' ? text : paint(text, c, CALL_STYLE[s]);
  });
  const waited = waitedMs > 0 ? ` (plus ${formatDuration(waitedMs)} waiting for approval)` : '';
  let out = `${paint(options.file, c, 'bold')}: run ${status} ${formatDuration(ms)}${waited}, ${plural(result.calls.length, 'call')}`;
  out += parts.length > 0 ? `: ${parts.join(', ')}\n` : '\n';
  out += formatCallOutcomes(result.calls, {
    color: c,
    ...(options.plan && { plan: options.plan }),
    ...(options.failures !== undefined && { failures: options.failures }),
  });
  out += formatCancelledWhileRunning(result.calls, c);
  out += formatState(result.state, options.maxStateBytes ?? 4096);
  return out;
}

/** Calls named in the `cancelled while running` line; more are counted. */
const MAX_CANCELLED_NAMED = 10;

/**
 * `cancelled while running: fetch (http_get), index (embed)`: the calls Ctrl-C (or
 * --fail-fast) stopped midway, whose side effects may be half done.
 */
function formatCancelledWhileRunning(calls: RunResult['calls'], color: boolean): string {
  const named: string[] = [];
  let count = 0;
  for (const call of calls) {
    if (call.status !== 'cancelled' || call.startedAt === null) continue;
    if (count++ < MAX_CANCELLED_NAMED) named.push(`${call.id} (${call.tool})`);
  }
  if (count === 0) return '';
  const more = count > named.length ? ` and ${count - named.length} more` : '';
  return `${paint('cancelled while running', color, 'yellow')}: ${named.join(', ')}${more}\n`;
}

function formatState(state: RunResult['state'], maxBytes: number): string {
  const keys = Object.keys(state).length;
  if (keys === 0) return 'state: {}\n';
  let compact: string;
  try {
    compact = JSON.stringify(state);
  } catch {
    return `state: ${plural(keys, 'key')}\n`;
  }
  const bytes = Buffer.byteLength(compact);
  if (bytes <= maxBytes) return `state: ${JSON.stringify(state, null, 2)}\n`;
  return `state: ${plural(keys, 'key')}, ${bytes} bytes of JSON (--json prints it)\n`;
}
