/**
 * Plan text as written: where each value of a JSON text is (line, column, offset, for every
 * diagnostic), the comments and trailing commas that are blanked before it is parsed, and the
 * syntax error JSON.parse gives, located. Nothing here knows what a plan is.
 */
export * from './duplicate-keys.js';
export * from './json-error.js';
export * from './json-extensions.js';
export * from './source.js';
export * from './strict-utf8.js';
