/** The line `plan agent` prints when a model's turn stops with calls of it already started. */
import type { AgentEvent } from '../../agent/agent-events.js';

/** A reply that was not a solution (its run halted), or a turn that failed after calls ran. */
export function stoppedTurnLine(event: Extract<AgentEvent, { type: 'halt' | 'turn-failed' }>): string {
  if (event.type === 'halt') return 'the reply is not a solution: the calls running end, no more start';
  const names = (calls: readonly { readonly name: string }[]) => calls.map((call) => call.name).join(', ');
  const notRun = event.notRun.length > 0 ? `; did not run ${names(event.notRun)}` : '';
  return `the turn failed after some of its calls: ran ${event.ran.length > 0 ? names(event.ran) : 'none'}${notRun}`;
}
