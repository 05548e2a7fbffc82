/**
 * Samples on disk, as `plan import` writes them: `DIR/<id>/plan.json` and `DIR/<id>/tools.json`.
 * The folders come from a model's output (or anyone's), so nothing in them may steer a read
 * outside its folder or exhaust the scorer:
 * - an id is a plain folder name (`[A-Za-z0-9._-]`, not `.` or `..`); anything else is refused;
 * - a sample folder that is a symbolic link, or whose real path is not inside DIR, is refused;
 *   the two files are opened without following a link (O_NOFOLLOW) and must be regular files;
 * - each file is read only up to `maxBytes`, a larger one is refused unread;
 * - a folder is listed one entry at a time (fs.opendir), so a folder of 100,000 samples costs
 *   the gold ids and a bounded list of the rest, not every name at once.
 */
import { constants } from 'node:fs';
import { lstat, open, opendir, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { decodeUtf8 } from '../../language/text/index.js';
import type { ToolManifest } from '../types.js';
import type { EvalSample } from './eval-types.js';

/** A sample id that is safe as one folder name. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,200}$/;

/** True when `id` is a plain folder name a sample may have. */
export function isSafeSampleId(id: string): boolean {
  return SAFE_ID.test(id) && id !== '.' && id !== '..';
}

/** Largest plan.json or tools.json read, in bytes, by default. */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

export type ReadSample =
  | { readonly ok: true; readonly sample: EvalSample }
  | { readonly ok: false; readonly missing: boolean; readonly error: string };

/**
 * Reads `dir/<id>`: plan.json as text (so that its diagnostics have lines), tools.json parsed.
 * Never throws for what is on disk: a missing folder is `missing`, anything else unreadable is an
 * error that says what.
 */
export async function readSample(
  dir: string,
  id: string,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
): Promise<ReadSample> {
  if (!isSafeSampleId(id)) return fail(`the id ${JSON.stringify(id)} is not a plain folder name`);
  const folder = join(dir, id);
  let stat;
  try {
    stat = await lstat(folder);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT')
      return { ok: false, missing: true, error: 'no such sample' };
    return fail(`${id}/ cannot be read: ${(error as Error).message}`);
  }
  if (stat.isSymbolicLink())
    return fail(`${id}/ is a symbolic link; a sample must be a folder inside the directory`);
  if (!stat.isDirectory()) return fail(`${id} is not a folder`);
  try {
    const [root, real] = await Promise.all([realpath(dir), realpath(folder)]);
    if (!real.startsWith(root + sep)) return fail(`${id}/ resolves outside the directory`);
  } catch (error) {
    return fail(`${id}/ cannot be resolved: ${(error as Error).message}`);
  }
  const plan = await readBounded(join(folder, 'plan.json'), `${id}/plan.json`, maxBytes);
  if (!plan.ok) return plan;
  const tools = await readBounded(join(folder, 'tools.json'), `${id}/tools.json`, maxBytes);
  if (!tools.ok) return tools;
  let manifest: unknown;
  try {
    manifest = JSON.parse(tools.text);
  } catch (error) {
    return fail(`${id}/tools.json is not JSON: ${(error as Error).message}`);
  }
  return { ok: true, sample: { plan: plan.text, tools: manifest as ToolManifest } };
}

/**
 * Calls `visit` with each entry name of `dir` that is not a plain file at its top (README, an
 * index of the import): one at a time, in the order the file system gives.
 */
export async function forEachSampleName(dir: string, visit: (name: string) => void): Promise<void> {
  const entries = await opendir(dir);
  for await (const entry of entries) if (!entry.isFile()) visit(entry.name);
}

type Read =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly missing: false; readonly error: string };

async function readBounded(path: string, name: string, maxBytes: number): Promise<Read> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ELOOP')
      return fail(`${name} is a symbolic link; it must be a file inside the sample's folder`);
    if (code === 'ENOENT') return fail(`${name} is missing`);
    return fail(`${name} cannot be opened: ${(error as Error).message}`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return fail(`${name} is not a file`);
    if (stat.size > maxBytes) return fail(`${name} is ${stat.size} bytes, over the ${maxBytes}-byte limit`);
    const bytes = new Uint8Array(stat.size);
    const { bytesRead } = await handle.read(bytes, 0, stat.size, 0);
    const decoded = decodeUtf8(bytes.subarray(0, bytesRead));
    if ('problem' in decoded) return fail(`${name} ${decoded.problem.message}`);
    return { ok: true, text: decoded.text };
  } catch (error) {
    return fail(`${name} cannot be read: ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
}

function fail(error: string): { readonly ok: false; readonly missing: false; readonly error: string } {
  return { ok: false, missing: false, error };
}
