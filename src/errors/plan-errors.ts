/**
 * Errors of what a run is given before anything runs: a plan that does not compile, a tool
 * definition or tools file that cannot be used.
 */
import type { Diagnostic } from '../language/diagnostics.js';
import { isKind, PlanError } from './base.js';

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
  /**
   * Index of the bad tool in the file's tools array, when one tool is at fault.
   * @default undefined
   */
  readonly index?: number;
  /**
   * Name of that tool, when it has one.
   * @default undefined
   */
  readonly tool?: string;
  /**
   * 1-based line of a JSON syntax error.
   * @default undefined
   */
  readonly line?: number;
  /**
   * 1-based column of a JSON syntax error.
   * @default undefined
   */
  readonly column?: number;
  /**
   * The error underneath (the read, the parse, the module's own throw).
   * @default undefined
   */
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

export function isPlanValidationError(value: unknown): value is PlanValidationError {
  return isKind(value, PlanValidationError, ['PlanValidationError']);
}

export function isToolDefinitionError(value: unknown): value is ToolDefinitionError {
  return isKind(value, ToolDefinitionError, ['ToolDefinitionError']);
}

export function isToolsFileError(value: unknown): value is ToolsFileError {
  return isKind(value, ToolsFileError, ['ToolsFileError']);
}

function summarize(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0];
  if (!first) return 'the plan is invalid';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${first.line}:${first.column}: ${first.code}: ${first.message}${more}`;
}

/** A call id the plan does not have (`explainCall`, `plan explain`); `suggestion` is the nearest id. */
export class UnknownCallError extends PlanError {
  override name = 'UnknownCallError';
  constructor(
    readonly callId: string,
    readonly suggestion?: string,
  ) {
    super(
      `the plan has no call '${clipId(callId)}'${suggestion !== undefined ? `; did you mean '${clipId(suggestion)}'?` : ''} (a call's id is its _id, or its 0-based index when it has none)`,
    );
  }
}

export function isUnknownCallError(value: unknown): value is UnknownCallError {
  return isKind(value, UnknownCallError, ['UnknownCallError']);
}

function clipId(id: string): string {
  return id.length <= 80 ? id : `${id.slice(0, 80)}…`;
}
