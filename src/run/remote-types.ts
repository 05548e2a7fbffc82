/** What a run hands to a {@link RemoteInvoker} when its calls run elsewhere (RunOptions.remote). */
import type { JsonObject } from '../language/document.js';
import type { Tool } from '../tools/tool.js';
import type { Retries } from './retry.js';

/** A retry the remote side is about to make: announced as `call:retry` and the next `call:start`. */
export interface RemoteRetry {
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  /** The wait before the next attempt. */
  readonly delayMs: number;
  /** The attempt's error, as a CallError. */
  readonly error: { readonly message: string; readonly code?: string };
}

/** One call handed to a {@link RemoteInvoker}: everything another process needs to run it. */
export interface RemoteCall {
  /** The run's id (`RunOptions.runId`): with `call`, unique across runs. */
  readonly runId: string;
  /** The call's id in the plan. */
  readonly call: string;
  /** The tool's name. */
  readonly tool: string;
  /** The tool's definition (its retries and timeout are given below already). */
  readonly definition: Tool;
  /** The resolved arguments, checked against the tool's `inputSchema` already. */
  readonly args: JsonObject;
  /** The call's output paths as written (the tool's `ctx.outputPaths`). */
  readonly outputPaths: readonly string[];
  /** Aborted when the run is: the invoker should give up the call (and tell the far side). */
  readonly signal: AbortSignal;
  /** Time limit per attempt (the tool's own, else the run's); 0 means none. The invoker enforces it. */
  readonly timeoutMs: number;
  /** The tool's retry policy, normalized. The invoker retries; the executor does not retry again. */
  readonly retries: Retries;
  /**
   * Call before each retry, so the run's events and attempt count stay as for a local run. The
   * report is untrusted (it comes from another process): it is taken only as the journal reads
   * its own `call:retry` records (an attempt from 1 to `retries.limit`, at most one report per
   * attempt, `delayMs` a finite number 0 or more, `error` exactly `{message, code?}`, its
   * message cut to 10,000 characters). Returns why a report was refused (it is then neither
   * journaled nor heard), for the invoker to say; undefined when it was taken or came late.
   */
  readonly onRetry: (retry: RemoteRetry) => string | undefined;
}

/**
 * Runs a call's attempts somewhere else (another process, another machine) instead of calling
 * the tool's `execute`: resolves with the tool's value (JSON; a choice of a `||` alternative as
 * a `branch(k, value)` value, since the JSON form of one is data here whatever the scheduler's
 * definition declares: the remote side decides), or rejects with its last error
 * (an Error with `message` and, when there is one, `code`). Latent tools stay with `latent`.
 * A rejection counts as the tool's own error (a declared error alternative may receive it),
 * except planmode's own errors: `planmode/distributed`'s dispatcher rejects with those when the
 * worker refused the call or its output, timed it out, or the queue lost it.
 */
export type RemoteInvoker = (call: RemoteCall) => Promise<unknown>;
