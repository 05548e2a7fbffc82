/**
 * A call's final failure (after its retries), and where it goes. A tool's own error goes to the
 * call's declared error alternative (`CompiledCall.errorAlternative`: the tool's `errorBranch:
 * true` or the plan's `_onError`): the call ends `failed` and `handled`, and the run goes on as
 * the plan says. Anything else fails the call unhandled, with its code, and fails the run: a
 * throw where no error alternative is declared, and every contract error planmode made around
 * the tool (see error-origin.ts), whatever the call declares. A rejection from inside a
 * workflow (see rejectionError) ends the call `rejected` instead.
 */
import { jsonSize } from '../../language/json/index.js';
import { toCallError } from './call-error.js';
import { isRejection } from './error-origin.js';
import { endLoopAt } from './loop-ending.js';
import { isEndLoopSignal } from '../../tools/end-loop.js';
import type { CallRecord } from '../call-record.js';
import type { CallStatus, RunOptions } from '../types.js';
import { alternativesOf, type StateWriteHost, writeOutput } from '../state/index.js';

/** What failing a call needs of the run (the Runner is one). */
export interface FailureHost extends StateWriteHost {
  readonly options: RunOptions;
  readonly records: readonly CallRecord[];
  stopping: boolean;
  end(i: number, status: CallStatus): void;
}

/**
 * Ends call i `failed` with `error`. `toolsOwn` says the error is the tool's own (its throw, or
 * its error result), not one planmode made: only then may it be handled.
 */
export function failCall(run: FailureHost, i: number, error: unknown, toolsOwn: boolean): void {
  const call = run.calls[i]!;
  const record = run.records[i]!;
  if (isEndLoopSignal(error)) return endLoopAt(run, i, error);
  record.error = toCallError(error);
  // A person's no from inside a workflow: the call is rejected, as one turned down here is.
  if (isRejection(error)) return run.end(i, 'rejected');
  const output = call.outputPath;
  const errorAlternative = call.errorAlternative;
  if (toolsOwn && output && errorAlternative !== null) {
    const errorValue = { ...record.error };
    try {
      writeOutput(
        run,
        i,
        alternativesOf(output.op, output.paths.length, errorAlternative),
        errorValue,
        jsonSize(errorValue),
      );
      record.branch = errorAlternative;
      record.handled = true;
      record.output = errorValue;
      return run.end(i, 'failed');
    } catch (e) {
      // The state cannot take even the error (it is full): the failure goes unhandled.
      record.error = {
        message: `${record.error.message}; and ${toCallError(e).message}`,
        code: record.error.code ?? 'LIMIT',
      };
    }
  }
  if (output) for (const path of output.paths) run.taint.mark(path.segments, i);
  if (run.options.failFast) run.stopping = true;
  run.end(i, 'failed');
}
