export { BRANCH_KEY, type BranchValue, branch, isBranchValue } from './branch.js';
export { type RunHandle, run, startRun } from './run.js';
export type * from './types.js';
