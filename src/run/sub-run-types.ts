/**
 * What a run tells about the workflows it runs: where a sub-run is (the chain of workflow calls
 * above it), and what a workflow's plan will call (as a lazy plan's approval lists it); and the
 * dispatch a sub-run follows.
 */
import type { JsonObject } from '../language/document.js';

/**
 * The key under which a sub-run's options say that its `signal` is its workflow call's own
 * abortSignal, which the calling run aborts when it cancels the call or its time runs out. The
 * sub-run is cancelled only through it, so its attempts share it (see sharedController) instead
 * of a controller of their own that would only copy it.
 */
export const CALLERS_SIGNAL: unique symbol = Symbol('planmode.callersSignal');

/**
 * One workflow call on the way from the run down to a sub-run: a call whose tool is a workflow,
 * in the run (or sub-run) it belongs to. Events and approval requests from inside a workflow
 * carry the chain of these, outermost first; the last is the call whose sub-run it is.
 */
export interface ParentCall {
  /** The call's id in its own plan (the outer plan's `_id`, or the id in the workflow's plan). */
  readonly call: string;
  /** The call's tool: the workflow. */
  readonly tool: string;
  /** When the call is a `_forEach` call: the position of the element whose sub-run this is. */
  readonly element?: number;
}

/**
 * The top run's dispatch (its concurrency slots, see run/schedule's CallSlots), which every
 * sub-run under it follows while it runs: pausing the top run holds them all. Opaque here.
 */
export interface DispatchGroup {
  readonly paused: boolean;
}

/**
 * The key under which a sub-run's options carry the top run's DispatchGroup (a symbol: not an
 * option a caller can pass by name).
 */
export const DISPATCH_GROUP: unique symbol = Symbol('planmode.dispatchGroup');

/** One call of a workflow's plan, as a lazy plan's approval lists it (`workflows`). */
export interface WorkflowInnerCall {
  /** The call's id in the workflow's plan. */
  readonly id: string;
  /** Its tool: look it up in `workflows` too, when it is itself a workflow. */
  readonly tool: string;
  /** The arguments as written in the workflow's plan (references as their text, `†input.topic`). */
  readonly args: JsonObject;
  /** `_outputPath` as written, or null. */
  readonly outputPath: string | null;
  /** `_forEach` as written, when the call has one. */
  readonly forEach?: string;
  /** Its tool has `needsApproval`: the call is asked about by itself when it is ready, as at top level. */
  readonly needsApproval?: true;
}
