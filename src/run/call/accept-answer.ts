/** A tool's (or the model's) answer made into what the run keeps: the alternative and a JSON copy. */
import { plainAlternative } from '../../compile/read/index.js';
import type { CompiledCall } from '../../compile/types.js';
import type { ToolErrorCode, ToolExecutionError } from '../../errors.js';
import { copyJson, type JsonProblem, type JsonWalkOptions } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import { describeValue } from '../../language/describe-value.js';
import { formatPath } from '../../language/paths.js';
import { BRANCH_KEY, isBranchJson, isBranchValue } from './branch.js';
import { toCallError } from './call-error.js';
import { isEndLoopSignal } from '../../tools/end-loop.js';

/** What an answer's acceptance needs of the run (the Runner is one). */
export interface AnswerHost {
  readonly calls: readonly CompiledCall[];
  readonly limits: Limits;
  failure(i: number, message: string, code: ToolErrorCode): ToolExecutionError;
}

/** A tool's answer as the run keeps it: a JSON copy, its size, and the alternative it goes to. */
export interface Accepted {
  readonly value: unknown;
  readonly size: number;
  readonly choice: number;
}

/**
 * A tool's (or the model's) answer as the run will keep it: the alternative it names (a plain
 * value: the first that is not the error alternative), and a JSON copy of the value, within the
 * limits for where it goes. A value `branch()` made names an alternative; its plain JSON form,
 * `{"†branch": k, "value": ...}`, does only when `jsonBranches` is true (a tool that declares
 * `branchJson: true`, an eager plan's `_output`): otherwise it is data like any other, so that
 * data a tool passes through cannot choose the alternative it is written to.
 * @param jsonBranches whether the JSON form of a branch value chooses (else it is data).
 * @throws {ToolExecutionError} BAD_BRANCH (no such alternative, or the error alternative),
 *   INVALID_OUTPUT (not JSON, or nothing for an _outputPath) or LIMIT, with the path of the bad
 *   part.
 */
export function acceptAnswer(run: AnswerHost, i: number, answer: unknown, jsonBranches: boolean): Accepted {
  // Returned rather than thrown, `endLoop()` is the same decision: it takes the failure's way.
  if (isEndLoopSignal(answer)) throw answer;
  const call = run.calls[i]!;
  const output = call.outputPath;
  const errorAlternative = call.errorAlternative;
  let choice = errorAlternative === null ? 0 : plainAlternative(errorAlternative);
  let written = answer;
  if (isBranchValue(answer) || (jsonBranches && isBranchJson(answer))) {
    let named: unknown;
    try {
      // Read once each: a getter may answer differently twice, or throw.
      named = answer[BRANCH_KEY];
      written = answer.value;
    } catch (e) {
      throw run.failure(i, `the branch value cannot be read (${toCallError(e).message})`, 'INVALID_OUTPUT');
    }
    const chosen =
      typeof named !== 'number' && typeof named !== 'string'
        ? -1
        : output
          ? alternativeIndex(output, named)
          : named === 0
            ? 0
            : -1;
    if (chosen < 0) {
      throw run.failure(
        i,
        `the branch value names no alternative of "${output?.text ?? '(no _outputPath)'}": ${describeValue(named)}`,
        'BAD_BRANCH',
      );
    }
    if (chosen === errorAlternative) {
      // The error alternative holds only the tool's errors: one slot, one meaning.
      throw run.failure(
        i,
        `the branch value names ${output!.refs[chosen]!.text}, the error alternative of "${output!.text}": it holds only errors, so throw to reach it`,
        'BAD_BRANCH',
      );
    }
    choice = chosen;
  }
  const copy = copyJson(
    written,
    written !== null && typeof written === 'object'
      ? { limits: run.limits, depth: output ? longestPath(output) : 0 }
      : scalarOptions(run.limits),
  );
  if ('problem' in copy) {
    throw run.failure(
      i,
      describeProblem('result', copy.problem),
      copy.problem.code === 'LIMIT' ? 'LIMIT' : 'INVALID_OUTPUT',
    );
  }
  if (output && copy.value === undefined) {
    throw run.failure(
      i,
      'the tool returned nothing (undefined) for a call with an _outputPath',
      'INVALID_OUTPUT',
    );
  }
  return { value: copy.value, size: copy.size, choice };
}

let lastLimits: Limits | undefined;
let lastScalarOptions: JsonWalkOptions | undefined;

/**
 * The copy options for a scalar answer (most answers): its depth does not matter, so one options
 * object serves every call of a run (and of the runs with the same limits after it).
 */
function scalarOptions(limits: Limits): JsonWalkOptions {
  if (limits !== lastLimits || lastScalarOptions === undefined) {
    lastLimits = limits;
    lastScalarOptions = { limits, depth: 0 };
  }
  return lastScalarOptions;
}

/** Which alternative a branch value names: its index, or its path as written or canonical. */
function alternativeIndex(output: NonNullable<CompiledCall['outputPath']>, choice: number | string): number {
  if (typeof choice === 'number')
    return Number.isInteger(choice) && choice >= 0 && choice < output.paths.length ? choice : -1;
  return output.paths.findIndex(
    (path, k) => output.refs[k]!.text === choice || formatPath('state', path.segments) === choice,
  );
}

/** The most segments among a call's output paths: the levels a written value starts under. */
export function longestPath(output: NonNullable<CompiledCall['outputPath']>): number {
  let longest = 0;
  for (const path of output.paths) if (path.segments.length > longest) longest = path.segments.length;
  return longest;
}

/** `the result at /a/b is a BigInt ...; convert it ...`: a refused value, for a call's error. */
export function describeProblem(what: string, problem: JsonProblem): string {
  const where = problem.pointer === '' ? what : `${what} at ${problem.pointer}`;
  return `${where} ${problem.message}; ${problem.hint}`;
}
