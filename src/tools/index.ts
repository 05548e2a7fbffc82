export { type RegisteredTool, ToolRegistry } from './registry.js';
export { SchemaCompiler, type SchemaValidate } from './schema-validator.js';
export * from './tool.js';
