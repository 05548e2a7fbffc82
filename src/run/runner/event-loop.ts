/**
 * How a run shares the event loop: it yields past the poll phase (where signals arrive) between
 * bursts of synchronous calls, and holds the process alive while calls are pending.
 */
import { MAX_DELAY_MS } from '../../tools/tool-values.js';

/**
 * Runs `then` once the event loop has been through its poll phase, where signals arrive.
 * One setImmediate from an I/O callback runs in the same turn's check phase, before the next
 * poll: a Ctrl-C queued while a synchronous tool ran would still not be seen. A second hop,
 * queued during the check phase, runs in the next turn, after its poll.
 */
export function afterPoll(then: () => void): void {
  setImmediate(() => setImmediate(then));
}

/**
 * Waits for the run's end with a timer held, so the process stays alive while calls are
 * pending even when nothing else is (a tool's promise that never settles, no timeout): the run
 * waits there, visibly, until it is cancelled, instead of the process exiting with no word.
 * The timer never fires in practice (it is the longest delay setTimeout allows).
 */
export async function keptAlive(done: Promise<void>): Promise<void> {
  const keepAlive = setInterval(() => {}, MAX_DELAY_MS);
  try {
    await done;
  } finally {
    clearInterval(keepAlive);
  }
}
