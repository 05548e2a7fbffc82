/** A call that failed in a worker (after BullMQ's attempts): its error as the worker sent it. */
import { PlanError } from '../errors.js';
import type { CallError } from '../run/index.js';

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

export function isRemoteCallError(value: unknown): value is RemoteCallError {
  return value instanceof RemoteCallError || (value as Error | null)?.name === 'RemoteCallError';
}
