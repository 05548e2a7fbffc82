/** An optional package that is not installed, as the one-line usage error of the flag that needs it. */
import { isMissingDependencyError } from '../../errors.js';
import type { ModelProvider } from '../../agent/model.js';
import { CliInputError } from '../cli-input-error.js';

/**
 * `error` as a CliInputError (exit 2) naming `needs` (a flag, `--model openai:gpt-4o`, or a
 * command, `plan worker`) and the `npm install` that adds the package; any other error as it is.
 */
export function asMissingDependencyUsage(error: unknown, needs: string): unknown {
  if (!isMissingDependencyError(error)) return error;
  return new CliInputError(`${needs} needs the '${error.packageName}' package: ${error.installCommand}`);
}

/**
 * Loads the SDK of a provider that has one, so that a missing package is a usage error before
 * the model is asked anything, not a failed run halfway through.
 * @throws {CliInputError} when the SDK is not installed.
 */
export async function loadProviderSdk(provider: ModelProvider, flag: string): Promise<void> {
  const loadSdk = (provider as { loadSdk?: () => Promise<void> }).loadSdk;
  if (typeof loadSdk !== 'function') return;
  try {
    await loadSdk.call(provider);
  } catch (error) {
    throw asMissingDependencyUsage(error, flag);
  }
}
