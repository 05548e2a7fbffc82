/**
 * Checking: each call against its tool (name, literal arguments, types along the data flow),
 * writers against the state schema, and the whole graph (duplicate ids, cycles, overlapping
 * writers, error alternatives read as data, missing daggers).
 */
export { checkOutputAgainstSchema, checkTool, placeholder } from './call-checks.js';
export { ReferenceIndex, withoutBranchNoise } from './check-arguments.js';
export { DuplicateIds } from './duplicate-ids.js';
export { reportErrorPathReads } from './error-reads.js';
export { reportCycles, reportMultipleWriters } from './graph-checks.js';
export { reportMissingDaggers } from './missing-daggers.js';
export { schemaCompat } from './schema-compat.js';
export { checkStateTypes } from './state-types.js';
export { checkToolMessages } from './tool-messages.js';
export { checkCallTypes, type TypeFlowOptions } from './type-flow.js';
export {
  type OutputLeaf,
  type OutputTemplate,
  type OutputType,
  outputType,
  readOutputTemplate,
} from './workflow-output.js';
