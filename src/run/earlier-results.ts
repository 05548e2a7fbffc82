/** Results a call gets without its tool running: journaled by an earlier run, or reused. */
import { plainAlternative } from '../compile/read/index.js';
import { copyJson } from '../language/json-value.js';
import { acceptAnswer, type Accepted, describeProblem, longestPath } from './accept-answer.js';
import { BRANCH_KEY } from './branch.js';
import type { Runner } from './runner.js';
import { writeOutput } from './state-writes.js';
import type { CallError, CallStatus, ReusedResult } from './types.js';

/** Writes an earlier result for call i instead of running its tool (RunOptions.reuse). */
export function reuse(run: Runner, i: number, earlier: ReusedResult): void {
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
  run: Runner,
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
