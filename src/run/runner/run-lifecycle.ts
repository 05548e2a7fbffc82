/**
 * A run from its start to its result: the `run:start` event, the approval of a lazy plan, the
 * first ready calls (or the stream that brings them), the wait for the last call's end, and
 * the result. The scheduling in between is the Runner's (runner.ts).
 */
import type { CompiledPlan } from '../../compile/types.js';
import { type ApprovalHost, approvePlan } from './call-approval.js';
import type { CallRecord } from '../call-record.js';
import { afterPoll, keptAlive } from './event-loop.js';
import { type ResultHost, runResult, runStatus } from './run-result.js';
import { consumeStream, type StreamHost } from './streamed-plan.js';
import type { RunResult } from '../types.js';

/** What a run's start and end need of the run (the Runner is one). */
export interface LifecycleHost extends ApprovalHost, ResultHost, StreamHost {
  // Where the hosts differ in what they may change, the most the run allows.
  plan: CompiledPlan;
  readonly records: CallRecord[];
  approvalsPending: number;
  approvalSince: number;
  approvalWaitMs: number;
  readonly runId: string;
  readonly mode: 'eager' | 'lazy';
  /** Set once a burst of synchronous calls held the event loop too long (see Runner.drain). */
  readonly blocked: boolean;
  stopping: boolean;
  finish: (() => void) | null;
  abort(): void;
}

export async function runToEnd(run: LifecycleHost): Promise<RunResult> {
  const n = run.calls.length;
  run.event({ type: 'run:start', runId: run.runId, mode: run.mode, calls: n });
  const signal = run.options.signal;
  const onAbort = () => run.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (run.mode === 'lazy' && !(await approvePlan(run))) {
      // Aborted while a person was being asked: nothing was refused, the run was stopped.
      const status = signal?.aborted ? 'cancelled' : 'rejected';
      for (let i = 0; i < n; i++) run.end(i, status);
      return runResult(run, status);
    }
    if (signal?.aborted) run.stopping = true;
    const done = new Promise<void>((resolve) => (run.finish = resolve));
    if (run.stream) await consumeStream(run, run.stream);
    else for (let i = 0; i < n; i++) if (run.remaining[i] === 0) run.work.push(i);
    run.drain();
    if (run.ended < run.calls.length) await keptAlive(done);
    // A Ctrl-C that came while a synchronous tool held the event loop is queued behind it:
    // let it land, so the run ends as cancelled rather than as if nobody had asked.
    if (run.blocked && signal && !signal.aborted) await new Promise<void>((resolve) => afterPoll(resolve));
    return runResult(run, runStatus(run));
  } finally {
    signal?.removeEventListener('abort', onAbort);
    run.journal?.close();
  }
}
