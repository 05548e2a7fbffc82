/**
 * Errors of the agent layer: a model request that failed, a plan-mode latch or a todo plan asked
 * for what its state does not allow.
 */
import { isKind, PlanError } from './base.js';

/** Where a model request went wrong, for {@link ModelProviderError}. */
export interface ModelProviderErrorOptions {
  /** The provider's name (`openai:gpt-4o`, ...). */
  readonly provider: string;
  /**
   * The HTTP status of the API's answer, when there was one.
   * @default undefined
   */
  readonly status?: number;
  /**
   * The error underneath (a network failure, the SDK's error).
   * @default undefined
   */
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
    readonly state: 'running' | 'completed' | 'failed' | 'max_iterations' | 'ended',
    message = state === 'running'
      ? 'the todo plan is running already: wait for the execute() or step() in progress to end'
      : `the todo plan has already been executed (it ended ${state}); make a new one with planTodos()`,
  ) {
    super(message);
  }
}

export function isModelProviderError(value: unknown): value is ModelProviderError {
  return isKind(value, ModelProviderError, ['ModelProviderError']);
}

export function isPlanModeTransitionError(value: unknown): value is PlanModeTransitionError {
  return isKind(value, PlanModeTransitionError, ['PlanModeTransitionError']);
}

export function isPlanAlreadyExecutedError(value: unknown): value is PlanAlreadyExecutedError {
  return isKind(value, PlanAlreadyExecutedError, ['PlanAlreadyExecutedError']);
}
