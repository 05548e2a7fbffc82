/** What a journaled run's result says of what it resumed from, and of the locks it took over. */

/** What a resume from the journal of an earlier version of the plan did: see RunResult.resumedFrom. */
export interface EarlierVersionReport {
  /** The earlier version's journal (the newest, when that run had itself resumed from another). */
  readonly journal: string;
  /** The calls whose earlier result was reused (they end with `resumed: true`), as they became ready. */
  readonly reused: readonly string[];
  /** The calls that became ready and ran, with why no earlier result was reused, as they became ready. */
  readonly notReused: readonly NotReusedCall[];
}

/**
 * Why a call of a resumed run did not reuse an earlier version's result:
 * - `not run before`: the earlier journal has no start of a call of this id (a new call, or one
 *   the earlier run never reached);
 * - `did not succeed`: it started there but did not succeed (or fail into its error branch);
 * - `tool differs`: the earlier call of this id called another tool;
 * - `tool definition differs`: its tool's schemas, flags, time limit or retries changed;
 * - `arguments differ`: its resolved arguments are not those it had;
 * - `arguments not journaled`: its result was itself reused without a record of its arguments.
 */
export type NotReusedReason =
  | 'not run before'
  | 'did not succeed'
  | 'tool differs'
  | 'tool definition differs'
  | 'arguments differ'
  | 'arguments not journaled';

export interface NotReusedCall {
  readonly call: string;
  readonly reason: NotReusedReason;
}

/** A journal lock whose owner no longer ran, taken over by a run. */
export interface StaleJournalLock {
  /** The lock file. */
  readonly lock: string;
  /** The process that held it, on this host. */
  readonly pid: number;
  readonly hostname: string;
  /** When that process took it (ISO 8601). */
  readonly startedAt: string;
}
