/**
 * Approvals on the terminal: asking a person about a plan or a call (`[y/N]`), the answers
 * `plan agent` gives for every flow that asks, and the lines that say what was approved without
 * asking. The commands import it from here.
 */
export * from './agent-approvals.js';
export * from './approval-lines.js';
export * from './approval-prompt.js';
export * from './plan-editor.js';
