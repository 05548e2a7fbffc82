/**
 * The compiled package in dist/, for tests whose child processes load it: `npm test` builds it
 * first (its pretest step). Building here instead would cost a tsc run per test file and race
 * the other test files reading dist/.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * The file URL of `dist/<path>`, to import from a child process.
 * @throws {Error} naming the command that builds it, when it is missing.
 */
export function builtModule(path: string): string {
  const file = join(ROOT, 'dist', path);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (npm test does)`);
  return pathToFileURL(file).href;
}
