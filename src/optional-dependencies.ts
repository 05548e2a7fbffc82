/**
 * The optional peer dependencies: packages only some features need (a model provider, the
 * distributed runner, MCP servers, OpenTelemetry tracing), so a user who compiles and runs plans
 * never installs them.
 * Each is imported where it is first used, through {@link importOptional}, which turns "not
 * installed" into one {@link MissingDependencyError} naming the `npm install` that adds it.
 */
import { MissingDependencyError } from './errors.js';

/** Each optional peer with the version planmode is tested with (package.json's peerDependencies). */
export const OPTIONAL_PEERS = {
  openai: '6.30.1',
  '@anthropic-ai/sdk': '1.12.0',
  bullmq: '6.7.0',
  ioredis: '5.11.1',
  '@modelcontextprotocol/sdk': '1.32.2',
  '@opentelemetry/api': '1.9.0',
} as const;

export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/**
 * Runs `load`, the import of `packageName` (or of one of its files) written at the call site
 * with a literal specifier, so that tsc checks it and bundlers see it.
 *
 * Only the package being absent becomes a MissingDependencyError: a package that is installed
 * but fails to load (a wrong version, a broken file) is rethrown as it is, since the install
 * command would not fix it.
 *
 * @param feature what needs the package, as the user would say it: `plan worker`,
 *   `the openai:gpt-4o provider`. It begins the error's message.
 * @throws {MissingDependencyError} when `packageName` is not installed where it was imported from.
 */
export async function importOptional<T>(
  packageName: OptionalPeer,
  feature: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isPackageNotFound(error, packageName)) throw error;
    throw new MissingDependencyError({
      packageName,
      feature,
      version: OPTIONAL_PEERS[packageName],
      cause: error,
    });
  }
}

/**
 * Node says `Cannot find package 'openai' imported from ...` (ERR_MODULE_NOT_FOUND) for a
 * package that is not installed; a missing file inside an installed package names the file
 * instead, and is not matched.
 */
function isPackageNotFound(error: unknown, packageName: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return (
    error.message.includes(`Cannot find package '${packageName}'`) ||
    error.message.includes(`Cannot find module '${packageName}'`)
  );
}
