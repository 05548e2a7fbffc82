/**
 * Tools files for the CLI: a JSON manifest `{"tools": [...]}` (definitions without
 * `execute`: enough to validate and simulate) or an ES module exporting `tools` or a default
 * array (needed to run). Every problem is a ToolsFileError that says what, where and how to fix.
 */
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolsFileError } from '../errors.js';
import { decodeUtf8, jsonSyntaxDiagnostic, SourceText } from '../language/text/index.js';
import { isArrayValue, showValue, thrownMessage } from './safe-describe.js';
import { resolveManifestPlans } from './manifest-plans.js';
import type { Tool } from './tool.js';
import { MAX_DELAY_MS } from './tool-values.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

const MANIFEST_EXTENSIONS = new Set(['.json']);
const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

/**
 * How long a tools module may take to load, by default. A module that connects to a service
 * or loads a large SDK at its top level can take seconds on a slow machine or a cold disk;
 * half a minute is far beyond that, yet short enough that a top-level `await` that never
 * settles ends a CI job with a message instead of leaving it hung (or exiting 13 silently).
 */
export const DEFAULT_LOAD_TIMEOUT_MS = 30_000;

export interface LoadToolsFileOptions {
  /**
   * Most time, in ms, a tools module may take to load (its top-level code and awaits); then
   * loading fails with a ToolsFileError. A whole number from 1 to 2147483647. A manifest is
   * read, not run, and has no time limit.
   * @default 30000
   */
  readonly loadTimeoutMs?: number;
}

/**
 * Loads the tool definitions of a tools file. The result still has to go through
 * `new ToolRegistry(tools)`, which checks names, flags and schemas.
 *
 * A manifest's workflow gives its `plan` inline or as the path of a plan file relative to the
 * manifest's folder (and inside it).
 *
 * @param path A `.json` manifest or a `.js`/`.mjs` module, relative to the working directory.
 * @throws {ToolsFileError} when the file is missing, unreadable, not JSON, the wrong shape, a
 *   module that throws while loading or does not finish loading in time, or exports that
 *   throw when read.
 * @throws {TypeError} for a bad option value.
 */
export async function loadToolsFile(path: string, options: LoadToolsFileOptions = {}): Promise<Tool[]> {
  const loadTimeoutMs = loadTimeoutOption(options);
  const extension = extname(path).toLowerCase();
  if (MANIFEST_EXTENSIONS.has(extension)) {
    const text = await readToolsText(path);
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    return resolveManifestPlans(toolsFromManifest(parseManifestText(body, path), path), body, path);
  }
  if (MODULE_EXTENSIONS.has(extension)) return loadToolsModule(path, loadTimeoutMs);
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
  const tools = guarded(() => (value as { tools?: unknown }).tools, 'reading "tools"', source);
  if (!isArrayValue(tools)) {
    const found = tools === undefined ? 'it has no "tools" key' : `"tools" is ${describe(tools)}`;
    throw new ToolsFileError(
      `tools file '${source}': ${found}; a manifest is {"tools": [{"name": ...}, ...]}`,
      { file: source },
    );
  }
  return copyEntries(tools as unknown[], '"tools"', source).map((entry, index) => {
    checkEntry(entry, index, source);
    const name = guarded(() => (entry as { name?: unknown }).name, `reading tools[${index}].name`, source);
    if (guarded(() => 'execute' in (entry as object), `reading tools[${index}]`, source)) {
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
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new ToolsFileError(unreadable(path, cause), { file: path, cause });
  }
  // Strictly: a byte that is not UTF-8 would become U+FFFD in a tool's name or schema.
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded)
    throw new ToolsFileError(`tools file '${path}' ${decoded.problem.message}`, { file: path });
  return decoded.text;
}

function parseManifestText(body: string, path: string): unknown {
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

async function loadToolsModule(path: string, loadTimeoutMs: number): Promise<Tool[]> {
  // A missing module would otherwise surface as an import error that reads like a bug in it.
  await readToolsText(path);
  const exports = await importWithin(path, loadTimeoutMs);
  let tools: unknown;
  let what: string;
  if (guarded(() => 'tools' in exports, 'reading the exports', path)) {
    tools = guarded(() => exports.tools, 'reading export "tools"', path);
    what = 'export "tools"';
  } else if (isArrayValue(guarded(() => exports.default, 'reading the default export', path))) {
    tools = exports.default;
    what = 'the default export';
  } else {
    const names = guarded(() => Object.keys(exports), 'reading the exports', path);
    const found =
      names.length === 0 ? 'it exports nothing' : `it exports ${names.map((n) => `"${n}"`).join(', ')}`;
    throw new ToolsFileError(
      `tools module '${path}' exports neither "tools" nor a default array (${found}); add \`export const tools = [...]\``,
      { file: path },
    );
  }
  if (!isArrayValue(tools)) {
    throw new ToolsFileError(
      `tools module '${path}': ${what} must be an array of tools, not ${describe(tools)}`,
      { file: path },
    );
  }
  const entries = copyEntries(tools as unknown[], what, path);
  for (const [index, entry] of entries.entries()) checkEntry(entry, index, path);
  return entries as Tool[];
}

/**
 * Imports the module, or fails once `ms` have passed. The timer is ref'd on purpose: an
 * import whose top-level `await` never settles holds nothing that keeps Node alive, so
 * without it the event loop would empty and Node would exit 13 without a word.
 */
async function importWithin(path: string, ms: number): Promise<Record<string, unknown>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ToolsFileError(
            `tools module '${path}' did not finish loading within ${ms} ms (a top-level await that never settles?); ` +
              'fix the module or raise --load-timeout (loadTimeoutMs in the API)',
            { file: path },
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([importModule(path), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function importModule(path: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (cause) {
    const reason = errorLine(cause);
    // Older Node 20 releases load a .js file outside a "type": "module" package as CommonJS.
    const esmAsCommonJs =
      extname(path) === '.js' && reason.startsWith('SyntaxError: ') && /\b(export|import)\b/.test(reason);
    const fix = esmAsCommonJs
      ? 'rename it to .mjs, or add "type": "module" to its package.json'
      : `fix the module (\`node ${path}\` shows where)`;
    throw new ToolsFileError(`tools module '${path}' failed to load (${reason}); ${fix}`, {
      file: path,
      cause,
    });
  }
}

/**
 * A plain copy of the module's array, read once: a Proxy or an array with getters can
 * throw from any read, and what the registry checks must be what runs.
 */
function copyEntries(tools: unknown[], what: string, source: string): unknown[] {
  const length = guarded(() => tools.length, `reading the length of ${what}`, source);
  const entries: unknown[] = [];
  for (let index = 0; index < length; index++)
    entries.push(guarded(() => tools[index], `reading tools[${index}]`, source));
  return entries;
}

/** The value `read` gives, or a ToolsFileError when the module's getter or Proxy trap throws. */
function guarded<T>(read: () => T, doing: string, source: string): T {
  try {
    return read();
  } catch (cause) {
    throw new ToolsFileError(
      `tools file '${source}': ${doing} threw: ${thrownMessage(cause)}; fix the tools module`,
      {
        file: source,
        cause,
      },
    );
  }
}

function checkEntry(entry: unknown, index: number, source: string): void {
  if (entry !== null && typeof entry === 'object' && !isArrayValue(entry)) return;
  throw new ToolsFileError(
    `tools file '${source}': tools[${index}] must be a tool definition object, not ${describe(entry)}; ` +
      'write {"name": "...", "inputSchema": {...}}',
    { file: source, index },
  );
}

function loadTimeoutOption(options: LoadToolsFileOptions): number {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`loadToolsFile: options must be an object, not ${showValue(options)}`);
  checkOptions('loadToolsFile', options, { loadTimeoutMs: 'any' } satisfies OptionSpec<LoadToolsFileOptions>);
  const value = options.loadTimeoutMs;
  if (value === undefined) return DEFAULT_LOAD_TIMEOUT_MS;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_DELAY_MS)
    return value;
  throw new TypeError(
    `loadToolsFile: loadTimeoutMs must be a whole number from 1 to ${MAX_DELAY_MS}, not ${showValue(value)}`,
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

/** `SyntaxError: Unexpected token`: the first line of what the module threw, safely. */
function errorLine(cause: unknown): string {
  try {
    if (cause instanceof Error) return `${String(cause.name)}: ${thrownMessage(cause)}`;
  } catch {
    // A Proxy whose prototype trap throws: described as any other thrown value.
  }
  return thrownMessage(cause);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (isArrayValue(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'undefined') return 'undefined';
  return `a ${typeof value}`;
}
