/** `--rate name=limit/ms` and `--tool-concurrency name=N` (repeatable): quotas from the command line. */
import { createLimiter, type Limiter } from '../../run/limit/index.js';
import type { Quota, RateLimit } from '../../tools/quota.js';
import { CliInputError } from '../cli-input-error.js';

export interface QuotaFlags {
  /**
   * `name=limit/ms` pairs, one per `--rate`: at most `limit` calls of the tool (or MCP server)
   * `name` start in any `ms` milliseconds.
   * @default undefined (the tools' own quotas)
   */
  readonly rate?: readonly string[];
  /**
   * `name=N` pairs, one per `--tool-concurrency`: at most N calls of `name` run at once.
   * @default undefined (the tools' own quotas)
   */
  readonly toolConcurrency?: readonly string[];
}

const RATE_PAIR = /^\s*([^=\s][^=]*?)\s*=\s*(\d+)\s*\/\s*(\d+)\s*$/;
const CONCURRENCY_PAIR = /^\s*([^=\s][^=]*?)\s*=\s*(\d+)\s*$/;

/**
 * The names the flags set quotas for (a pair of another form is left to {@link quotaFlags}, which
 * refuses it): an `--mcp` server named here puts all its tools in one group of that name.
 */
export function quotaNames(flags: QuotaFlags): Set<string> {
  const names = new Set<string>();
  for (const pair of flags.rate ?? []) {
    const match = RATE_PAIR.exec(pair);
    if (match !== null) names.add(match[1]!);
  }
  for (const pair of flags.toolConcurrency ?? []) {
    const match = CONCURRENCY_PAIR.exec(pair);
    if (match !== null) names.add(match[1]!);
  }
  return names;
}

/**
 * A limiter with the flags' quotas over the tools' own, or undefined when no flag is given.
 * @throws {CliInputError} (exit 2) naming the flag, the pair and the form it takes.
 */
export function quotaFlags(flags: QuotaFlags): Limiter | undefined {
  if (flags.rate === undefined && flags.toolConcurrency === undefined) return undefined;
  // A Map, not an object: a name such as `__proto__` stays a name.
  const quotas = new Map<string, { concurrency?: number; rateLimit?: RateLimit }>();
  const quotaOf = (name: string) => quotas.get(name) ?? quotas.set(name, {}).get(name)!;
  for (const pair of flags.rate ?? []) {
    const match = RATE_PAIR.exec(pair);
    if (match === null)
      throw new CliInputError(
        `--rate '${pair}' is not name=limit/ms; write, for example, --rate search=5/1000 (at most 5 calls of search start in any 1000 ms)`,
      );
    quotaOf(match[1]!).rateLimit = { limit: Number(match[2]), intervalMs: Number(match[3]) };
  }
  for (const pair of flags.toolConcurrency ?? []) {
    const match = CONCURRENCY_PAIR.exec(pair);
    if (match === null)
      throw new CliInputError(
        `--tool-concurrency '${pair}' is not name=N; write, for example, --tool-concurrency search=4 (at most 4 calls of search at once)`,
      );
    quotaOf(match[1]!).concurrency = Number(match[2]);
  }
  try {
    return createLimiter({ quotas: Object.fromEntries(quotas) as Record<string, Quota> });
  } catch (e) {
    const message = (e as Error).message.replace(/^Expected a valid quota for group/, 'a bad quota for');
    throw new CliInputError(`--rate/--tool-concurrency: ${message}`);
  }
}
