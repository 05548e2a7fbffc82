/**
 * One attempt of a tool in a worker, as the executor makes it locally: the tool's `abortSignal`
 * fires on timeout (`ToolTimeoutError`, code TIMEOUT) or cancellation, and a result that comes
 * after either is discarded.
 */
import { RunCancelledError, ToolTimeoutError } from '../errors.js';
import type { JsonObject } from '../language/document.js';
import { contractError } from '../run/call/index.js';
import type { Tool } from '../tools/index.js';

export interface AttemptOptions {
  readonly tool: Tool;
  readonly args: JsonObject;
  /** The call's id in the plan (for the timeout error). */
  readonly call: string;
  /** What the tool sees as `ctx.toolCallId`: the job id, its idempotency key. */
  readonly toolCallId: string;
  readonly outputPaths: readonly string[];
  readonly context: unknown;
  /** 0 means none. */
  readonly timeoutMs: number;
  /** BullMQ's cancellation of the job (the run was aborted). */
  readonly signal: AbortSignal | undefined;
}

export async function attemptTool(options: AttemptOptions): Promise<unknown> {
  const { tool, timeoutMs, signal } = options;
  const controller = new AbortController();
  // The worker's own timeout and cancellation are contract errors, never the tool's.
  const cancel = () => controller.abort(contractError(new RunCancelledError()));
  if (signal?.aborted) cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  const timer =
    timeoutMs > 0
      ? setTimeout(
          () =>
            controller.abort(
              contractError(new ToolTimeoutError(timeoutMs, { call: options.call, tool: tool.name })),
            ),
          timeoutMs,
        )
      : undefined;
  try {
    if (controller.signal.aborted) throw controller.signal.reason;
    const pending = Promise.resolve(
      tool.execute!(options.args, {
        toolCallId: options.toolCallId,
        abortSignal: controller.signal,
        outputPaths: options.outputPaths,
        context: options.context,
      }),
    );
    return await new Promise<unknown>((resolve, reject) => {
      const onAbort = () => reject(controller.signal.reason);
      if (controller.signal.aborted) return onAbort();
      controller.signal.addEventListener('abort', onAbort, { once: true });
      pending.then(resolve, reject).finally(() => controller.signal.removeEventListener('abort', onAbort));
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
}
