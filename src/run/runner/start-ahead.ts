/**
 * Starts written ahead: the `call:start` lines of the calls about to start, written in the same
 * write(2) as the `call:end` that frees them, so that a journaled call costs one write instead of
 * two (a start before its tool runs, an end before anyone hears of it).
 *
 * When a call ends, before its `call:end` is written and before anyone hears of it, the run
 * looks at the calls that will start next: those waiting for a concurrency slot (their
 * arguments are known), then those the ending made ready (or that wait in the work list). For
 * each that would start at once (its arguments resolve, no approval to ask, no model to wait
 * for, no result to put back, no program-order gate, no reuse hook, not a `_forEach` or remote
 * call), it resolves the arguments once, keeps them on the call's record, and appends the call's
 * `call:start` to the journal; the journal writes the `call:end` and those starts together, and
 * leaves out each start's own line when the call starts (Journal.appendAhead). The observers
 * hear of the end afterwards, exactly as before, and the call then starts as before, with the
 * arguments kept.
 *
 * The crash promises are unchanged: every start is in the file before its tool runs, every end
 * before anyone hears of its call and before anything that depends on it starts. A start
 * written ahead of a call that then never starts (an observer halts or cancels the run on the
 * end, or pauses it and the process dies) reads, on resume, as any start without an end: the
 * call runs from its start, which is right for a call that never ran; a run that goes on ends
 * such a call `cancelled`, which writes its `call:end` as before.
 */
import type { CompiledCall } from '../../compile/types.js';
import type { JsonObject } from '../../language/document.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { type ArgumentSources, MissingValues, resolveArguments } from '../call/index.js';
import type { RunJournal } from '../journal/index.js';
import { isoNow } from '../run-event.js';
import type { CallSlots } from '../schedule/index.js';
import type { OrderGates } from '../../compile/order/index.js';
import type { CallRecord } from '../call-record.js';
import type { RunEvent, RunOptions } from '../types.js';
import type { RunState } from '../state/index.js';

/**
 * Most starts written ahead and not yet ended, whatever the concurrency: a wide plan's first
 * write holds this many, then each ending adds about one.
 */
const MAX_AHEAD = 64;

/**
 * A call's state here: not looked at; its start written ahead with the arguments its turn found
 * (it waited for a slot) or took (WRITTEN), or with arguments resolved here that its turn has not
 * taken yet (RESOLVED); or not to write ahead (SKIPPED, and once a written call ends).
 */
const NOT_SEEN = 0;
const WRITTEN = 1;
const SKIPPED = 2;
const RESOLVED = 3;

/** What writing ahead reads of the run (the Runner is one). */
export interface AheadRun {
  readonly calls: readonly CompiledCall[];
  readonly records: readonly CallRecord[];
  readonly tools: ToolRegistry;
  readonly options: RunOptions;
  readonly mode: 'eager' | 'lazy';
  readonly concurrency: number;
  readonly stopping: boolean;
  readonly gates: OrderGates;
  readonly slots: CallSlots;
  readonly work: number[];
  readonly workHead: number;
  readonly state: RunState;
  readonly roots: { input: JsonObject; state: JsonObject };
  readonly argumentSources: ArgumentSources;
  readonly reuseHook: RunOptions['reuse'];
  readonly remote: RunOptions['remote'];
}

export class StartsAhead {
  /** Per call: NOT_SEEN, WRITTEN or SKIPPED. */
  readonly #state: Uint8Array;
  /** Calls WRITTEN or RESOLVED that have not ended. */
  #open = 0;
  /**
   * Where in the work list to look next: the calls before it were looked at (a wide plan's
   * thousands of ready calls are each looked at once, not at every ending).
   */
  #cursor = 0;
  readonly #journal: RunJournal;
  readonly #limit: number;

  constructor(calls: number, journal: RunJournal, concurrency: number) {
    this.#state = new Uint8Array(calls);
    this.#journal = journal;
    this.#limit = Math.min(concurrency, MAX_AHEAD);
  }

  /**
   * Writing ahead for this run, or null: only a journal that allows it (version 2 or later, the
   * run's own, not resuming from an earlier version of the plan), and only a plan without
   * program-order gates or a reuse hook (both decide at the call's turn whether it starts) and
   * not run elsewhere.
   */
  static for(run: AheadRun, journal: RunJournal | undefined): StartsAhead | null {
    // Asking the journal of an earlier version of the plan for a result counts the answer in
    // `resumedFrom`: a call is asked once, at its turn.
    if (journal === undefined || !journal.writesAhead || journal.earlier !== undefined) return null;
    if (run.gates.size !== 0 || run.reuseHook !== undefined || run.remote !== undefined) return null;
    return new StartsAhead(run.calls.length, journal, run.concurrency);
  }

  /**
   * At call i's turn: true when its start was written ahead with arguments resolved here, which
   * its record holds; they are its arguments now.
   */
  take(i: number): boolean {
    if (this.#state[i] !== RESOLVED) return false;
    this.#state[i] = WRITTEN;
    return true;
  }

  /**
   * Call i ended: its start written ahead, if any, no longer counts against the limit; arguments
   * resolved here that its turn never took (it was cancelled first) leave its record, as
   * they would never have been resolved without a journal.
   */
  ended(i: number, record: CallRecord): void {
    const state = this.#state[i];
    if (state !== WRITTEN && state !== RESOLVED) return;
    if (state === RESOLVED) record.args = undefined;
    this.#state[i] = SKIPPED;
    this.#open--;
  }

  /**
   * At a call's end, once its line is appended (held) and before it is written: appends the
   * starts of the calls next to start.
   */
  write(run: AheadRun): void {
    if (run.stopping || run.slots.paused) return;
    const { slots } = run;
    // Those waiting for a slot start first, in line: their arguments are known.
    for (let k = 0, n = slots.waiting; k < n && this.#open < this.#limit; k++) {
      const i = slots.waitingCall(k);
      if (this.#state[i] === NOT_SEEN) this.#append(run, i, slots.waitingArgs(k), WRITTEN);
    }
    const { work } = run;
    let p = this.#cursor;
    // The list started over at its front (Runner.drain): look from its head.
    if (p < run.workHead || p > work.length) p = run.workHead;
    for (; p < work.length && this.#open < this.#limit; p++) {
      const i = work[p]!;
      if (this.#state[i] !== NOT_SEEN) continue;
      const args = startingArgs(run, i, this.#journal);
      if (args === undefined) this.#state[i] = SKIPPED;
      else {
        run.records[i]!.args = args;
        this.#append(run, i, args, RESOLVED);
      }
    }
    this.#cursor = p;
  }

  #append(run: AheadRun, i: number, args: JsonObject, state: typeof WRITTEN | typeof RESOLVED): void {
    const call = run.calls[i]!;
    this.#state[i] = state;
    this.#open++;
    this.#journal.appendAhead({
      type: 'call:start',
      call: call.id,
      tool: call.tool,
      attempt: 1,
      args,
      at: isoNow(),
    });
  }
}

/**
 * The arguments call i starts with when its turn comes, resolved as Runner.ready resolves them,
 * when it would start at once: undefined when it would not (it is skipped, waits for a person or
 * a model, puts back an earlier result, or its arguments cannot be resolved: the run finds out
 * at its turn, as before).
 */
function startingArgs(run: AheadRun, i: number, journal: RunJournal): JsonObject | undefined {
  const call = run.calls[i]!;
  if (call.forEach || (call.hasOutput && run.mode === 'eager')) return undefined;
  const registered = run.tools.get(call.tool);
  if (registered === undefined || registered.tool.needsApproval || registered.tool.latent) return undefined;
  let args: JsonObject;
  try {
    run.roots.state = run.state.value;
    const resolved = resolveArguments(call, run.argumentSources);
    if (resolved instanceof MissingValues) return undefined;
    args = resolved;
    if (registered.defaults && run.options.applyDefaults !== false) args = registered.defaults.fill(args);
  } catch {
    // Its turn meets the same failure and reports it.
    return undefined;
  }
  return journal.resultFor(call.id, args) === undefined ? args : undefined;
}

/**
 * Journals an event of the run: a `call:end` is written, with the starts written ahead of it, in
 * one write(2) before anyone hears of the call and before anything that depends on it starts
 * (its successors are in the work list already); any other event as the journal appends it.
 */
export function journalEvent(
  run: AheadRun,
  journal: RunJournal,
  ahead: StartsAhead | null,
  event: RunEvent,
): void {
  if (event.type !== 'call:end') return journal.append(event);
  journal.hold(event);
  ahead?.write(run);
  journal.sync();
}
