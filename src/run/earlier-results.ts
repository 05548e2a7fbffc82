/** Results a call gets without its tool running: journaled by an earlier run, or reused. */
import { plainAlternative } from '../compile/on-error.js';
import { copyJson } from '../language/json-value.js';
import {
  acceptAnswer,
  type Accepted,
  type AnswerHost,
  describeProblem,
  longestPath,
} from './accept-answer.js';
import { BRANCH_KEY } from './branch.js';
import type { CallRecord } from './call-record.js';
import { type StateWriteHost, writeOutput } from './state-writes.js';
import type { CallError, CallStatus, ReusedResult } from './types.js';

/** What writing an earlier result needs of the run (the Runner is one). */
export interface EarlierResultHost extends AnswerHost, StateWriteHost {
  readonly records: readonly CallRecord[];
  readonly resumed: Set<number>;
  end(i: number, status: CallStatus): void;
  fail(i: number, error: unknown, toolsOwn?: boolean): void;
  succeed(i: number, accepted: Accepted): void;
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
    accepted = acceptAnswer(run, i, {
      [BRANCH_KEY]: earlier.branch ?? plainAlternative(run.calls[i]!.errorAlternative),
      value: earlier.output,
    });
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
