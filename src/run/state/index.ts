/**
 * The run's state, as the rest of planmode sees it: the copy-on-write store over the initial
 * state, and a call's output written into it (held to the plan's state schema).
 */
export { RunState, StateWriteError } from './state-store.js';
export { alternativesOf, type StateWriteHost, writeOutput } from './state-writes.js';
export { FailureTaint } from './taint.js';
