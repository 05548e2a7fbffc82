export { jsonSchemaType } from './dataset-types.js';
export { readJsonArray, readJsonLines, type Row, type RowsProblem } from './json-rows.js';
export { type ApiParts, manifestTool, type ToolTypeProblem } from './manifest-tool.js';
export { MAX_ARGUMENT_DEPTH, mapStrings, type MappedValue } from './map-strings.js';
export { MAX_SCHEMA_DEPTH, parameterSchema } from './parameter-schema.js';
export { fileError, type ReaderOptions } from './reader-options.js';
export { isSafeId, SampleIds } from './sample-id.js';
export { planReference, type ReferenceStep } from './plan-reference.js';
export { isMetaKey, planDocument } from './plan-document.js';
