/** `--limit name=value` (repeatable): the engine's limits from the command line. */
import { type Limits, resolveLimits } from '../../language/limits.js';
import { CliInputError } from '../cli-input-error.js';

export interface LimitFlags {
  /**
   * `name=value` pairs, one per `--limit`: maxCalls, maxDepth, maxTextLength, maxKeys,
   * maxArrayIndex, maxDiagnostics, maxForEach.
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
  // A Map, not an object: `given['__proto__'] = 5` would set the object's prototype, not a
  // member, and the name would slip past the check for unknown limits.
  const given = new Map<string, number>();
  for (const pair of flags.limit ?? []) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? '' : pair.slice(0, equals).trim();
    const text = equals < 0 ? '' : pair.slice(equals + 1).trim();
    if (name === '' || !/^\d+$/.test(text)) {
      throw new CliInputError(
        `--limit '${pair}' is not name=value; write, for example, --limit maxDepth=128 (a whole number)`,
      );
    }
    given.set(name, Number(text));
  }
  try {
    // Object.fromEntries defines own members, `__proto__` and `constructor` included, so every
    // name given reaches resolveLimits, which refuses the ones that are no limit.
    return resolveLimits(Object.fromEntries(given), '--limit');
  } catch (e) {
    throw new CliInputError((e as Error).message.replace(/^Expected /, 'expected '));
  }
}
