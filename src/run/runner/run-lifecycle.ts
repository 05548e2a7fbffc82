/**
 * A run from its start to its result: the `run:start` event, the approval of a lazy plan, the
 * first ready calls (or the stream that brings them), the wait for the last call's end, and
 * the result. The scheduling in between is the Runner's (runner.ts).
 */
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import { adoptPlan, type AdoptingHost } from './adopt-plan.js';
import { askAboutPlan, type PlanEditHost } from './plan-edit.js';
import type { CallRecord } from '../call-record.js';
import type { JsonObject } from '../../language/document.js';
import type { RunJournal } from '../journal/index.js';
import type { CallSlots, Successors } from '../schedule/index.js';
import { afterPoll, keptAlive } from './event-loop.js';
import { type ResultHost, runResult, runStatus } from './run-result.js';
import { consumeStream, type StreamHost } from './streamed-plan.js';
import type { RunResult } from '../types.js';

/** What a run's start and end need of the run (the Runner is one). */
export interface LifecycleHost extends PlanEditHost, AdoptingHost, ResultHost, StreamHost {
  // Where the hosts differ in what they may change, the most the run allows.
  plan: CompiledPlan;
  calls: readonly CompiledCall[];
  records: CallRecord[];
  remaining: number[];
  successors: Successors;
  journal: RunJournal | undefined;
  readonly roots: { input: JsonObject; state: JsonObject };
  approvalsPending: number;
  approvalSince: number;
  approvalWaitMs: number;
  readonly runId: string;
  readonly mode: 'eager' | 'lazy';
  /** Set once a burst of synchronous calls held the event loop too long (see Runner.drain). */
  readonly blocked: boolean;
  stopping: boolean;
  finish: (() => void) | null;
  readonly slots: CallSlots;
  abort(): void;
}

export async function runToEnd(run: LifecycleHost): Promise<RunResult> {
  let n = run.calls.length;
  run.event({ type: 'run:start', runId: run.runId, mode: run.mode, calls: n });
  const signal = run.options.signal;
  const onAbort = () => run.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let edited: unknown;
  // A workflow's sub-run pauses and resumes with the top run from here to its end.
  run.slots.joinGroup();
  try {
    if (run.mode === 'lazy') {
      const verdict = await askAboutPlan(run);
      if (!verdict.approved) {
        // Aborted while a person was being asked: nothing was refused, the run was stopped.
        const status = signal?.aborted ? 'cancelled' : 'rejected';
        for (let i = 0; i < n; i++) run.end(i, status);
        const result = runResult(run, status);
        if (verdict.error) throw verdict.error;
        return result;
      }
      if (verdict.edited) {
        adoptPlan(run, verdict.edited.plan);
        n = run.calls.length;
        edited = verdict.edited.value;
      }
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
    const result = runResult(run, runStatus(run));
    return edited === undefined
      ? result
      : Object.assign(result, { edited: true as const, editedPlan: edited });
  } finally {
    run.slots.leaveGroup();
    signal?.removeEventListener('abort', onAbort);
    run.journal?.close();
  }
}
