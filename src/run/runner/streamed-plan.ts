/** A plan that arrives as a stream of calls: each is bound as it comes and runs as soon as it can. */
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import type { PlanBuilder } from '../../compile/plan-builder.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import { capDiagnostics, compareDiagnostics, error as diagnostic } from '../../language/diagnostics.js';
import { checkJson } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import { joinPointer } from '../../language/pointer.js';
import { positionDiagnostics } from '../../language/parse/index.js';
import { planTextOf } from '../../language/stream/index.js';
import { SourceText } from '../../language/text/index.js';
import { type CallRecord, newRecord } from '../call-record.js';
import type { Successors } from '../schedule/index.js';
import type { FailureTaint } from '../state/index.js';
import type { CallStatus, RunOptions } from '../types.js';

/** What a streamed plan needs of the run (the Runner is one). */
export interface StreamHost {
  plan: CompiledPlan;
  readonly calls: readonly CompiledCall[];
  readonly records: CallRecord[];
  readonly remaining: number[];
  readonly successors: Successors;
  readonly work: number[];
  readonly taint: FailureTaint;
  readonly limits: Limits;
  readonly source: AsyncIterable<unknown> | null;
  stopping: boolean;
  readonly options: RunOptions;
  readonly ended: number;
  readonly finish: (() => void) | null;
  end(i: number, status: CallStatus): void;
  drain(): void;
}

export interface StreamState {
  readonly builder: PlanBuilder;
  /** Calls that read what no call had claimed when they arrived: they wait for the end. */
  readonly held: number[];
  /** The calls as received (null for one refused as not JSON), for positions in diagnostics. */
  readonly received: unknown[];
  open?: boolean;
  /** Set when the stream had more calls than limits.maxCalls: the run fails. */
  cut?: boolean;
}

/**
 * Takes calls as they arrive: each is checked and bound against the calls before it, and
 * starts as soon as what it reads has been written (and, for an effect, once every call before
 * it has ended: program order holds in a stream as in a whole plan). A call that reads what no
 * call has claimed yet, or whose `_after` names a call not arrived, waits for the end of the
 * stream (the writer may still come); a call that arrives invalid never runs, and what depends
 * on it ends upstream_failed.
 */
export async function consumeStream(run: StreamHost, stream: StreamState): Promise<void> {
  stream.open = true;
  try {
    for await (const raw of run.source!) {
      if (run.stopping) break;
      const pending = stream.builder.pending;
      if (run.calls.length >= run.limits.maxCalls) {
        pending.push(
          diagnostic(
            'E_LIMIT',
            '',
            `the stream has more than ${run.limits.maxCalls} calls; the rest were not read`,
            {
              hint: 'split the plan, or raise limits.maxCalls',
            },
          ),
        );
        stream.cut = true;
        break;
      }
      // A call from a stream is a value from code: JSON data within the limits, or refused.
      const checked = checkJson(raw, { limits: run.limits });
      const call = 'problem' in checked ? null : raw;
      stream.received.push(call);
      const before = pending.items.length;
      if ('problem' in checked) {
        const { problem } = checked;
        pending.push(
          diagnostic(
            problem.code === 'LIMIT' ? 'E_LIMIT' : 'E_SHAPE',
            joinPointer('', run.calls.length) + problem.pointer,
            `call ${run.calls.length}${problem.pointer ? ` at ${problem.pointer}` : ''} ${problem.message}`,
            {
              hint: problem.hint,
            },
          ),
        );
      }
      const spec = stream.builder.add(call);
      run.records.push(newRecord());
      run.remaining.push(0);
      const invalid = pending.items.slice(before).find((d) => d.severity === 'error');
      if (invalid) {
        invalidStreamed(run, spec.index, invalid.code, invalid.message);
        if (run.options.haltOnInvalidCall === true) run.stopping = true;
      } else if (
        spec.reads.some((r) => r.kind === 'later' && r.writers.length === 0) ||
        stream.builder.waitsForLater(spec.index)
      )
        stream.held.push(spec.index);
      else wireStreamed(run, spec.index);
      run.drain();
    }
  } finally {
    stream.open = false;
  }
  const ordering = stream.builder.finish();
  const placed = new Uint8Array(run.calls.length);
  for (const v of ordering.order) placed[v] = 1;
  const late = new Map<string, { code: string; message: string }>();
  for (const d of stream.builder.pending.items) if (d.severity === 'error' && d.call) late.set(d.call, d);
  for (const i of stream.held) {
    const problem = late.get(run.calls[i]!.id);
    if (problem) invalidStreamed(run, i, problem.code, problem.message);
    else if (!placed[i]) invalidStreamed(run, i, 'E_CYCLE', 'the call is on a dependency cycle');
    else wireStreamed(run, i);
  }
  run.plan = streamedPlan(
    run.calls,
    capDiagnostics(streamDiagnostics(run, stream), run.limits.maxDiagnostics),
  );
  if (run.ended === run.calls.length) run.finish?.();
}

/**
 * The stream's diagnostics, placed: in the text the calls came from when they were read from text
 * (streamPlanText; the pointers then start with the calls array's, and the text's own diagnostics
 * join them, an error among them failing the run), else in the calls as received.
 */
function streamDiagnostics(run: StreamHost, stream: StreamState): Diagnostic[] {
  const text = planTextOf(run.source);
  if (!text) return positionDiagnostics(stream.builder.pending.items, SourceText.fromValue(stream.received));
  const { parsed } = text.end;
  if (text.failed) stream.cut = true;
  const prefix = parsed.document?.callsPointer ?? '';
  const pending = stream.builder.pending.items.map((d) => ({ ...d, pointer: prefix + d.pointer }));
  if (text.problem) pending.push(text.problem);
  const source = parsed.document?.source ?? SourceText.fromText(text.end.text);
  return [...positionDiagnostics(pending, source), ...parsed.diagnostics].sort(compareDiagnostics);
}

/** Counts a streamed call's dependencies that have not ended, and queues it when there are none. */
export function wireStreamed(run: StreamHost, i: number): void {
  let open = 0;
  for (const d of run.calls[i]!.dependencies) {
    if (run.records[d.from]!.status !== null) continue;
    open++;
    run.successors.add(d.from, i);
  }
  run.remaining[i] = open;
  if (open === 0) run.work.push(i);
}

/** A streamed call that does not compile: it never runs, and its readers are upstream_failed. */
export function invalidStreamed(run: StreamHost, i: number, code: string, message: string): void {
  const call = run.calls[i]!;
  run.records[i]!.error = { message: `the call is invalid: ${message}`, code };
  if (call.outputPath) for (const path of call.outputPath.paths) run.taint.mark(path.segments, i);
  run.end(i, 'failed');
}

/** The plan of a stream so far: its calls (a live list) and, at the end, its diagnostics. */
export function streamedPlan(calls: readonly CompiledCall[], diagnostics: Diagnostic[] = []): CompiledPlan {
  return {
    mode: 'eager',
    calls,
    order: [],
    levels: [],
    criticalPath: [],
    edgeCount: 0,
    diagnostics,
    indexOf: (id) => calls.findIndex((c) => c.id === id),
  };
}
