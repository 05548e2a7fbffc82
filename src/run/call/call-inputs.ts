/**
 * What a running call is handed besides its arguments: its output paths as written (a tool's
 * `ctx.outputPaths`), and, when the run's calls go to workers, the whole RemoteCall.
 */
import type { CompiledCall } from '../../compile/types.js';
import type { JsonObject } from '../../language/document.js';
import type { Tool } from '../../tools/tool.js';
import type { CallRecord } from '../call-record.js';
import { retriesOf } from '../retry.js';
import { checkRemoteRetry } from './remote-retry.js';
import type { RunEventDraft } from '../run-event.js';
import type { RemoteCall, RunOptions } from '../types.js';

/** What a call's inputs are made from (the Runner is one). */
export interface CallInputHost {
  readonly calls: readonly CompiledCall[];
  readonly records: readonly CallRecord[];
  readonly options: RunOptions;
  readonly runId: string;
  /** Per call, its output paths as written, filled in as calls run. */
  readonly outputPathTexts: (readonly string[] | undefined)[];
  event(event: RunEventDraft): void;
}

/** What a remote invoker needs to run call i, and the hook that reports its retries. */
export function remoteCall(
  run: CallInputHost,
  i: number,
  tool: Tool,
  args: JsonObject,
  signal: AbortSignal,
): RemoteCall {
  const call = run.calls[i]!;
  const record = run.records[i]!;
  const retries = retriesOf(tool);
  return {
    runId: run.runId,
    call: call.id,
    tool: tool.name,
    definition: tool,
    args,
    outputPaths: outputPaths(run, i),
    signal,
    timeoutMs: tool.timeoutMs ?? run.options.timeoutMs ?? 0,
    retries,
    onRetry: (report) => {
      // A report that arrives late (the call ended, or a duplicate) changes nothing.
      if (record.status !== null) return undefined;
      const checked = checkRemoteRetry(report, { limit: retries.limit, attempts: record.attempts });
      if (checked === 'late') return undefined;
      if ('problem' in checked) return checked.problem;
      const { attempt, delayMs, error } = checked.retry;
      record.attempts = attempt + 1;
      run.event({ type: 'call:retry', call: call.id, tool: call.tool, attempt, delayMs, error });
      run.event({ type: 'call:start', call: call.id, tool: call.tool, attempt: attempt + 1, args });
      return undefined;
    },
  };
}

/** A call's output paths as written, made once per call (tools get them in their context). */
export function outputPaths(run: CallInputHost, i: number): readonly string[] {
  let paths = run.outputPathTexts[i];
  if (paths === undefined) {
    const output = run.calls[i]!.outputPath;
    paths = output ? output.refs.map((r) => r.text) : NO_PATHS;
    run.outputPathTexts[i] = paths;
  }
  return paths;
}

const NO_PATHS: readonly string[] = [];
