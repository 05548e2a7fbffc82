/**
 * Whether an agent's invocation traces, and the spans it makes when it does: an `invoke_agent`
 * span for the whole plan(), execute() or solve(), a `chat` span per model turn under it, and
 * the runs it starts under it too (see agent-spans.ts). The same opt-in as a run's (the
 * `tracing` option, else a global tracer provider): an agent that does not trace reads one
 * option and one global here, and loads nothing.
 */
import { importOptional } from '../../optional-dependencies.js';
import { type TracingOptions, wantsTracing } from '../../run/trace/tracing-options.js';
import type { InvocationInfo, TracedInvocation } from './invocation.js';

export type { InvocationInfo, TracedInvocation } from './invocation.js';

/**
 * Runs `body` inside an `invoke_agent` span when `tracing` says to trace; else runs it as it is,
 * with nothing loaded. `statusOf` names how an invocation that returned ended
 * (`planmode.agent.status`); one that throws marks the span failed.
 * @throws what `body` throws; {@link MissingDependencyError} when `tracing.tracerProvider` is
 *   given without `@opentelemetry/api` installed.
 */
export async function traceInvocation<T>(
  tracing: TracingOptions | false | undefined,
  info: InvocationInfo,
  body: (invocation: TracedInvocation) => Promise<T>,
  statusOf: (result: T) => string,
): Promise<T> {
  // Runs keep the agent's word: with tracing off, no run traces under a global provider either.
  const untraced = () =>
    body({ provider: info.provider, runOptions: tracing === false ? { tracing: false } : {} });
  if (!wantsTracing(tracing)) return untraced();
  const api = await importOptional('@opentelemetry/api', 'tracing', () => import('@opentelemetry/api'));
  const { AgentSpans } = await import('./agent-spans.js');
  let spans: InstanceType<typeof AgentSpans>;
  try {
    spans = new AgentSpans(api, tracing || {}, info);
  } catch {
    // Spans are best effort: a tracer provider that fails leaves the agent to run untraced.
    return untraced();
  }
  try {
    const result = await spans.within(() => body(spans.invocation()));
    spans.end(statusOf(result), undefined);
    return result;
  } catch (error) {
    spans.end(undefined, error);
    throw error;
  }
}
