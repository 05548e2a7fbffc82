/**
 * A run's OpenTelemetry spans, made from its events: a span for the run, one per call
 * (`execute_tool <tool>`, the GenAI semantic conventions' tool execution span), one per attempt
 * and per `_forEach` element under it, with links from each call to the calls it waited on.
 * Loaded only when the run traces (see open-trace.ts): this file imports `@opentelemetry/api`.
 *
 * Events of a workflow's sub-run (they carry `parent`) are left to the sub-run's own trace,
 * whose run span is a child of the workflow call's span (see spanContextFor).
 */
import {
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace as traceApi,
} from '@opentelemetry/api';
import type { CompiledCall } from '../../compile/types.js';
import type { CallError, RunEvent } from '../types.js';

export interface RunTraceOptions {
  readonly tracer: Tracer;
  /** The context the run span starts in: the workflow call's span for a sub-run. */
  readonly parent: Context;
  /** The run's calls as they are now (a streamed plan's grow). */
  readonly calls: () => readonly CompiledCall[];
  /** The workflow a sub-run runs, or null for a run the caller started. */
  readonly workflow: string | null;
  readonly recordArguments: boolean;
  readonly recordResults: boolean;
}

interface OpenCall {
  readonly span: Span;
  readonly context: Context;
  attempt: Span | null;
  attemptContext: Context | null;
}

export class RunTrace {
  readonly #options: RunTraceOptions;
  #run: Span | null = null;
  #runContext: Context;
  readonly #open = new Map<string, OpenCall>();
  /** Element spans opened early: by a workflow element's sub-run, keyed `id[k]`. */
  readonly #elements = new Map<string, { span: Span; context: Context }>();
  /** The span of each call that has ended, for the links of the calls that waited on it. */
  readonly #ended = new Map<string, SpanContext>();
  readonly #index = new Map<string, number>();

  constructor(options: RunTraceOptions) {
    this.#options = options;
    this.#runContext = options.parent;
  }

  /** Never throws: a trace's fault is not the run's. */
  onEvent(event: RunEvent): void {
    if ((event as { parent?: unknown }).parent !== undefined) return;
    try {
      this.#handle(event);
    } catch {
      // Spans are best effort; the run goes on.
    }
  }

  /**
   * The context a workflow call's sub-run starts its span in: the element's span for an element
   * of a `_forEach` call (opened now if it is not yet), else the call's attempt span.
   */
  spanContextFor(toolCallId: string, element: number | undefined): Context {
    if (element === undefined) {
      const open = this.#open.get(toolCallId);
      return open?.attemptContext ?? open?.context ?? this.#runContext;
    }
    // An element's toolCallId is its call's id with `[k]` after it (see for-each.ts).
    const suffix = `[${element}]`;
    const callId = toolCallId.endsWith(suffix) ? toolCallId.slice(0, -suffix.length) : toolCallId;
    return this.#element(callId, element, null).context;
  }

  #handle(event: RunEvent): void {
    const { tracer } = this.#options;
    switch (event.type) {
      case 'run:start': {
        const { workflow } = this.#options;
        const attributes: Attributes = {
          'planmode.run.id': event.runId,
          'planmode.run.mode': event.mode,
          'planmode.run.calls': event.calls,
        };
        if (workflow !== null) attributes['planmode.workflow'] = workflow;
        const name = workflow === null ? 'run plan' : `run workflow ${workflow}`;
        this.#run = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, this.#options.parent);
        this.#runContext = traceApi.setSpan(this.#options.parent, this.#run);
        return;
      }
      case 'call:ready':
        this.#call(event.call, event.tool);
        return;
      case 'call:start': {
        const open = this.#call(event.call, event.tool);
        open.attempt?.end();
        open.attempt = tracer.startSpan(
          `attempt ${event.attempt}`,
          { kind: SpanKind.INTERNAL, attributes: { 'planmode.attempt': event.attempt } },
          open.context,
        );
        open.attemptContext = traceApi.setSpan(open.context, open.attempt);
        if (event.attempt === 1 && this.#options.recordArguments)
          open.span.setAttribute('gen_ai.tool.call.arguments', JSON.stringify(event.args));
        return;
      }
      case 'call:retry': {
        const open = this.#open.get(event.call);
        if (!open?.attempt) return;
        failed(open.attempt, event.error);
        open.attempt.end();
        open.attempt = null;
        open.attemptContext = null;
        return;
      }
      case 'call:element': {
        const key = `${event.call}[${event.index}]`;
        const durationMs = (event as { durationMs?: number }).durationMs;
        const startTime = durationMs === undefined ? undefined : Date.now() - durationMs;
        const { span } = this.#elements.get(key) ?? this.#element(event.call, event.index, startTime ?? null);
        this.#elements.delete(key);
        span.setAttribute('planmode.element.status', event.status);
        if (event.status === 'failed' && event.error) failed(span, event.error);
        span.end();
        return;
      }
      case 'call:end': {
        const open = this.#open.get(event.call) ?? this.#call(event.call, event.tool);
        this.#open.delete(event.call);
        const { span } = open;
        span.setAttributes({
          'planmode.call.status': event.status,
          'planmode.call.attempts': event.attempts,
        });
        if (event.branch !== null) span.setAttribute('planmode.call.branch', event.branch);
        if (event.status === 'failed' && event.error) {
          if (open.attempt) failed(open.attempt, event.error);
          failed(span, event.error);
          if (event.handled) span.setAttribute('planmode.call.handled', true);
        }
        if (event.output !== undefined && this.#options.recordResults)
          span.setAttribute('gen_ai.tool.call.result', JSON.stringify(event.output));
        open.attempt?.end();
        span.end();
        this.#ended.set(event.call, span.spanContext());
        return;
      }
      case 'run:end': {
        const run = this.#run;
        if (!run) return;
        run.setAttribute('planmode.run.status', event.status);
        if (event.status === 'failed') {
          run.setAttribute('error.type', 'failed');
          run.setStatus({ code: SpanStatusCode.ERROR, message: 'a call failed' });
        }
        run.end();
        return;
      }
      default:
        return;
    }
  }

  /** The call's span, opened on first sight, with links to the calls it waited on. */
  #call(id: string, tool: string): OpenCall {
    const found = this.#open.get(id);
    if (found) return found;
    const span = this.#options.tracer.startSpan(
      `execute_tool ${tool}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: toolAttributes(tool, id),
        links: this.#linksOf(id),
      },
      this.#runContext,
    );
    const open: OpenCall = {
      span,
      context: traceApi.setSpan(this.#runContext, span),
      attempt: null,
      attemptContext: null,
    };
    this.#open.set(id, open);
    return open;
  }

  #element(callId: string, index: number, startTime: number | null): { span: Span; context: Context } {
    const key = `${callId}[${index}]`;
    const found = this.#elements.get(key);
    if (found) return found;
    const open = this.#open.get(callId);
    const parent = open?.attemptContext ?? open?.context ?? this.#runContext;
    const tool = this.#toolOf(callId);
    const span = this.#options.tracer.startSpan(
      `execute_tool ${tool}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: { ...toolAttributes(tool, key), 'planmode.element.index': index },
        ...(startTime !== null && { startTime }),
      },
      parent,
    );
    const element = { span, context: traceApi.setSpan(parent, span) };
    this.#elements.set(key, element);
    return element;
  }

  /** Links to the spans of the calls `id` depends on in the compiled plan (each once). */
  #linksOf(id: string): Link[] {
    const call = this.#compiled(id);
    if (!call || call.dependencies.length === 0) return [];
    const calls = this.#options.calls();
    const links: Link[] = [];
    const seen = new Set<number>();
    for (const dependency of call.dependencies) {
      if (seen.has(dependency.from)) continue;
      seen.add(dependency.from);
      const from = calls[dependency.from];
      const context = from && this.#ended.get(from.id);
      if (!context) continue;
      links.push({
        context,
        attributes: { 'planmode.dependency.call': from.id, 'planmode.dependency.kind': dependency.kind },
      });
    }
    return links;
  }

  #compiled(id: string): CompiledCall | undefined {
    const calls = this.#options.calls();
    if (this.#index.size !== calls.length) {
      this.#index.clear();
      for (let i = 0; i < calls.length; i++) this.#index.set(calls[i]!.id, i);
    }
    const i = this.#index.get(id);
    return i === undefined ? undefined : calls[i];
  }

  #toolOf(id: string): string {
    return this.#compiled(id)?.tool ?? 'unknown';
  }
}

/** Marks a span failed as the conventions say: ERROR status, `error.type`, the message. */
function failed(span: Span, error: CallError): void {
  span.setAttribute('error.type', error.code ?? '_OTHER');
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

/** The GenAI semantic conventions' attributes of an `execute_tool` span. */
function toolAttributes(tool: string, callId: string): Record<string, string> {
  return {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'gen_ai.tool.call.id': callId,
    'gen_ai.tool.type': 'function',
  };
}
