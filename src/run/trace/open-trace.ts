/**
 * Whether a run traces, and its RunTrace once `@opentelemetry/api` is loaded. A run that does
 * not trace reads one option and one global here, and loads nothing.
 *
 * A workflow's sub-run traces when the run it is called from does, with the same tracer and
 * options, its run span a child of the workflow call's span: sub-run.ts marks the sub-run's
 * options with the call (traceParentOf), and the calling run's trace is found by the
 * ToolContext.run object it gave the call (one per run).
 */
import type { Tracer } from '@opentelemetry/api';
import type { CompiledCall } from '../../compile/types.js';
import { importOptional } from '../../optional-dependencies.js';
import type { ToolContext } from '../../tools/tool.js';
import type { RunOptions } from '../types.js';
import type { RunTrace } from './run-trace.js';
import { type TracingOptions, wantsTracing } from './tracing-options.js';

const TRACE_PARENT: unique symbol = Symbol('planmode.traceParent');
const SPAN_PARENT: unique symbol = Symbol('planmode.spanParent');

/** The workflow call a sub-run runs for. */
interface TraceParent {
  readonly context: ToolContext;
  readonly workflow: string;
}

/** Each tracing run's trace, by the ToolContext.run object its calls get. */
const traces = new WeakMap<object, { trace: RunTrace; settings: TraceSettings }>();

interface TraceSettings {
  readonly tracer: unknown;
  readonly recordArguments: boolean;
  readonly recordResults: boolean;
}

/** What a tracing run needs to open its trace; null when the run does not trace. */
export interface TraceSetup {
  readonly options: RunOptions;
  readonly parent: TraceParent | null;
  readonly above: { trace: RunTrace; settings: TraceSettings } | null;
}

/** For a sub-run's options (sub-run.ts): the workflow call it runs for. */
export function traceParentOf(context: ToolContext, workflow: string): { [TRACE_PARENT]: TraceParent } {
  return { [TRACE_PARENT]: { context, workflow } };
}

/**
 * For the options of a run an agent starts (agent/trace/): the OpenTelemetry `Context` of the
 * agent's span, which the run span starts in instead of the active context, so that the run
 * nests under the agent whether or not a context manager carries the context across awaits.
 */
export function spanParentOf(context: unknown): { [SPAN_PARENT]: unknown } {
  return { [SPAN_PARENT]: context };
}

/** Null (nothing to load, nothing to do per call) unless the run traces. */
export function tracingFor(options: RunOptions): TraceSetup | null {
  const parent = (options as { [TRACE_PARENT]?: TraceParent })[TRACE_PARENT];
  if (parent !== undefined) {
    const run = parent.context.run;
    const above = run === undefined ? undefined : traces.get(run);
    return above === undefined ? null : { options, parent, above };
  }
  if (!wantsTracing(options.tracing)) return null;
  return { options, parent: null, above: null };
}

/**
 * Loads `@opentelemetry/api` and the trace, and registers it under `asParent` for the run's
 * workflow calls.
 * @throws {MissingDependencyError} when `tracing.tracerProvider` is given without the package.
 */
export async function openTrace(
  setup: TraceSetup,
  asParent: object,
  calls: () => readonly CompiledCall[],
): Promise<RunTrace> {
  const api = await importOptional('@opentelemetry/api', 'tracing', () => import('@opentelemetry/api'));
  const { RunTrace } = await import('./run-trace.js');
  const { parent, above } = setup;
  const settings = above?.settings ?? ownSettings(setup.options.tracing || {}, api);
  const given = (setup.options as { [SPAN_PARENT]?: unknown })[SPAN_PARENT] as
    ReturnType<typeof api.context.active> | undefined;
  const context =
    parent === null || above === null
      ? (given ?? api.context.active())
      : above.trace.spanContextFor(parent.context.toolCallId, parent.context.element);
  const trace = new RunTrace({
    tracer: settings.tracer as Tracer,
    parent: context,
    calls,
    workflow: parent?.workflow ?? null,
    recordArguments: settings.recordArguments,
    recordResults: settings.recordResults,
  });
  traces.set(asParent, { trace, settings });
  return trace;
}

function ownSettings(tracing: TracingOptions, api: typeof import('@opentelemetry/api')): TraceSettings {
  const provider = tracing.tracerProvider ?? api.trace.getTracerProvider();
  return {
    tracer: provider.getTracer('planmode'),
    recordArguments: tracing.recordArguments === true,
    recordResults: tracing.recordResults === true,
  };
}
