/**
 * Where a call's failure came from. Only a tool's own error (what its `execute`, its latent
 * function or its remote worker's tool threw or returned as an error) may go to a declared error
 * alternative; a failure planmode made around the tool (arguments or output refused, a bad
 * branch, no model, its own timeout, a cancellation, a refusal by a guard, a queue that lost the
 * job) is a contract error and always fails the call.
 *
 * Told apart by origin, not by code: every place that makes such an error marks the object it
 * throws, and a tool that throws a `{code: 'TIMEOUT'}` of its own still throws its own error. A
 * mark is kept by identity in a WeakSet (nothing is written on the error, and it is forgotten
 * with it). A tool that passes on planmode's own error unchanged (rejects with its abortSignal's
 * reason, say) passes on a contract error.
 */

import { isEndLoopSignal } from '../../tools/end-loop.js';

const contractErrors = new WeakSet<object>();

/** Marks `error` as made by planmode around a tool (not by the tool), and returns it. */
export function contractError<T>(error: T): T {
  if ((typeof error === 'object' && error !== null) || typeof error === 'function') contractErrors.add(error);
  return error;
}

/** True for an error marked by {@link contractError}. */
export function isContractError(error: unknown): boolean {
  return (
    ((typeof error === 'object' && error !== null) || typeof error === 'function') &&
    contractErrors.has(error)
  );
}

const rejections = new WeakSet<object>();

/**
 * Marks `error` as a person's no from inside a tool: a workflow whose sub-run ended `rejected`
 * (a `needsApproval` call inside was turned down). The call that threw it ends `rejected`, as
 * a call turned down at top level does: it is not retried, and no error alternative receives
 * it. A rejection is a contract error too. Returns `error`.
 */
export function rejectionError<T extends object>(error: T): T {
  contractErrors.add(error);
  rejections.add(error);
  return error;
}

/** True for an error marked by {@link rejectionError}. */
export function isRejection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && rejections.has(error);
}

/**
 * True when no further attempt follows `error`: a person's no, or a tool's `endLoop()` signal
 * (a decision, not a fault: asking again is not retrying).
 */
export function endsAttempts(error: unknown): boolean {
  return isRejection(error) || isEndLoopSignal(error);
}
