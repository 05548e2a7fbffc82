/**
 * What `plan run` says about its journal on stderr, one line each: the earlier version of the
 * plan it resumed from (what it reused and what ran again), and stale locks it took over.
 */
import type { NotReusedCall, RunResult } from '../../run/types.js';
import { oneLine, paint } from './format.js';

/** Calls named in the resume line; the rest are counted. */
const NAMED_CALLS = 10;

/** The lines, each ending in a newline; empty when the journal has nothing to say. */
export function formatJournalNotes(result: RunResult, options: { readonly color: boolean }): string {
  const label = paint('plan: note:', options.color, 'yellow');
  let text = '';
  for (const stale of result.staleLocks ?? []) {
    text += `${label} ${oneLine(`took over the journal lock '${stale.lock}' left by process ${stale.pid} (started ${stale.startedAt}), which no longer runs`)}\n`;
  }
  const earlier = result.resumedFrom;
  if (earlier !== undefined) {
    const reused = earlier.reused.length;
    const ran = earlier.notReused;
    const what = `reused ${reused} call${reused === 1 ? '' : 's'}; ${ran.length === 0 ? 'none ran again' : `${ran.length} ran: ${listCalls(ran)}`}`;
    text += `${label} ${oneLine(`resumed from an earlier version of the plan (journal '${earlier.journal}'): ${what}`)}\n`;
  }
  return text;
}

function listCalls(calls: readonly NotReusedCall[]): string {
  const named = calls.slice(0, NAMED_CALLS).map(({ call, reason }) => `${quoted(call)} (${reason})`);
  const more = calls.length > NAMED_CALLS ? ` and ${calls.length - NAMED_CALLS} more` : '';
  return `${named.join(', ')}${more}`;
}

/** A call id in quotes, its control characters escaped as JSON escapes them: on one line. */
function quoted(id: string): string {
  return `'${JSON.stringify(id).slice(1, -1)}'`;
}
