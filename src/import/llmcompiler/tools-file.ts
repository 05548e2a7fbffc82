/**
 * LLMCompiler's tools file: a planmode JSON manifest `{"tools": [{name, description?,
 * inputSchema, outputSchema?}]}`. LLMCompiler's steps pass arguments by position, so each
 * tool's `inputSchema.properties`, in their written order, name its arguments.
 */
import { jsonSyntaxDiagnostic, SourceText } from '../../language/text/index.js';
import type { ManifestTool, ToolManifest } from '../types.js';

/** The tools file, read: the manifest every sample gets, and each tool's argument names in order. */
export interface LlmcompilerTools {
  readonly manifest: ToolManifest;
  readonly parameters: ReadonlyMap<string, readonly string[]>;
}

/** The tools, or what is wrong with the file (a sentence for `E_IMPORT_FILE`). */
export function readToolsFile(text: string): LlmcompilerTools | { readonly problem: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (cause) {
    const d = jsonSyntaxDiagnostic(SourceText.fromText(body, 'spec'), cause);
    return {
      problem: `the tools file is not JSON at ${d.line ?? 1}:${d.column ?? 1}: ${d.message.replace(/^invalid JSON: /, '')}`,
    };
  }
  if (!isObject(value) || !Array.isArray(value.tools)) {
    return {
      problem: `the tools file must be a JSON manifest {"tools": [{"name": ..., "inputSchema": ...}, ...]}`,
    };
  }
  const parameters = new Map<string, readonly string[]>();
  for (const [index, tool] of (value.tools as unknown[]).entries()) {
    const name = isObject(tool) ? tool.name : undefined;
    if (typeof name !== 'string' || name === '') return { problem: `tools[${index}] has no "name" string` };
    if (parameters.has(name))
      return { problem: `two tools are named ${JSON.stringify(name)} (tools[${index}])` };
    const schema = (tool as Record<string, unknown>).inputSchema;
    if (schema !== undefined && !isObject(schema)) {
      return { problem: `tool ${JSON.stringify(name)}: "inputSchema" must be a JSON Schema object` };
    }
    const properties = schema?.properties;
    if (properties !== undefined && !isObject(properties)) {
      return { problem: `tool ${JSON.stringify(name)}: "inputSchema.properties" must be an object` };
    }
    parameters.set(name, properties ? Object.keys(properties) : []);
  }
  return { manifest: Object.freeze({ tools: value.tools as ManifestTool[] }), parameters };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
