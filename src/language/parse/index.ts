/**
 * From text (or a value already parsed) to a {@link PlanDocument}: the JSON read with positions,
 * its shape recognized (call array, plan message, solution, context array) and its messages
 * read, with every problem a diagnostic at its place in the text.
 */
export { readContextMessages } from './context-messages.js';
export { readJsonText, type ReadJsonText, type TextPlacement, textTooLong } from './json-text.js';
export * from './parse-plan.js';
export { readDocument } from './read-document.js';
