/**
 * Reading: one raw call object to a checked CallSpec (meta keys, tool name, references, output
 * path, error alternative), its reference arguments noted in the storage columns.
 */
export { type BareReference, withDagger } from './bare-references.js';
export { CallSpec } from './call-spec.js';
export { plainAlternative, toolErrorAlternative } from './on-error.js';
export { readCall, type ReadCallOptions } from './read-call.js';
