/**
 * A tool's way to end the agent loop it runs in (gollem's ErrExitConversation): it throws or
 * returns `endLoop(reason)`. The loop (`solve()`, a PlanAgent's conversation, a todo plan)
 * starts nothing new after the step it is in, keeps what already ran, and says in its result
 * which tool ended it and why (`endedBy`). In a plain `run()` the call ends `succeeded` with
 * nothing written, no call starts after it (those running finish), and `RunResult.endedBy` says
 * so. Recognised by a brand, not by class: two copies of planmode know each other's signals.
 */
const BRAND: unique symbol = Symbol.for('planmode.endLoop') as never;

/** Longest reason kept: it is shown to people and to the model, not a payload. */
export const MAX_END_LOOP_REASON = 2_000;

/** What a tool throws or returns to end the loop: see {@link endLoop}. */
export class EndLoopSignal {
  readonly [BRAND] = true;
  readonly name = 'EndLoopSignal';
  /** Why, in the tool's words (at most {@link MAX_END_LOOP_REASON} characters). */
  readonly reason: string;

  constructor(reason: string) {
    if (typeof reason !== 'string')
      throw new TypeError(`endLoop: the reason must be a string, not ${typeof reason}`);
    this.reason = reason.length > MAX_END_LOOP_REASON ? `${reason.slice(0, MAX_END_LOOP_REASON)}…` : reason;
  }
}

/**
 * Ends the loop the tool runs in, after the step it is in: `return endLoop('the user said
 * stop')` (or throw it) from `execute`.
 */
export function endLoop(reason: string): EndLoopSignal {
  return new EndLoopSignal(reason);
}

/** True for a signal made by {@link endLoop} (by this copy of planmode or another). */
export function isEndLoopSignal(value: unknown): value is EndLoopSignal {
  if (value === null || typeof value !== 'object') return false;
  // A tool's answer may be a Proxy whose traps throw: reading it here must not throw in its
  // stead (the answer's own check names what is wrong with it), so such a value is no signal.
  try {
    return (
      (value as Record<symbol, unknown>)[BRAND] === true &&
      typeof (value as { reason?: unknown }).reason === 'string'
    );
  } catch {
    return false;
  }
}

/** Which tool ended a loop, in which call, and why: a result's `endedBy`. */
export interface LoopEnding {
  /** The tool's name. */
  readonly tool: string;
  /** The call's id: the plan call's `_id` in a run, the model's tool-call id in a conversation. */
  readonly callId: string;
  readonly reason: string;
}
