/**
 * An eager solution run while the model writes it. Each call of the reply is handed to the run
 * as soon as its JSON has closed (the plan text reader, the same grammar as the whole reply);
 * the run binds it, checks it call by call and starts it once what it reads exists, keeping
 * effects in program order and asking for approval as for a whole plan.
 *
 * A reply is only known to be a solution when it ends. When it ends as one, the run goes on to
 * its end with the rest of the calls. When it does not (not JSON, no `output`, a call that does
 * not compile, a plan check that needs the whole plan, a reply past its byte bound, a stream
 * that breaks), nothing more starts: the calls running then run to their end (none is cut off
 * mid-effect), the rest end `cancelled`, and what ran goes back to the model with the repair
 * request (see {@link ranReport}); the plan loop's ledger then keeps any of those calls from
 * running again.
 *
 * A reply that begins as a plan the loop already ran from the same state may be a repeat, which
 * must not run (solve-repeats.ts): its calls are held back while they match such a plan, and
 * handed on at the first that does not, or when the whole reply is found not to repeat.
 */
import { PlanTextReader } from '../../language/stream/index.js';
import { DEFAULT_LIMITS, type Limits } from '../../language/limits.js';
import { EventChannel } from '../../run/event-channel.js';
import type { RunHandle } from '../../run/run.js';
import type { CallReport, RunResult } from '../../run/types.js';
import type { RepeatPrefix } from './solve-repeats.js';
import { ResultAllowance, resultLines } from './solve-results.js';

export interface StreamedAttemptOptions {
  /** Starts the run of the reply's calls; called at the first call handed on. */
  readonly start: (calls: AsyncIterable<unknown>) => RunHandle;
  /** Readies a call's value before it runs (the strict schema's nulls dropped), in place or new. */
  readonly prepare: (call: unknown) => unknown;
  /** False when one more call may not run (the loop's call budget): nothing more is handed on. */
  readonly mayRun: () => boolean;
  /** The bounds the reply is read within (the compile's). */
  readonly limits: Partial<Limits>;
  /**
   * A fresh matcher of the plans already run from this state, per reply, to hold back a reply
   * that may repeat one.
   * @default none: nothing is held back
   */
  readonly repeats?: () => RepeatPrefix | undefined;
}

/** One reply of the model, read as it streams: its calls handed to a run as they close. */
export class StreamedAttempt {
  readonly #reader: PlanTextReader;
  readonly #channel = new EventChannel<unknown>();
  readonly #maxCalls: number;
  #handle: RunHandle | null = null;
  /** Set at a call that may not run: nothing after it is handed on (the reply is not usable). */
  #stopped = false;
  #handed = 0;
  /** Calls read off the reply so far, whatever became of them. */
  #taken = 0;
  /** Calls held back while the reply may repeat a plan already run (see the file's comment). */
  #held: unknown[] = [];
  #repeats: RepeatPrefix | undefined;

  constructor(private readonly options: StreamedAttemptOptions) {
    this.#reader = new PlanTextReader({ shape: 'solution', limits: options.limits });
    this.#maxCalls = options.limits.maxCalls ?? DEFAULT_LIMITS.maxCalls;
    this.#repeats = options.repeats?.();
  }

  /** Whether a call of the reply was handed to a run. */
  get started(): boolean {
    return this.#handle !== null;
  }

  /** More of the reply's text: the calls it closed go to the run. */
  push(text: string): void {
    for (const call of this.#reader.push(text)) this.#take(call);
  }

  /**
   * The reply ended as a solution of these calls (as compiled): those the text did not hand out
   * while it streamed are taken now (held back when it may repeat). Not the reader's end(),
   * which would parse the whole reply again after the compile just did.
   */
  end(calls: readonly unknown[]): void {
    for (let i = this.#taken; i < calls.length; i++) this.#take({ value: calls[i], diagnostics: [] });
  }

  /** The reply is a solution that runs: held calls go on, and the run's stream ends. */
  finish(): RunHandle | null {
    this.#release();
    this.#channel.close();
    return this.#handle;
  }

  /**
   * The reply is not usable (or repeats a plan): no call starts from now on; those running are
   * awaited. Returns the run's result, or null when no call of the reply had been handed on.
   */
  async abandon(): Promise<RunResult | null> {
    this.#stopped = true;
    this.#held = [];
    this.#channel.close();
    if (!this.#handle) return null;
    this.#handle.halt();
    return this.#handle.result;
  }

  #take(call: { readonly value: unknown; readonly diagnostics: readonly { severity: string }[] }): void {
    this.#taken++;
    if (this.#stopped) return;
    // A call whose own text has an error makes the whole reply unusable: it and what comes
    // after it are never handed on (the run would refuse it; nothing after it may run either).
    if (call.diagnostics.some((d) => d.severity === 'error')) {
      this.#stopped = true;
      return;
    }
    const value = this.options.prepare(call.value);
    if (this.#repeats?.continues(value)) {
      this.#held.push(value);
      return;
    }
    this.#repeats = undefined;
    this.#release();
    this.#hand(value);
  }

  #release(): void {
    const held = this.#held;
    this.#held = [];
    for (const value of held) this.#hand(value);
  }

  #hand(value: unknown): void {
    // Past the plan's bound on calls the reply is E_LIMIT: the call past it is never handed on.
    if (this.#stopped || this.#handed >= this.#maxCalls || !this.options.mayRun()) {
      this.#stopped = true;
      return;
    }
    this.#handed++;
    this.#handle ??= this.options.start(this.#channel);
    this.#channel.push(value);
  }
}

/**
 * What the model is told of a reply it must repair whose calls had started: each call that ran,
 * how it ended and what it returned (bounded excerpts), and that it will not run again.
 */
export function ranReport(result: RunResult): string | null {
  const ran = result.calls.filter((c) => c.attempts > 0 || c.status === 'succeeded');
  if (ran.length === 0) return null;
  const allowance = new ResultAllowance();
  const lines = [
    'These calls of your answer started before it ended, and ran; they will not run again. ' +
      'Keep them unchanged in your corrected answer (their results are reused), or leave them out:',
  ];
  for (const call of ran) {
    lines.push(`- ${callLine(call)}`);
    for (const line of resultLines(call, allowance)) lines.push(`  ${line}`);
  }
  return lines.join('\n');
}

function callLine(call: CallReport): string {
  return `call ${call.id} (${call.tool}): ${call.status}`;
}
