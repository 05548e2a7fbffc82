/**
 * What the `plan` command writes: diagnostics and summaries formatted for a terminal or a pipe,
 * the live and plain views of a run, the lines about a journal, skipped calls and unchecked
 * tools, and the HTML report file. The commands import it from here.
 */
export * from './call-outcomes.js';
export * from './event-lines.js';
export * from './format.js';
export * from './journal-notes.js';
export * from './live-view.js';
export * from './report-file.js';
export * from './run-summary.js';
export * from './simulation-summary.js';
export * from './skip-reasons.js';
export * from './skipped-checks.js';
export { type WrittenSample, writeSamples } from './write-samples.js';
export * from './eval-table.js';
export { stoppedTurnLine } from './agent-stops.js';
export { formatExplanation } from './explanation.js';
