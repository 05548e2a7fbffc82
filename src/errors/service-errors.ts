/**
 * Errors of what planmode reaches outside itself: an optional package not installed, Redis and
 * its workers, an MCP server.
 */
import { isKind, PlanError } from './base.js';

/** What is missing, for {@link MissingDependencyError}. */
export interface MissingDependencyErrorOptions {
  /** The npm package that is not installed: `openai`, `bullmq`, ... */
  readonly packageName: string;
  /** What needs it, as the user would say it: `plan agent --model openai:gpt-4o`. */
  readonly feature: string;
  /** The version range to install, pinned to the one planmode is tested with. */
  readonly version: string;
  /**
   * The import failure.
   * @default undefined
   */
  readonly cause?: unknown;
}

/**
 * An optional peer dependency that is not installed. The message names the feature that
 * needs it and the `npm install` that adds it; `installCommand` is that command alone.
 */
export class MissingDependencyError extends PlanError {
  override name = 'MissingDependencyError';
  readonly packageName: string;
  readonly feature: string;
  readonly installCommand: string;

  constructor(options: MissingDependencyErrorOptions) {
    const installCommand = `npm install ${options.packageName}@${options.version}`;
    super(
      `${options.feature} needs the '${options.packageName}' package: ${installCommand}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.packageName = options.packageName;
    this.feature = options.feature;
    this.installCommand = installCommand;
  }
}

/** What a RedisConnectionError carries. */
export interface RedisConnectionErrorOptions {
  /** What the connection attempt failed with. */
  readonly cause: unknown;
}

/** Redis could not be reached: the one error a dispatcher or worker gives before it starts. */
export class RedisConnectionError extends PlanError {
  override name = 'RedisConnectionError';
  readonly code = 'REDIS_UNREACHABLE';
  constructor(
    /** The URL, password hidden. */
    readonly url: string,
    options: RedisConnectionErrorOptions,
  ) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`cannot connect to Redis at ${url}: ${reason || 'no answer'}`, { cause: options.cause });
  }
}

/** A call's error as a worker sends it: run/'s CallError has this shape. */
interface RemoteError {
  readonly message: string;
  readonly code?: string;
}

/** Which call and job a RemoteCallError is about. */
export interface RemoteCallErrorOptions {
  /** The call's id in the plan. */
  readonly call: string;
  /** The BullMQ job id, `<runId>.<callId>`. */
  readonly job: string;
}

/** A call that failed in a worker (after BullMQ's attempts): its error as the worker sent it. */
export class RemoteCallError extends PlanError {
  override name = 'RemoteCallError';
  /** The tool's error code (`TIMEOUT`, `card_declined`, ...), or undefined when it had none. */
  readonly code: string | undefined;
  /** The call's id in the plan. */
  readonly call: string;
  /** The BullMQ job id, `<runId>.<callId>`. */
  readonly job: string;
  constructor(error: RemoteError, options: RemoteCallErrorOptions) {
    super(error.message);
    this.code = error.code;
    this.call = options.call;
    this.job = options.job;
  }
}

/** What an McpServerError may carry. */
export interface McpServerErrorOptions {
  /** The error underneath (a spawn failure, a protocol error). @default undefined */
  readonly cause?: unknown;
}

/** An MCP server that could not be started, or stopped speaking MCP. */
export class McpServerError extends PlanError {
  override name = 'McpServerError';
  /** The server's command line. */
  readonly server: string;
  constructor(server: string, message: string, options?: McpServerErrorOptions) {
    super(message, options);
    this.server = server;
  }
}

export function isMissingDependencyError(value: unknown): value is MissingDependencyError {
  return isKind(value, MissingDependencyError, ['MissingDependencyError']);
}

export function isRedisConnectionError(value: unknown): value is RedisConnectionError {
  return isKind(value, RedisConnectionError, ['RedisConnectionError']);
}

export function isRemoteCallError(value: unknown): value is RemoteCallError {
  return isKind(value, RemoteCallError, ['RemoteCallError']);
}

export function isMcpServerError(value: unknown): value is McpServerError {
  return isKind(value, McpServerError, ['McpServerError']);
}
