/** A real OpenTelemetry SDK tracer provider whose finished spans the test reads. */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export function memoryProvider(): { provider: BasicTracerProvider; spans: () => ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { provider, spans: () => exporter.getFinishedSpans() };
}

/** The span's parent, among `spans`, or undefined for a root. */
export function parentOf(span: ReadableSpan, spans: readonly ReadableSpan[]): ReadableSpan | undefined {
  const parentId = span.parentSpanContext?.spanId;
  return spans.find((s) => s.spanContext().spanId === parentId);
}

export function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((s) => s.name === name);
}

/** The one span whose gen_ai.tool.call.id is `id`. */
export function callSpan(spans: readonly ReadableSpan[], id: string): ReadableSpan {
  const found = spans.filter((s) => s.attributes['gen_ai.tool.call.id'] === id);
  if (found.length !== 1) throw new Error(`expected one span for call ${id}, found ${found.length}`);
  return found[0]!;
}
