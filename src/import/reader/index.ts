export { jsonSchemaType } from './dataset-types.js';
export { fileError, type ReaderOptions } from './reader-options.js';
