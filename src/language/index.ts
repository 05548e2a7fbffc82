export * from './diagnostics.js';
export * from './document.js';
export * from './limits.js';
export * from './parse/index.js';
export * from './paths.js';
export * from './pointer.js';
export * from './reference.js';
export * from './resolve.js';
export { type LocateRequest, type Position, SourceText } from './text/index.js';
