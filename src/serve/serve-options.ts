/** startServer's one options object, its defaults, and the checks that refuse a bad one. */
import type { ModelProvider } from '../agent/index.js';
import { describeValue } from '../language/describe-value.js';
import { type Limits, resolveLimits } from '../language/limits.js';
import { optionKeys, rejectUnknownOptions } from '../language/option-keys.js';
import type { LatentFunction } from '../run/index.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import { isLoopbackHost } from './auth.js';

/** The largest request body taken by default: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

export interface ServeOptions {
  /** The tools runs and agents call: a registry or definitions with `execute`. Required. */
  readonly tools: ToolRegistry | Iterable<Tool>;
  /**
   * The address to listen on. Anything but a loopback address (127.0.0.1, ::1, localhost)
   * needs a `token`.
   * @default '127.0.0.1'
   */
  readonly host?: string;
  /**
   * The port; 0 picks a free one (read it from `PlanServer.port`).
   * @default 0
   */
  readonly port?: number;
  /**
   * The bearer token every `/api/` request must carry (`Authorization: Bearer <token>`).
   * Required on a host that is not loopback.
   * @default undefined (no token: loopback only)
   */
  readonly token?: string;
  /**
   * The model behind `POST /api/agents`. Without one, the agent endpoints answer 404 `no_model`.
   * @default undefined (no agents)
   */
  readonly provider?: ModelProvider;
  /**
   * Folder of the agents' plan files (one file per agent, named by its id).
   * @default the plan mode's own (DEFAULT_PLANS_DIR)
   */
  readonly plansDir?: string;
  /**
   * Produces latent tools' results in lazy runs (as `RunOptions.latent`).
   * @default undefined
   */
  readonly latent?: LatentFunction;
  /**
   * Most bytes of a request body; a longer one is refused (413) before it is parsed.
   * @default DEFAULT_MAX_BODY_BYTES (1 MiB)
   */
  readonly maxBodyBytes?: number;
  /**
   * Bounds on request bodies once parsed (depth, keys, size) and on the plans compiled and run.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
  /**
   * Most runs (and, apart, agents) kept; past it the oldest that has ended is forgotten, and a
   * new one is refused (503) while all of them are still going.
   * @default 1000
   */
  readonly maxRuns?: number;
  /**
   * Most events of one run kept for `GET /api/runs/:id/events` to replay; later events still
   * go to the clients listening, and the replay says how many it lacks.
   * @default 100000
   */
  readonly maxEventsPerRun?: number;
}

const KEYS = optionKeys<ServeOptions>({
  tools: true,
  host: true,
  port: true,
  token: true,
  provider: true,
  plansDir: true,
  latent: true,
  maxBodyBytes: true,
  limits: true,
  maxRuns: true,
  maxEventsPerRun: true,
});

/** The options with their defaults filled in. */
export interface ResolvedServeOptions {
  readonly tools: ToolRegistry;
  readonly host: string;
  readonly port: number;
  readonly token: string | undefined;
  readonly provider: ModelProvider | undefined;
  readonly plansDir: string | undefined;
  readonly latent: LatentFunction | undefined;
  readonly maxBodyBytes: number;
  readonly limits: Limits;
  readonly maxRuns: number;
  readonly maxEventsPerRun: number;
}

/**
 * @throws {TypeError} for a bad option, naming it; for a host that is not loopback without a token.
 */
export function resolveServeOptions(options: ServeOptions): ResolvedServeOptions {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`startServer: options must be an object, not ${describeValue(options)}`);
  rejectUnknownOptions('startServer', options, KEYS);
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '')
    throw new TypeError(`startServer: host must be a host name or address, not ${describeValue(host)}`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new TypeError(
      `startServer: port must be a whole number from 0 to 65535, not ${describeValue(port)}`,
    );
  const token = options.token;
  if (token !== undefined && (typeof token !== 'string' || token.length < 1 || /\s/.test(token)))
    throw new TypeError('startServer: token must be a non-empty string without spaces');
  if (token === undefined && !isLoopbackHost(host)) {
    throw new TypeError(
      `startServer: host ${describeValue(host)} is not a loopback address, and a server reachable from other machines needs a token; give one (--token or PLANMODE_TOKEN), or listen on 127.0.0.1`,
    );
  }
  if (options.provider !== undefined && typeof options.provider?.stream !== 'function')
    throw new TypeError(
      `startServer: provider must be a ModelProvider, not ${describeValue(options.provider)}`,
    );
  if (options.plansDir !== undefined && (typeof options.plansDir !== 'string' || options.plansDir === ''))
    throw new TypeError(
      `startServer: plansDir must be a folder path, not ${describeValue(options.plansDir)}`,
    );
  if (options.latent !== undefined && typeof options.latent !== 'function')
    throw new TypeError(`startServer: latent must be a function, not ${describeValue(options.latent)}`);
  return {
    tools: options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools),
    host,
    port,
    token,
    provider: options.provider,
    plansDir: options.plansDir,
    latent: options.latent,
    maxBodyBytes: positive(options.maxBodyBytes, 'maxBodyBytes', DEFAULT_MAX_BODY_BYTES),
    limits: resolveLimits(options.limits, 'startServer: limits'),
    maxRuns: positive(options.maxRuns, 'maxRuns', 1000),
    maxEventsPerRun: positive(options.maxEventsPerRun, 'maxEventsPerRun', 100_000),
  };
}

function positive(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new TypeError(`startServer: ${name} must be a whole number >= 1, not ${describeValue(value)}`);
  return value;
}
