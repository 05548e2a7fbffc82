/**
 * Binding: each read against the writes before it (or after it, for a forward reference), the
 * data-flow edges that follow, the `||` alternatives, the calls that can never both run, and
 * the reads nothing can set.
 */
export { DataFlow, type OverlappingWrite } from './data-flow.js';
export { ExclusiveBranches } from './exclusive-branches.js';
