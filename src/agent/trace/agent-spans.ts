/**
 * An agent invocation's OpenTelemetry spans, after the GenAI semantic conventions: an
 * `invoke_agent PlanAgent` span (kind INTERNAL) for the whole plan(), execute() or solve() (or
 * `invoke_agent TodoPlan` for planTodos(), a todo plan's execute() or step()), and
 * under it a `chat {model}` span (kind CLIENT) per model turn, made by wrapping the agent's
 * provider, so that every place that asks the model (a solution, a repair, a latent answer, a
 * conversation turn) gets one. The runs the invocation starts take its span as their parent
 * (spanParentOf), so a trace shows agent, turn, the run of the plan it wrote, the next turn.
 * Loaded only when the invocation traces: this file imports `@opentelemetry/api`.
 */
import type * as OpenTelemetry from '@opentelemetry/api';
import type { Context, Span, Tracer } from '@opentelemetry/api';
import { spanParentOf } from '../../run/trace/open-trace.js';
import type { TracingOptions } from '../../run/trace/tracing-options.js';
import type { AssistantTurn, ModelProvider, ModelRequest, ModelStreamEvent } from '../model.js';
import type { InvocationInfo, TracedInvocation } from './invocation.js';
import { errorType, finishReason, inputMessages, modelOf, outputMessages } from './turn-attributes.js';

export class AgentSpans {
  readonly #api: typeof OpenTelemetry;
  readonly #tracer: Tracer;
  readonly #tracing: TracingOptions;
  readonly #info: InvocationInfo;
  readonly #span: Span;
  readonly #context: Context;
  readonly #model: { provider: string; model: string };
  #inputTokens = 0;
  #outputTokens = 0;
  #turns = 0;

  constructor(api: typeof OpenTelemetry, tracing: TracingOptions, info: InvocationInfo) {
    this.#api = api;
    this.#tracing = tracing;
    this.#info = info;
    const provider = tracing.tracerProvider ?? api.trace.getTracerProvider();
    this.#tracer = provider.getTracer('planmode') as Tracer;
    this.#model = modelOf(info.provider.name);
    this.#span = this.#tracer.startSpan(
      `invoke_agent ${info.agent}`,
      {
        kind: api.SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': info.agent,
          'gen_ai.provider.name': this.#model.provider,
          'gen_ai.request.model': this.#model.model,
          'planmode.agent.phase': info.phase,
        },
      },
      api.context.active(),
    );
    this.#context = api.trace.setSpan(api.context.active(), this.#span);
  }

  /** Runs `body` with the agent's span active (for spans a context manager carries, a tool's own). */
  within<T>(body: () => Promise<T>): Promise<T> {
    return this.#api.context.with(this.#context, body);
  }

  /** The traced model, and the options that put each run under the agent's span. */
  invocation(): TracedInvocation {
    // The agent's own tracing option, so its runs trace to the same provider, recording the same.
    const runOptions = { tracing: this.#tracing, ...spanParentOf(this.#context) };
    return { provider: this.#traced(this.#info.provider), runOptions };
  }

  /** Ends the agent's span: how it ended (`status`), or the error it threw. Never throws. */
  end(status: string | undefined, error: unknown): void {
    try {
      const span = this.#span;
      span.setAttributes({
        'planmode.agent.turns': this.#turns,
        'gen_ai.usage.input_tokens': this.#inputTokens,
        'gen_ai.usage.output_tokens': this.#outputTokens,
      });
      if (status !== undefined) span.setAttribute('planmode.agent.status', status);
      else this.#failed(span, error);
      span.end();
    } catch {
      // Spans are best effort; the agent's result stands.
    }
  }

  /** The provider with a `chat` span around each turn it streams. */
  #traced(inner: ModelProvider): ModelProvider {
    const stream = (request: ModelRequest) => this.#turn(inner, request);
    return {
      name: inner.name,
      stream,
      ...(inner.strictSchemas !== undefined && { strictSchemas: inner.strictSchemas }),
      ...(inner.schemaFormat !== undefined && { schemaFormat: inner.schemaFormat }),
    };
  }

  async *#turn(inner: ModelProvider, request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const { provider, model } = this.#model;
    this.#turns++;
    const span = this.#tracer.startSpan(
      `chat ${model}`,
      {
        kind: this.#api.SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': provider,
          'gen_ai.request.model': model,
          'gen_ai.output.type': request.responseFormat ? 'json' : 'text',
          'planmode.agent.turn': this.#turns,
        },
      },
      this.#context,
    );
    let turn: AssistantTurn | undefined;
    let failure: { error: unknown } | undefined;
    try {
      if (this.#tracing.recordArguments === true)
        span.setAttribute('gen_ai.input.messages', JSON.stringify(inputMessages(request.messages)));
      for await (const event of inner.stream(request)) {
        if (event.type === 'done') turn = event.turn;
        yield event;
      }
    } catch (error) {
      failure = { error };
      throw error;
    } finally {
      this.#endTurn(span, turn, failure);
    }
  }

  #endTurn(span: Span, turn: AssistantTurn | undefined, failure: { error: unknown } | undefined): void {
    try {
      if (turn) {
        const { response, usage } = turn;
        if (response?.id !== undefined) span.setAttribute('gen_ai.response.id', response.id);
        if (response?.model !== undefined) span.setAttribute('gen_ai.response.model', response.model);
        span.setAttribute('gen_ai.response.finish_reasons', [finishReason(turn)]);
        if (usage) {
          span.setAttributes({
            'gen_ai.usage.input_tokens': usage.inputTokens,
            'gen_ai.usage.output_tokens': usage.outputTokens,
          });
          this.#inputTokens += usage.inputTokens;
          this.#outputTokens += usage.outputTokens;
        }
        if (this.#tracing.recordResults === true)
          span.setAttribute('gen_ai.output.messages', JSON.stringify(outputMessages(turn)));
      }
      if (failure) this.#failed(span, failure.error);
      else if (!turn) {
        // The reader left before the reply ended: a reply bound, a tool answer that failed, a cancel.
        span.setAttribute('error.type', 'incomplete');
        span.setStatus({
          code: this.#api.SpanStatusCode.ERROR,
          message: 'the reply was not read to its end',
        });
      }
      span.end();
    } catch {
      // Spans are best effort; the turn's own outcome stands.
    }
  }

  /** Marks a span failed as the conventions say: ERROR status, `error.type`, the message. */
  #failed(span: Span, error: unknown): void {
    span.setAttribute('error.type', errorType(error));
    span.setStatus({
      code: this.#api.SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}
