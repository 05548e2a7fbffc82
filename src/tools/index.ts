export { loadToolsFile, type LoadToolsFileOptions, toolsFromManifest } from './load-tools-file.js';
export { type RegisteredTool, ToolRegistry } from './registry.js';
export { SchemaCompiler, type SchemaValidate } from './schema-validator.js';
export * from './tool.js';
export type { Quota, RateLimit } from './quota.js';
export { endLoop, EndLoopSignal, isEndLoopSignal, type LoopEnding } from './end-loop.js';
