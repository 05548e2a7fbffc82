/**
 * Results a call gets without its tool running: journaled by an earlier run, reused
 * (RunOptions.reuse), or written into an eager plan (`_output`).
 */
import { plainAlternative } from '../../compile/read/index.js';
import { copyJson } from '../../language/json/index.js';
import { acceptAnswer, type Accepted, type AnswerHost, describeProblem, longestPath } from '../call/index.js';
import { markedBranch } from '../call/index.js';
import type { CallRecord } from '../call-record.js';
import { type StateWriteHost, writeOutput } from '../state/index.js';
import type { JsonObject } from '../../language/document.js';
import type { Tool } from '../../tools/tool.js';
import type { CallError, CallStatus, ReusedResult, RunOptions } from '../types.js';

/** What writing an earlier result needs of the run (the Runner is one). */
export interface EarlierResultHost extends AnswerHost, StateWriteHost {
  readonly records: readonly CallRecord[];
  readonly resumed: Set<number>;
  end(i: number, status: CallStatus): void;
  fail(i: number, error: unknown, toolsOwn?: boolean): void;
  succeed(i: number, accepted: Accepted): void;
}

/** What asking `RunOptions.reuse` needs of the run besides (the Runner is one). */
export interface ReuseHost extends EarlierResultHost {
  readonly reuseHook: RunOptions['reuse'];
  ranSync: boolean;
  drainClockFresh: boolean;
}

/** Writes the `_output` an eager plan gives call i, the model's own answer: no tool runs. */
export function writePlannedOutput(run: EarlierResultHost, i: number): void {
  run.records[i]!.startedAt = Date.now();
  let accepted: Accepted;
  try {
    // The plan text may choose an alternative in JSON: the reviewer reads what the model chose.
    accepted = acceptAnswer(run, i, run.calls[i]!.output, true);
  } catch (e) {
    return run.fail(i, e);
  }
  run.succeed(i, accepted);
}

/**
 * Asks `RunOptions.reuse` for an earlier result of call i: true when that settled the call
 * (reused, or failed by the hook's throw), false when the tool is to run.
 */
export function askReuse(run: ReuseHost, i: number, tool: Tool, args: JsonObject): boolean {
  run.ranSync = true;
  // The hook is the caller's code: it may take time.
  run.drainClockFresh = false;
  let earlier;
  try {
    earlier = run.reuseHook?.({ call: run.calls[i]!.id, tool: tool.name, definition: tool, args });
  } catch (e) {
    run.fail(i, e);
    return true;
  }
  if (!earlier) return false;
  reuse(run, i, earlier);
  return true;
}

/** Writes an earlier result for call i instead of running its tool (RunOptions.reuse). */
export function reuse(run: EarlierResultHost, i: number, earlier: ReusedResult): void {
  const record = run.records[i]!;
  record.startedAt = Date.now();
  record.reused = true;
  let accepted: Accepted;
  try {
    // As a branch value, so the earlier alternative is taken (and a value that merely looks
    // like a branch value is not read as one).
    accepted = acceptAnswer(
      run,
      i,
      markedBranch(earlier.branch ?? plainAlternative(run.calls[i]!.errorAlternative), earlier.output),
      false,
    );
  } catch (e) {
    return run.fail(i, e);
  }
  run.succeed(i, accepted);
}

/** Puts back what an earlier, interrupted run of this plan journaled for call i. */
export function replay(
  run: EarlierResultHost,
  i: number,
  done: {
    status: CallStatus;
    branch: number | null;
    handled: boolean;
    output?: unknown;
    error: CallError | null;
    attempts: number;
  },
): void {
  const call = run.calls[i]!;
  const record = run.records[i]!;
  const output = call.outputPath;
  run.resumed.add(i);
  record.attempts = done.attempts;
  record.startedAt = Date.now();
  try {
    if (output && done.output !== undefined) {
      const alternatives = output.op === '&&' ? output.paths.map((_, k) => k) : [done.branch ?? 0];
      const copy = copyJson(done.output, { limits: run.limits, depth: longestPath(output) });
      if ('problem' in copy) throw run.failure(i, describeProblem('journaled output', copy.problem), 'LIMIT');
      writeOutput(run, i, alternatives, copy.value, copy.size);
    }
  } catch (e) {
    return run.fail(i, e);
  }
  record.output = done.output;
  record.branch = done.branch;
  record.handled = done.handled;
  record.error = done.error;
  run.end(i, done.status);
}
