/**
 * Tools files for the CLI (SPEC 8): a JSON manifest `{"tools": [...]}` (definitions without
 * `execute`: enough to validate and simulate) or an ES module exporting `tools` or a default
 * array (needed to run). Every problem is a ToolsFileError that says what, where and how to fix.
 */
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolsFileError } from '../errors.js';
import { jsonSyntaxDiagnostic } from '../language/json-error.js';
import { SourceText } from '../language/source.js';
import type { Tool } from './tool.js';

const MANIFEST_EXTENSIONS = new Set(['.json']);
const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

/**
 * Loads the tool definitions of a tools file. The result still has to go through
 * `new ToolRegistry(tools)`, which checks names, flags and schemas.
 *
 * @param path A `.json` manifest or a `.js`/`.mjs` module, relative to the working directory.
 * @throws {ToolsFileError} when the file is missing, unreadable, not JSON, the wrong shape, or
 *   a module that throws while loading.
 */
export async function loadToolsFile(path: string): Promise<Tool[]> {
  const extension = extname(path).toLowerCase();
  if (MANIFEST_EXTENSIONS.has(extension)) {
    const text = await readToolsText(path);
    return toolsFromManifest(parseManifestText(text, path), path);
  }
  if (MODULE_EXTENSIONS.has(extension)) return loadToolsModule(path);
  throw new ToolsFileError(
    `tools file '${path}' has ${extension ? `the extension '${extension}'` : 'no extension'}; ` +
      'use a .json manifest ({"tools": [...]}) or a .js/.mjs module that exports tools',
    { file: path },
  );
}

/**
 * Reads the tools of a manifest that is already parsed: `{"tools": [definitions]}`.
 *
 * @param source Where the value came from, for messages (a file path).
 * @throws {ToolsFileError} when the value is not a manifest.
 */
export function toolsFromManifest(value: unknown, source: string): Tool[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const fix = Array.isArray(value)
      ? 'wrap the array: {"tools": [...]}'
      : 'write {"tools": [{"name": ...}, ...]}';
    throw new ToolsFileError(
      `tools file '${source}' must hold a JSON object {"tools": [...]}, not ${describe(value)}; ${fix}`,
      {
        file: source,
      },
    );
  }
  const tools = (value as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) {
    const found = tools === undefined ? 'it has no "tools" key' : `"tools" is ${describe(tools)}`;
    throw new ToolsFileError(
      `tools file '${source}': ${found}; a manifest is {"tools": [{"name": ...}, ...]}`,
      { file: source },
    );
  }
  return tools.map((entry, index) => {
    checkEntry(entry, index, source);
    const name = (entry as { name?: unknown }).name;
    if ('execute' in (entry as object)) {
      throw new ToolsFileError(
        `tools file '${source}': ${where(index, name)} has "execute", but a JSON manifest cannot hold code; ` +
          'remove it, or use a .js/.mjs module to give tools an execute function',
        { file: source, index, ...(typeof name === 'string' && { tool: name }) },
      );
    }
    return entry as Tool;
  });
}

async function readToolsText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new ToolsFileError(unreadable(path, cause), { file: path, cause });
  }
}

function parseManifestText(text: string, path: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (cause) {
    const d = jsonSyntaxDiagnostic(SourceText.fromText(body, path), cause);
    const line = d.line ?? 1;
    const column = d.column ?? 1;
    throw new ToolsFileError(
      `tools file '${path}' is not valid JSON at ${line}:${column}: ${d.message.replace(/^invalid JSON: /, '')}; ${d.hint}`,
      {
        file: path,
        line,
        column,
        cause,
      },
    );
  }
}

async function loadToolsModule(path: string): Promise<Tool[]> {
  // A missing module would otherwise surface as an import error that reads like a bug in it.
  await readToolsText(path);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (cause) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    // Older Node 20 releases load a .js file outside a "type": "module" package as CommonJS.
    const esmAsCommonJs =
      cause instanceof SyntaxError && /\b(export|import)\b/.test(cause.message) && extname(path) === '.js';
    const fix = esmAsCommonJs
      ? 'rename it to .mjs, or add "type": "module" to its package.json'
      : `fix the module (\`node ${path}\` shows where)`;
    throw new ToolsFileError(`tools module '${path}' failed to load (${firstLine(reason)}); ${fix}`, {
      file: path,
      cause,
    });
  }
  let tools: unknown;
  let what: string;
  if ('tools' in exports) {
    tools = exports.tools;
    what = 'export "tools"';
  } else if (Array.isArray(exports.default)) {
    tools = exports.default;
    what = 'the default export';
  } else {
    const names = Object.keys(exports);
    const found =
      names.length === 0 ? 'it exports nothing' : `it exports ${names.map((n) => `"${n}"`).join(', ')}`;
    throw new ToolsFileError(
      `tools module '${path}' exports neither "tools" nor a default array (${found}); add \`export const tools = [...]\``,
      { file: path },
    );
  }
  if (!Array.isArray(tools)) {
    throw new ToolsFileError(
      `tools module '${path}': ${what} must be an array of tools, not ${describe(tools)}`,
      { file: path },
    );
  }
  for (const [index, entry] of tools.entries()) checkEntry(entry, index, path);
  return tools as Tool[];
}

function checkEntry(entry: unknown, index: number, source: string): void {
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) return;
  throw new ToolsFileError(
    `tools file '${source}': tools[${index}] must be a tool definition object, not ${describe(entry)}; ` +
      'write {"name": "...", "inputSchema": {...}}',
    { file: source, index },
  );
}

function where(index: number, name: unknown): string {
  return typeof name === 'string' ? `tools[${index}] ("${name}")` : `tools[${index}]`;
}

function unreadable(path: string, cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'ENOENT')
    return `tools file '${path}' does not exist; check the path (it is relative to ${process.cwd()})`;
  if (code === 'EISDIR')
    return `tools file '${path}' is a directory; pass a .json manifest or a .js/.mjs module`;
  if (code === 'EACCES' || code === 'EPERM')
    return `tools file '${path}' cannot be read (permission denied); check its permissions`;
  return `tools file '${path}' cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'undefined') return 'undefined';
  return `a ${typeof value}`;
}

function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return newline < 0 ? text : text.slice(0, newline);
}
