/** `--limit name=value` (repeatable): the engine's limits from the command line. */
import { type Limits, resolveLimits } from '../../language/limits.js';
import { CliInputError } from '../cli-input-error.js';

export interface LimitFlags {
  /**
   * `name=value` pairs, one per `--limit`: maxCalls, maxDepth, maxTextLength, maxKeys,
   * maxArrayIndex, maxDiagnostics.
   * @default undefined (every limit at its default)
   */
  readonly limit?: readonly string[];
}

/**
 * The limits the flags set, resolved over the defaults.
 * @throws {CliInputError} (exit 2) naming the flag for a pair that is not `name=value`, an unknown
 *   name or a value out of range.
 */
export function limitsFlag(flags: LimitFlags): Limits {
  const given: Record<string, number> = {};
  for (const pair of flags.limit ?? []) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? '' : pair.slice(0, equals).trim();
    const text = equals < 0 ? '' : pair.slice(equals + 1).trim();
    if (name === '' || !/^\d+$/.test(text)) {
      throw new CliInputError(
        `--limit '${pair}' is not name=value; write, for example, --limit maxDepth=128 (a whole number)`,
      );
    }
    given[name] = Number(text);
  }
  try {
    return resolveLimits(given, '--limit');
  } catch (e) {
    throw new CliInputError((e as Error).message.replace(/^Expected /, 'expected '));
  }
}
