/**
 * The concurrency bound of a run: at most `concurrency` calls whose tools returned a promise are
 * in flight. A call that finds a free slot and nobody waiting starts at once; a tool that
 * answers synchronously holds no slot past its own return. Others wait in arrival order and
 * start as slots free up. No queue library, no promise and no task object per call: the waiting calls are
 * two parallel arrays read from a moving head (never shifted). Pausing sets the bound to 0,
 * so a paused run costs the dispatch of a running one nothing.
 *
 * A workflow call's sub-run has slots of its own, joined to the top run's while it runs (see
 * {@link CallSlots.join}): pausing the top run pauses every sub-run under it, at any depth, and
 * resuming it resumes them. All members join the top run's slots directly, never a sub-run's, so
 * a pause is one loop over the members, not a walk down the chain of workflows.
 */
import type { JsonObject } from '../../language/document.js';
import { DISPATCH_GROUP, type DispatchGroup } from '../types.js';

/** What the slots need of the run: start a call. */
export interface SlotRunner {
  /**
   * Starts call i: true while it runs asynchronously (it holds its slot until the run calls
   * {@link CallSlots.release}), false when it ended synchronously.
   */
  guarded(i: number, args: JsonObject): boolean;
}

export interface CallSlotsOptions {
  /** Most calls in flight at once; Infinity for no bound. */
  readonly concurrency: number;
  readonly runner: SlotRunner;
  /**
   * For a workflow's sub-run: the top run's slots, which these follow while the sub-run runs
   * (see joinGroup); null for a top run.
   * @default null
   */
  readonly group?: CallSlots | null;
}

/** The top run's slots a sub-run's options carry (see sub-run.ts), or null for a top run's. */
export function dispatchGroupOf(options: object): CallSlots | null {
  return (options as { readonly [DISPATCH_GROUP]?: CallSlots })[DISPATCH_GROUP] ?? null;
}

export class CallSlots implements DispatchGroup {
  readonly #concurrency: number;
  /** The bound dispatch reads: the concurrency, or 0 while paused (no check of its own per call). */
  #open: number;
  readonly #runner: SlotRunner;
  #running = 0;
  readonly #calls: number[] = [];
  readonly #args: JsonObject[] = [];
  #head = 0;
  /** The sub-runs' slots joined to these (see join); null until the first joins. */
  #members: Set<CallSlots> | null = null;
  readonly #group: CallSlots | null;

  constructor(options: CallSlotsOptions) {
    this.#concurrency = options.concurrency;
    this.#open = options.concurrency;
    this.#runner = options.runner;
    this.#group = options.group ?? null;
  }

  /** The top run's slots: these, or for a sub-run the ones it follows. */
  get root(): CallSlots {
    return this.#group ?? this;
  }

  /** The run starts: a sub-run's slots follow the top run's from now on. */
  joinGroup(): void {
    this.#group?.join(this);
  }

  /** The run ended. */
  leaveGroup(): void {
    this.#group?.leave(this);
  }

  /** Starts call i now if a slot is free and nobody waits before it; otherwise once one is. */
  dispatch(i: number, args: JsonObject): void {
    if (this.#head === this.#calls.length && this.#running < this.#open) this.#run(i, args);
    else {
      this.#calls.push(i);
      this.#args.push(args);
    }
  }

  #run(i: number, args: JsonObject): void {
    if (this.#runner.guarded(i, args)) this.#running++;
  }

  /**
   * No waiting call starts until {@link resume}, here or in a sub-run joined to these slots;
   * the calls running go on.
   */
  pause(): void {
    this.#hold();
    if (this.#members !== null) for (const member of this.#members) member.#hold();
  }

  /**
   * Calls start again, here and in the sub-runs joined to these slots, those that got ready
   * meanwhile first, in the order they did: from a microtask, so no tool runs inside the
   * caller's `resume()`.
   */
  resume(): void {
    this.#release();
    if (this.#members !== null) for (const member of this.#members) member.#release();
  }

  /**
   * A sub-run's slots follow these from now on until {@link leave}: paused now if these are,
   * and with every pause and resume of these after. Called with the top run's slots only.
   */
  join(member: CallSlots): void {
    (this.#members ??= new Set()).add(member);
    if (this.paused) member.#hold();
  }

  /** The sub-run ended: its slots no longer follow these. */
  leave(member: CallSlots): void {
    this.#members?.delete(member);
  }

  #hold(): void {
    this.#open = 0;
  }

  #release(): void {
    if (this.#open === this.#concurrency) return;
    this.#open = this.#concurrency;
    queueMicrotask(() => this.#startWaiting());
  }

  get paused(): boolean {
    return this.#open === 0;
  }

  /** How many calls wait for a slot. */
  get waiting(): number {
    return this.#calls.length - this.#head;
  }

  /** The call `k`-th in line for a slot (0: the next to start). */
  waitingCall(k: number): number {
    return this.#calls[this.#head + k]!;
  }

  /** The arguments of the call `k`-th in line for a slot. */
  waitingArgs(k: number): JsonObject {
    return this.#args[this.#head + k]!;
  }

  /** A call that ran asynchronously ended: its slot goes to whoever waits first. */
  release(): void {
    this.#running--;
    this.#startWaiting();
  }

  #startWaiting(): void {
    while (this.#running < this.#open && this.#head < this.#calls.length) {
      const k = this.#head++;
      const i = this.#calls[k]!;
      const args = this.#args[k]!;
      this.#args[k] = undefined!;
      this.#run(i, args);
    }
    if (this.#head === this.#calls.length && this.#head > 0) {
      this.#calls.length = 0;
      this.#args.length = 0;
      this.#head = 0;
    }
  }
}
