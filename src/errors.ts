/**
 * Every error planmode throws, in one module: one base class, a `name` on each, and a brand.
 *
 * The guards (`isPlanError`, `isToolExecutionError`, ...) check the brand and the exact name,
 * not `instanceof` alone, so an error made by another copy of planmode (two versions in one
 * `node_modules`, a bundled copy) is still recognised, and another library's error whose name
 * merely looks alike (`ToolTimeoutError` in @openai/agents, `ToolError` in @anthropic-ai/sdk)
 * is not.
 */
import type { Diagnostic } from './language/diagnostics.js';
import type { JournalPart } from './run/journal-digests.js';
import type { CallError } from './run/types.js';

/**
 * The brand on PlanError's prototype. `Symbol.for` gives every copy of planmode the same
 * symbol, where a class (and so `instanceof`) differs from copy to copy.
 */
const PLAN_ERROR_BRAND: unique symbol = Symbol.for('planmode.error');

/** The base class of planmode's errors; `isPlanError` recognises them from any copy of planmode. */
export class PlanError extends Error {
  override name = 'PlanError';
}

Object.defineProperty(PlanError.prototype, PLAN_ERROR_BRAND, { value: true });

/** A plan that does not compile; `diagnostics` says why. */
export class PlanValidationError extends PlanError {
  override name = 'PlanValidationError';
  constructor(
    readonly diagnostics: readonly Diagnostic[],
    message = summarize(diagnostics),
  ) {
    super(message);
  }
}

/** A tool definition (or tools file) that cannot be used: bad name, invalid schema, duplicate. */
export class ToolDefinitionError extends PlanError {
  override name = 'ToolDefinitionError';
  constructor(readonly problems: readonly string[]) {
    super(
      problems.length === 1
        ? (problems[0] ?? '')
        : `${problems.length} problems in the tool definitions: ${problems.join('; ')}`,
    );
  }
}

/** Where in a tools file a problem is. */
export interface ToolsFileErrorOptions {
  /** The tools file as the user named it. */
  readonly file: string;
  /** Index of the bad tool in the file's tools array, when one tool is at fault. */
  readonly index?: number;
  /** Name of that tool, when it has one. */
  readonly tool?: string;
  /** 1-based line and column of a JSON syntax error. */
  readonly line?: number;
  readonly column?: number;
  readonly cause?: unknown;
}

/**
 * A tools file that cannot be loaded: missing, unreadable, not JSON, the wrong shape, or a
 * module that throws. The message says what, where and how to fix it.
 */
export class ToolsFileError extends PlanError {
  override name = 'ToolsFileError';
  readonly file: string;
  readonly index?: number;
  readonly tool?: string;
  readonly line?: number;
  readonly column?: number;

  constructor(message: string, options: ToolsFileErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.file = options.file;
    if (options.index !== undefined) this.index = options.index;
    if (options.tool !== undefined) this.tool = options.tool;
    if (options.line !== undefined) this.line = options.line;
    if (options.column !== undefined) this.column = options.column;
  }
}

/** Every {@link ToolErrorCode}, for checking a code read from a report or a journal. */
export const TOOL_ERROR_CODES = [
  'UNKNOWN_TOOL',
  'NOT_EXECUTABLE',
  'INVALID_ARGUMENTS',
  'INVALID_OUTPUT',
  'BAD_BRANCH',
  'NO_MODEL',
  'LIMIT',
  'STATE_CONFLICT',
  'TIMEOUT',
] as const;

/**
 * Why planmode failed a call, as {@link ToolExecutionError}'s `code` (and the call's
 * `error.code` in a run's result, locally or in a worker):
 *
 * - `UNKNOWN_TOOL`: the call names a tool the run (or the worker) does not have.
 * - `NOT_EXECUTABLE`: the tool has no `execute` function (and is not latent).
 * - `INVALID_ARGUMENTS`: the resolved arguments fail the tool's input schema, or are not JSON
 *   within the limits.
 * - `INVALID_OUTPUT`: the result fails the tool's output schema, is not JSON, or is missing.
 * - `BAD_BRANCH`: a branch tool answered a branch the call does not have.
 * - `NO_MODEL`: a latent call of a lazy plan with no `latent` function to answer it, or of an
 *   eager plan without `_output` (which asks no model).
 * - `LIMIT`: the result, or the state it is written to, would pass a limit.
 * - `STATE_CONFLICT`: the output path cannot be written (a value in the way is not an object).
 * - `TIMEOUT`: an attempt ran past its timeout ({@link ToolTimeoutError}).
 *
 * A tool's own throw keeps the tool's own code; a cancelled call is `CANCELLED`
 * ({@link RunCancelledError}), a refused one `PERMISSION_DENIED` ({@link PermissionDeniedError}).
 */
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/** Where a tool call went wrong, for {@link ToolExecutionError}. */
export interface ToolExecutionErrorOptions {
  /** The id of the call. */
  readonly call: string;
  /** The tool it called. */
  readonly tool: string;
  /** Why: one of {@link TOOL_ERROR_CODES}. */
  readonly code: ToolErrorCode;
  /**
   * What went wrong underneath.
   * @default undefined
   */
  readonly cause?: unknown;
}

/**
 * A call that failed because of how its tool was called or answered (not a throw from inside
 * the tool, which fails the call with the tool's own error). The run reports it as the call's
 * `error: { message, code }`.
 */
export class ToolExecutionError extends PlanError {
  override name = 'ToolExecutionError';
  readonly call: string;
  readonly tool: string;
  readonly code: ToolErrorCode;

  constructor(message: string, options: ToolExecutionErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.call = options.call;
    this.tool = options.tool;
    this.code = options.code;
  }
}

/** An attempt that ran past its timeout: the reason its tool's AbortSignal was aborted with. */
export class ToolTimeoutError extends ToolExecutionError {
  override name = 'ToolTimeoutError';
  constructor(
    readonly timeoutMs: number,
    options: Omit<ToolExecutionErrorOptions, 'code'>,
  ) {
    super(`timed out after ${timeoutMs} ms`, { ...options, code: 'TIMEOUT' });
  }
}

/** The reason a tool's AbortSignal is aborted with when the whole run is cancelled. */
export class RunCancelledError extends PlanError {
  override name = 'RunCancelledError';
  readonly code = 'CANCELLED';
  constructor(message = 'the run was cancelled') {
    super(message);
  }
}

/** Where a model request went wrong, for {@link ModelProviderError}. */
export interface ModelProviderErrorOptions {
  /** The provider's name (`openai:gpt-4o`, ...). */
  readonly provider: string;
  /** The HTTP status of the API's answer, when there was one. */
  readonly status?: number;
  readonly cause?: unknown;
}

/**
 * A model request that failed: the API said no (its status and message are kept), the
 * connection failed, or the answer could not be read. Never carries an API key.
 */
export class ModelProviderError extends PlanError {
  override name = 'ModelProviderError';
  readonly provider: string;
  readonly status?: number;

  constructor(message: string, options: ModelProviderErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.provider = options.provider;
    if (options.status !== undefined) this.status = options.status;
  }
}

/**
 * What refused a tool call: `plan-mode` (a mutating tool while planning, or in mode `plan`),
 * `deny-rule`, `mode` (`dontAsk`), `no-approver` (an ask with no one to ask),
 * `approval-failed` (the approve callback threw or answered garbage), `rejected` (a person
 * said no), `policy` (a policy or tool of your own, for a reason of its own).
 */
export type DenialCause =
  'plan-mode' | 'deny-rule' | 'mode' | 'no-approver' | 'approval-failed' | 'rejected' | 'policy';

/**
 * A refused tool call as data, beside the sentence the model reads (adk-fluent's
 * `plan_mode_state`): on PermissionDeniedError, guardTools' call results and the agent's
 * `tool-result` events.
 */
export interface PermissionDenial {
  /** The tool refused. */
  readonly tool: string;
  /**
   * The plan-mode state at the check: the latch's, `planning` for a plan-mode denial without
   * a latch (mode `plan`), null when no latch is involved.
   */
  readonly state: 'off' | 'planning' | 'executing' | null;
  readonly cause: DenialCause;
  /** Why, as the policy said it: `Plan mode denies mutating tool 'edit_file'`. */
  readonly reason: string;
}

/**
 * A tool call that the permission policy (or plan mode) refuses: `reason` says why, `denial`
 * says it as data. A run reports it as the call's `error: { message: reason, code:
 * 'PERMISSION_DENIED' }`.
 */
export class PermissionDeniedError extends PlanError {
  override name = 'PermissionDeniedError';
  readonly code = 'PERMISSION_DENIED';
  readonly denial: PermissionDenial;
  constructor(
    readonly tool: string,
    readonly reason: string,
    details: { readonly cause?: DenialCause; readonly state?: PermissionDenial['state'] } = {},
  ) {
    super(reason);
    this.denial = Object.freeze({
      tool,
      state: details.state ?? null,
      cause: details.cause ?? 'policy',
      reason,
    });
  }
}

/**
 * A person said no: to a tool call (`what` is `the call to 'x'`) or to a plan (`the plan`).
 * `feedback` is what they said, for the model; `hint` (when given) ends the message with
 * what to do next.
 */
export class ApprovalRejectedError extends PlanError {
  override name = 'ApprovalRejectedError';
  constructor(
    readonly what: string,
    readonly feedback?: string,
    hint?: string,
  ) {
    super(
      `${what} was rejected${feedback ? `; feedback: ${feedback}` : ' without feedback'}${hint ? `. ${hint}` : ''}`,
    );
  }
}

/** A plan-mode latch asked for a transition its state does not allow (exit while not planning). */
export class PlanModeTransitionError extends PlanError {
  override name = 'PlanModeTransitionError';
  constructor(
    readonly action: 'enter' | 'exit' | 'reset',
    readonly state: 'off' | 'planning' | 'executing',
    message = `cannot ${action} plan mode from state '${state}'`,
  ) {
    super(message);
  }
}

/**
 * A todo plan asked to run again after it ended (gollem's ErrPlanAlreadyExecuted), or while an
 * `execute()` or `step()` of it is still running. `state` is the plan's state at the call.
 */
export class PlanAlreadyExecutedError extends PlanError {
  override name = 'PlanAlreadyExecutedError';
  constructor(
    readonly state: 'running' | 'completed' | 'failed' | 'max_iterations',
    message = state === 'running'
      ? 'the todo plan is running already: wait for the execute() or step() in progress to end'
      : `the todo plan has already been executed (it ended ${state}); make a new one with planTodos()`,
  ) {
    super(message);
  }
}

/** What is missing, for {@link MissingDependencyError}. */
export interface MissingDependencyErrorOptions {
  /** The npm package that is not installed: `openai`, `bullmq`, ... */
  readonly packageName: string;
  /** What needs it, as the user would say it: `plan agent --model openai:gpt-4o`. */
  readonly feature: string;
  /** The version range to install, pinned to the one planmode is tested with. */
  readonly version: string;
  /** The import failure. */
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

/** Redis could not be reached: the one error a dispatcher or worker gives before it starts. */
export class RedisConnectionError extends PlanError {
  override name = 'RedisConnectionError';
  readonly code = 'REDIS_UNREACHABLE';
  constructor(
    /** The URL, password hidden. */
    readonly url: string,
    options: { readonly cause: unknown },
  ) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`cannot connect to Redis at ${url}: ${reason || 'no answer'}`, { cause: options.cause });
  }
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
  constructor(error: CallError, options: { readonly call: string; readonly job: string }) {
    super(error.message);
    this.code = error.code;
    this.call = options.call;
    this.job = options.job;
  }
}

/** Where a journal went wrong, for {@link JournalError}. */
export interface JournalErrorOptions {
  /** The directory or file at fault. */
  readonly path: string;
  /**
   * The fs error, when there is one.
   * @default undefined
   */
  readonly cause?: unknown;
  /**
   * The 1-based line of the journal at fault, when one line is.
   * @default undefined
   */
  readonly line?: number;
  /**
   * The parts of the run the journal was not written for.
   * @default []
   */
  readonly differs?: readonly JournalPart[];
}

/**
 * A journal that cannot be opened, read, written or resumed from, or that another run is using
 * (its lock names the process). `path` is the file or directory at fault, `cause` the fs error,
 * `line` the line a resume refused, `differs` the parts of the run another run's journal was
 * written for; the message says what happened and how to fix it, on one line.
 */
export class JournalError extends PlanError {
  override name = 'JournalError';
  readonly path: string;
  readonly line: number | undefined;
  readonly differs: readonly JournalPart[];

  constructor(message: string, options: JournalErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.path = options.path;
    this.line = options.line;
    this.differs = options.differs ?? [];
  }
}

/** An MCP server that could not be started, or stopped speaking MCP. */
export class McpServerError extends PlanError {
  override name = 'McpServerError';
  /** The server's command line. */
  readonly server: string;
  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.server = server;
  }
}

/**
 * True for an error made by planmode, this copy or any other: it carries PlanError's brand.
 * False for everything else, whatever its name.
 */
export function isPlanError(value: unknown): value is PlanError {
  return isKind(value, PlanError, null);
}

/**
 * An error of this copy's `type`, or a branded error from another copy whose name is one of
 * `names` (any name, for null). Never throws: a revoked proxy or a throwing getter is simply
 * not a planmode error.
 */
function isKind<T extends PlanError>(
  value: unknown,
  type: abstract new (...args: never[]) => T,
  names: readonly string[] | null,
): value is T {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  try {
    if (value instanceof type) return true;
    const { name } = value as { name?: unknown };
    return (
      (value as { [PLAN_ERROR_BRAND]?: unknown })[PLAN_ERROR_BRAND] === true &&
      typeof name === 'string' &&
      (names === null || names.includes(name))
    );
  } catch {
    return false;
  }
}

export function isPlanValidationError(value: unknown): value is PlanValidationError {
  return isKind(value, PlanValidationError, ['PlanValidationError']);
}

export function isToolDefinitionError(value: unknown): value is ToolDefinitionError {
  return isKind(value, ToolDefinitionError, ['ToolDefinitionError']);
}

export function isToolsFileError(value: unknown): value is ToolsFileError {
  return isKind(value, ToolsFileError, ['ToolsFileError']);
}

/** True for a ToolExecutionError, a ToolTimeoutError included. */
export function isToolExecutionError(value: unknown): value is ToolExecutionError {
  return isKind(value, ToolExecutionError, ['ToolExecutionError', 'ToolTimeoutError']);
}

export function isToolTimeoutError(value: unknown): value is ToolTimeoutError {
  return isKind(value, ToolTimeoutError, ['ToolTimeoutError']);
}

export function isRunCancelledError(value: unknown): value is RunCancelledError {
  return isKind(value, RunCancelledError, ['RunCancelledError']);
}

export function isModelProviderError(value: unknown): value is ModelProviderError {
  return isKind(value, ModelProviderError, ['ModelProviderError']);
}

export function isPermissionDeniedError(value: unknown): value is PermissionDeniedError {
  return isKind(value, PermissionDeniedError, ['PermissionDeniedError']);
}

export function isApprovalRejectedError(value: unknown): value is ApprovalRejectedError {
  return isKind(value, ApprovalRejectedError, ['ApprovalRejectedError']);
}

export function isPlanModeTransitionError(value: unknown): value is PlanModeTransitionError {
  return isKind(value, PlanModeTransitionError, ['PlanModeTransitionError']);
}

export function isPlanAlreadyExecutedError(value: unknown): value is PlanAlreadyExecutedError {
  return isKind(value, PlanAlreadyExecutedError, ['PlanAlreadyExecutedError']);
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

export function isJournalError(value: unknown): value is JournalError {
  return isKind(value, JournalError, ['JournalError']);
}

export function isMcpServerError(value: unknown): value is McpServerError {
  return isKind(value, McpServerError, ['McpServerError']);
}

function summarize(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0];
  if (!first) return 'the plan is invalid';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${first.line}:${first.column}: ${first.code}: ${first.message}${more}`;
}
