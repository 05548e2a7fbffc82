/**
 * One run the server started: its events (kept for replay, up to a bound, and sent to every
 * client listening), each call's status as the events tell it, and the result once it ends.
 */
import type { CompiledPlan } from '../compile/index.js';
import { eventJson } from '../language/json/index.js';
import type { CallReport, RunEvent, RunResult, RunStatus } from '../run/index.js';
import type { SseStream } from './sse.js';

/** Where a run is: waiting for an approval, running, ended (its RunStatus), or ended by an error. */
export type RunState = 'awaiting_approval' | 'running' | RunStatus | 'error';

/** A call as `GET /api/runs/:id` shows it while the run goes on; its CallReport once it ended. */
export interface LiveCall {
  id: string;
  tool: string;
  status: 'pending' | 'running' | CallReport['status'];
  attempts: number;
  branch?: number | null;
  error?: unknown;
  output?: unknown;
}

export class RunRecord {
  readonly createdAt = new Date().toISOString();
  #events: string[] = [];
  #types: string[] = [];
  /** Events not kept (past maxEvents): a replay says it lacks them. */
  #dropped = 0;
  #seq = 0;
  readonly #listeners = new Set<SseStream>();
  readonly #calls = new Map<string, LiveCall>();
  #waiting = 0;
  #result: RunResult | undefined;
  #error: Record<string, unknown> | undefined;
  #endedAt: string | undefined;

  constructor(
    readonly id: string,
    readonly mode: 'eager' | 'lazy',
    plan: CompiledPlan,
    readonly maxEvents: number,
  ) {
    for (const call of plan.calls)
      this.#calls.set(call.id, { id: call.id, tool: call.tool, status: 'pending', attempts: 0 });
  }

  get ended(): boolean {
    return this.#endedAt !== undefined;
  }

  get state(): RunState {
    if (this.#result) return this.#result.status;
    if (this.#error) return 'error';
    return this.#waiting > 0 ? 'awaiting_approval' : 'running';
  }

  /** Counts an approval the run waits for (+1 asked, -1 answered). */
  waiting(delta: number): void {
    this.#waiting += delta;
  }

  onEvent(event: RunEvent): void {
    const text = eventJson(event);
    const seq = this.#seq++;
    if (this.#events.length < this.maxEvents) {
      this.#events.push(text);
      this.#types.push(event.type);
    } else this.#dropped++;
    for (const stream of this.#listeners) stream.send(event.type, text, seq);
    // A workflow's inner calls are not this run's calls.
    if ((event as { parent?: unknown }).parent === undefined) this.#track(event);
  }

  #track(event: RunEvent): void {
    if (event.type !== 'call:start' && event.type !== 'call:end') return;
    let call = this.#calls.get(event.call);
    if (!call) {
      // A plan edited at approval has calls the first plan had not.
      call = { id: event.call, tool: event.tool, status: 'pending', attempts: 0 };
      this.#calls.set(event.call, call);
    }
    if (event.type === 'call:start') {
      call.status = 'running';
      call.attempts = event.attempt;
      return;
    }
    call.status = event.status;
    call.attempts = event.attempts;
    call.branch = event.branch;
    call.error = event.error;
    if (event.output !== undefined) call.output = event.output;
  }

  finish(result: RunResult): void {
    this.#result = result;
    this.#end({ status: result.status });
  }

  fail(error: Record<string, unknown>): void {
    this.#error = error;
    this.#end({ status: 'error', error });
  }

  #end(summary: Record<string, unknown>): void {
    this.#endedAt = new Date().toISOString();
    const text = JSON.stringify(summary);
    for (const stream of [...this.#listeners]) {
      stream.send('end', text);
      stream.close();
    }
  }

  /**
   * Sends what happened after `after` (-1: everything kept), then every event as it comes,
   * until the run ends; a run that ended already is replayed and the stream closed.
   */
  subscribe(stream: SseStream, after: number): void {
    const first = Math.max(0, after + 1);
    if (this.#dropped > 0 && first < this.#seq) {
      stream.send('dropped', JSON.stringify({ events: this.#dropped, kept: this.#events.length }));
    }
    for (let seq = first; seq < this.#events.length; seq++)
      stream.send(this.#types[seq]!, this.#events[seq]!, seq);
    if (this.ended) {
      stream.send(
        'end',
        JSON.stringify(
          this.#error ? { status: 'error', error: this.#error } : { status: this.#result!.status },
        ),
      );
      stream.close();
      return;
    }
    this.#listeners.add(stream);
  }

  unsubscribe(stream: SseStream): void {
    this.#listeners.delete(stream);
  }

  /** Ends every stream listening (the server is closing). */
  closeStreams(): void {
    for (const stream of [...this.#listeners]) stream.close();
  }

  /** One line of `GET /api/runs`. */
  summary(): Record<string, unknown> {
    return {
      id: this.id,
      status: this.state,
      mode: this.mode,
      createdAt: this.createdAt,
      endedAt: this.#endedAt ?? null,
      calls: this.#result ? this.#result.calls.length : this.#calls.size,
    };
  }

  /** `GET /api/runs/:id`: the calls as the report gives them once ended, and the state. */
  detail(): Record<string, unknown> {
    const result = this.#result;
    return {
      ...this.summary(),
      events: this.#seq,
      calls: result ? result.calls : [...this.#calls.values()],
      state: result ? result.state : null,
      ...(result?.edited && { edited: true, editedPlan: result.editedPlan }),
      ...(result && { diagnostics: result.diagnostics, approvalWaitMs: result.approvalWaitMs ?? 0 }),
      ...(this.#error && { error: this.#error }),
    };
  }
}
