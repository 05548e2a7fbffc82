/**
 * `plan worker --tools <module> [--redis URL]`: runs the tool calls that `plan run --redis` puts
 * in the queue, until Ctrl-C or SIGTERM (then it finishes the jobs it is running and exits 0).
 */
import { extname } from 'node:path';
import { startWorker, type WorkerJobEvent } from '../../distributed/worker.js';
import { DEFAULT_REDIS_URL, redact } from '../../distributed/redis-url.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/tool.js';
import { CliInputError } from '../cli-input-error.js';
import { ExitCode } from '../exit-codes.js';
import { formatDuration, oneLine } from '../output/index.js';
import type { CliIo } from '../io.js';
import { loadTimeoutFlag, loadToolRegistry } from '../flags/compile-inputs.js';
import { type LimitFlags, limitsFlag } from '../flags/limit-flags.js';
import { type QuotaFlags, quotaFlags } from '../flags/quota-flags.js';
import type { McpFlags } from '../flags/mcp-servers.js';
import { checkRedisFlags, lineOnce, reachingRedis, type RedisFlags } from '../flags/redis-flags.js';
import { concurrencyFlag, millisecondsFlag } from '../flags/whole-number.js';

export interface WorkerFlags extends RedisFlags, McpFlags, LimitFlags, QuotaFlags {
  /** A .js/.mjs ES module exporting tools with execute functions. Required. */
  readonly tools?: string;
  /**
   * Most time the tools module may take to load, in ms.
   * @default '30000'
   */
  readonly loadTimeout?: string;
  /**
   * Most jobs run at once: a whole number >= 1.
   * @default '16'
   */
  readonly concurrency?: string;
  /**
   * Lock duration of a job in ms (a dead worker's jobs move to another worker after it).
   * @default '30000'
   */
  readonly lockDuration?: string;
  /**
   * How often to look for jobs whose worker died, in ms.
   * @default '30000'
   */
  readonly stalledInterval?: string;
  /**
   * No line per job.
   * @default false
   */
  readonly quiet?: boolean;
}

const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

/** @returns 0 once stopped by a signal. Bad flags and an unreachable Redis throw CliInputError (2). */
export async function workerCommand(flags: WorkerFlags, io: CliIo): Promise<number> {
  const concurrency = concurrencyFlag(flags.concurrency, '--concurrency', { unlimited: false });
  const lockDurationMs = millisecondsFlag(flags.lockDuration, '--lock-duration', 100);
  const stalledIntervalMs = millisecondsFlag(flags.stalledInterval, '--stalled-interval', 100);
  const loadTimeoutMs = loadTimeoutFlag(flags);
  const limits = limitsFlag(flags);
  const limiter = quotaFlags(flags);
  checkRedisFlags(flags);
  const tools = await loadTools(flags.tools, flags.mcpTools ?? [], loadTimeoutMs);
  const redis = flags.redis ?? DEFAULT_REDIS_URL;

  // Listening before the connection is made: a signal during start-up stops the worker too.
  let stop!: (signal: string) => void;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const onSignal = (signal: string) => stop(signal);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const worker = await reachingRedis(() =>
      startWorker({
        tools,
        redis,
        limits,
        ...(limiter && { limiter }),
        ...(flags.queue !== undefined && { queue: flags.queue }),
        ...(concurrency !== undefined && { concurrency }),
        ...(lockDurationMs !== undefined && { lockDurationMs }),
        ...(stalledIntervalMs !== undefined && { stalledIntervalMs }),
        onError: lineOnce(io, 'plan worker: redis'),
        ...(!flags.quiet && { onJob: (event: WorkerJobEvent) => io.stderr.write(jobLine(event)) }),
      }),
    );
    io.stderr.write(
      `plan worker ${process.pid}: running ${tools.size} tool${tools.size === 1 ? '' : 's'} from queue '${worker.queue}' at ${redact(redis)}; Ctrl-C stops\n`,
    );
    const signal = await stopped;
    io.stderr.write(`plan worker ${process.pid}: ${signal}: finishing running jobs, then stopping\n`);
    await worker.close();
    return ExitCode.OK;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

function jobLine(event: WorkerJobEvent): string {
  if (event.type === 'start') return `start ${event.job} ${event.tool} (attempt ${event.attempt})\n`;
  const took = formatDuration(event.durationMs);
  if (!event.error) return `ok    ${event.job} ${event.tool} ${took}\n`;
  const code = event.error.code ? ` [${event.error.code}]` : '';
  return `fail  ${event.job} ${event.tool} ${took}: ${oneLine(event.error.message)}${code}${event.retrying ? ' (will retry)' : ''}\n`;
}

/** The tools of --tools and of the --mcp servers (the same ones `plan run --redis --mcp` was given). */
async function loadTools(
  file: string | undefined,
  mcpTools: readonly Tool[],
  loadTimeoutMs: number | undefined,
): Promise<ToolRegistry> {
  if (file === undefined && mcpTools.length === 0) {
    throw new CliInputError(
      'plan worker needs --tools <module> (a .js/.mjs ES module that exports tools with execute functions) or --mcp "<command line>"',
    );
  }
  if (file !== undefined && !MODULE_EXTENSIONS.has(extname(file).toLowerCase())) {
    throw new CliInputError(
      `--tools '${file}' is not a module; plan worker needs a .js/.mjs ES module that exports tools with execute functions`,
    );
  }
  return loadToolRegistry(file, mcpTools, loadTimeoutMs);
}
