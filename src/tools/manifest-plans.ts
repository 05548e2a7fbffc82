/**
 * The plans of a manifest's workflows (tools with `plan`): given inline (an array of calls or a
 * document object), the plan is that part of the manifest's text, with its start as its
 * `planOrigin`, so its mistakes are reported at the manifest's own lines and columns; given as
 * a string, it is the path of a plan file relative to the manifest's folder, which it must stay
 * inside: an absolute path, a `..` segment or a link that leads out is refused.
 */
import { readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { ToolsFileError } from '../errors.js';
import { decodeUtf8, SourceText } from '../language/text/index.js';
import type { Tool } from './tool.js';

/**
 * The manifest's tools, each workflow's `plan` made text with its `planOrigin`.
 * @param text The manifest's text as parsed (without a byte order mark).
 * @throws {ToolsFileError} for a plan path that is absolute, leaves the folder, or cannot be read.
 */
export async function resolveManifestPlans(tools: Tool[], text: string, manifest: string): Promise<Tool[]> {
  let source: SourceText | undefined;
  const out: Tool[] = [];
  for (const [index, tool] of tools.entries()) {
    const plan = tool.plan;
    if (plan === undefined || tool.planOrigin !== undefined) out.push(tool);
    else if (typeof plan === 'string')
      out.push({ ...tool, ...(await planFile(plan, manifest, index, tool.name)) });
    else if (plan !== null && typeof plan === 'object') {
      source ??= SourceText.fromText(text, manifest);
      const start = source.locate(`/tools/${index}/plan`);
      const end = jsonValueEnd(text, start.offset);
      out.push({
        ...tool,
        plan: text.slice(start.offset, end),
        planOrigin: { file: manifest, line: start.line, column: start.column },
      });
    } else out.push(tool);
  }
  return out;
}

async function planFile(
  path: string,
  manifest: string,
  index: number,
  name: string,
): Promise<Pick<Tool, 'plan' | 'planOrigin'>> {
  const fail = (why: string, cause?: unknown): never => {
    throw new ToolsFileError(`tools file '${manifest}': tools[${index}] ("${name}") "plan" ${why}`, {
      file: manifest,
      index,
      tool: name,
      ...(cause !== undefined && { cause }),
    });
  };
  if (path === '' || isAbsolute(path) || /^[A-Za-z]:|^[\\/]/.test(path))
    fail(
      `must be a path relative to the manifest's folder, not ${JSON.stringify(path)}; move the plan file beside the manifest`,
    );
  if (path.split(/[\\/]/).includes('..'))
    fail(
      `may not leave the manifest's folder: ${JSON.stringify(path)} has a '..' segment; move the plan file inside that folder`,
    );
  const folder = dirname(manifest);
  const file = join(folder, path);
  let real: string;
  let realFolder: string;
  try {
    [real, realFolder] = await Promise.all([realpath(file), realpath(folder)]);
  } catch (cause) {
    return fail(`names '${file}', which cannot be read: ${(cause as Error).message}`, cause);
  }
  const inside = relative(realFolder, real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside))
    fail(`names '${file}', a link that leads out of the manifest's folder; copy the plan file inside it`);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(real);
  } catch (cause) {
    return fail(`names '${file}', which cannot be read: ${(cause as Error).message}`, cause);
  }
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded) return fail(`names '${file}', which ${decoded.problem.message}`);
  return { plan: decoded.text, planOrigin: { file } };
}

/**
 * The offset just past the JSON value (an array or object) that starts at `start`: its closing
 * bracket, found by counting brackets outside strings (one pass, no recursion).
 */
function jsonValueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}
