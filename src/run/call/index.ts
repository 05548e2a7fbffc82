/**
 * One call's life after it is ready, as the Runner sees it: its arguments resolved, its tool
 * run with timeout and retries (attempts), its answer checked and written (accept-answer), its
 * failure recorded with where the error came from (a tool's own error or a broken contract).
 */
export {
  type Accepted,
  type AnswerHost,
  acceptAnswer,
  describeProblem,
  longestPath,
} from './accept-answer.js';
export {
  type ArgumentSources,
  MissingValues,
  argumentShapes,
  argumentSources,
  resolveArguments,
} from './arguments.js';
export { abortAttempts, executeCall } from './attempts.js';
export { elementArguments } from './for-each.js';
export { BRANCH_KEY, type BranchValue, branch, isBranchJson, isBranchValue, markedBranch } from './branch.js';
export { toCallError } from './call-error.js';
export { failCall } from './call-failure.js';
export { contractError, isContractError, isRejection, rejectionError } from './error-origin.js';
export { type SelectionHost, WildcardReads } from './wildcard-reads.js';
export { endLoopAt, loopEndingOf } from './loop-ending.js';
