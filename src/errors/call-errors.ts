/**
 * Errors that end a tool call: planmode's own reasons (with their codes), a timeout, a cancelled
 * run.
 */
import { isKind, PlanError } from './base.js';

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

/** What a ToolTimeoutError names: the call and tool (its code is always TIMEOUT). */
export type ToolTimeoutErrorOptions = Omit<ToolExecutionErrorOptions, 'code'>;

/** An attempt that ran past its timeout: the reason its tool's AbortSignal was aborted with. */
export class ToolTimeoutError extends ToolExecutionError {
  override name = 'ToolTimeoutError';
  constructor(
    readonly timeoutMs: number,
    options: ToolTimeoutErrorOptions,
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

/** What a WorkflowCallError carries (see its fields). */
export interface WorkflowCallErrorOptions {
  /** The workflow (the tool) whose plan failed. */
  readonly workflow: string;
  /** The id of the first call inside that failed. @default undefined */
  readonly innerCall?: string;
  /** Its tool. @default undefined */
  readonly innerTool?: string;
  /** The inner call's error code, or NO_OUTPUT. @default undefined */
  readonly code?: string;
}

/**
 * Why a workflow call failed: a call inside its plan failed (its id, tool and error code are
 * here), or its output had no value once the plan ran (`code` NO_OUTPUT). Thrown by the
 * workflow's execute, so it is the tool's own error: a declared error alternative receives it.
 * Two are planmode's own, never handled: `code` REJECTED (a call inside was turned down at its
 * approval: the workflow call ends `rejected`) and INVALID_PLAN (the plan cannot run as the run
 * asks: a compile warning under `strict`).
 */
export class WorkflowCallError extends PlanError {
  override name = 'WorkflowCallError';
  /** The workflow (the tool) whose plan failed. */
  readonly workflow: string;
  /** The id of the first call inside that failed, when one did. */
  readonly innerCall: string | undefined;
  /** Its tool, when a call inside failed. */
  readonly innerTool: string | undefined;
  /** The inner call's error code, NO_OUTPUT, REJECTED or INVALID_PLAN; undefined when there is none. */
  readonly code: string | undefined;

  constructor(message: string, options: WorkflowCallErrorOptions) {
    super(message);
    this.workflow = options.workflow;
    this.innerCall = options.innerCall;
    this.innerTool = options.innerTool;
    this.code = options.code;
  }
}

export function isWorkflowCallError(value: unknown): value is WorkflowCallError {
  return isKind(value, WorkflowCallError, ['WorkflowCallError']);
}
