/**
 * Typed errors, ky-style: one base class, a `name` on each, and guards that check the name
 * too, so they work across copies of the package and across realms.
 */
import type { Diagnostic } from './language/diagnostics.js';

export class PlanError extends Error {
  override name = 'PlanError';
}

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

/** Where a tool call went wrong, for {@link ToolExecutionError}. */
export interface ToolExecutionErrorOptions {
  /** The id of the call. */
  readonly call: string;
  /** The tool it called. */
  readonly tool: string;
  /** A short machine-readable reason: TIMEOUT, INVALID_ARGUMENTS, INVALID_OUTPUT, NO_MODEL, ... */
  readonly code: string;
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
  readonly code: string;

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

export function isMissingDependencyError(value: unknown): value is MissingDependencyError {
  return isPlanError(value) && value.name === 'MissingDependencyError';
}

export function isPermissionDeniedError(value: unknown): value is PermissionDeniedError {
  return isPlanError(value) && value.name === 'PermissionDeniedError';
}

export function isApprovalRejectedError(value: unknown): value is ApprovalRejectedError {
  return isPlanError(value) && value.name === 'ApprovalRejectedError';
}

export function isPlanModeTransitionError(value: unknown): value is PlanModeTransitionError {
  return isPlanError(value) && value.name === 'PlanModeTransitionError';
}

export function isPlanAlreadyExecutedError(value: unknown): value is PlanAlreadyExecutedError {
  return isPlanError(value) && value.name === 'PlanAlreadyExecutedError';
}

export function isPlanError(value: unknown): value is PlanError {
  return (
    value instanceof PlanError ||
    (value instanceof Error &&
      /^(Plan|Tool|Permission|Approval|Journal|Run|ModelProvider)\w*Error$/.test(value.name))
  );
}

export function isToolExecutionError(value: unknown): value is ToolExecutionError {
  return isPlanError(value) && (value.name === 'ToolExecutionError' || value.name === 'ToolTimeoutError');
}

export function isToolTimeoutError(value: unknown): value is ToolTimeoutError {
  return isPlanError(value) && value.name === 'ToolTimeoutError';
}

export function isModelProviderError(value: unknown): value is ModelProviderError {
  return isPlanError(value) && value.name === 'ModelProviderError';
}

export function isRunCancelledError(value: unknown): value is RunCancelledError {
  return isPlanError(value) && value.name === 'RunCancelledError';
}

export function isPlanValidationError(value: unknown): value is PlanValidationError {
  return isPlanError(value) && value.name === 'PlanValidationError';
}

export function isToolDefinitionError(value: unknown): value is ToolDefinitionError {
  return isPlanError(value) && value.name === 'ToolDefinitionError';
}

export function isToolsFileError(value: unknown): value is ToolsFileError {
  return isPlanError(value) && value.name === 'ToolsFileError';
}

function summarize(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0];
  if (!first) return 'the plan is invalid';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${first.line}:${first.column}: ${first.code}: ${first.message}${more}`;
}
