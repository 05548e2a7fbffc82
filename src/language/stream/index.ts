/**
 * Plan text read as it arrives: calls handed out as each closes, with the diagnostics, positions
 * and limits of the whole-document parser.
 */
export * from './plan-text-reader.js';
export { planTextOf, streamPlanText, type StreamedPlanText, withFirstCall } from './stream-plan-text.js';
