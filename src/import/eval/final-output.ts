/**
 * A plan's final output, from a run against mock tools: the outputs of its sink calls (the calls
 * whose output no call reads), each as canonical JSON, sorted, so that two plans that reach the
 * same answers by calls in another order or under other labels have equal final outputs. A call
 * of NESTFUL's `var_result` tool (which gathers the answer from the calls before it) gives its
 * resolved argument values instead, their names dropped: the answer it gathers, not its own
 * (null) output.
 */
import type { CompiledPlan } from '../../compile/index.js';
import type { Limits } from '../../language/limits.js';
import { canonicalJson } from '../../run/journal/index.js';
import { run } from '../../run/index.js';
import type { Tool } from '../../tools/index.js';

/** The tool whose calls give their arguments' values as the answer. */
export const RESULT_TOOL = 'var_result';

export type FinalOutput =
  { readonly ok: true; readonly output: readonly string[] } | { readonly ok: false; readonly error: string };

/** Runs `plan` (approving a lazy plan), bounded by `timeoutMs`, and returns its final output. */
export async function finalOutput(
  plan: CompiledPlan,
  tools: readonly Tool[],
  options: { readonly timeoutMs: number; readonly limits: Limits },
): Promise<FinalOutput> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let result;
  try {
    result = await run(plan, {
      tools,
      approve: () => true,
      signal,
      timeoutMs: options.timeoutMs,
      limits: options.limits,
    });
  } catch (error) {
    return { ok: false, error: `the run threw: ${error instanceof Error ? error.message : String(error)}` };
  }
  const failed = result.calls.find((call) => call.status !== 'succeeded' && call.status !== 'skipped');
  if (failed || result.status !== 'succeeded') {
    const why = failed
      ? `call ${failed.id} (${failed.tool}) ended ${failed.status}${failed.error ? `: ${failed.error.message}` : ''}`
      : `the run ended ${result.status}`;
    return {
      ok: false,
      error: signal.aborted ? `the run took longer than ${options.timeoutMs} ms; ${why}` : why,
    };
  }
  const read = new Uint8Array(plan.calls.length);
  for (const call of plan.calls)
    for (const dependency of call.dependencies) if (dependency.kind === 'data') read[dependency.from] = 1;
  const output: string[] = [];
  for (let i = 0; i < plan.calls.length; i++) {
    const report = result.calls[i]!;
    if (read[i] || report.status !== 'succeeded') continue;
    if (report.tool === RESULT_TOOL)
      for (const value of Object.values(report.args ?? {})) output.push(canonicalJson(value));
    else output.push(canonicalJson(report.output ?? null));
  }
  return { ok: true, output: output.sort() };
}
