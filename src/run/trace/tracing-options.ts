/**
 * The `tracing` run option, and whether a run traces at all. Nothing here loads
 * `@opentelemetry/api` (an optional peer): a run that does not trace never imports it, and the
 * check below is one property read per run, never per call.
 */
import { describeValue } from '../../language/describe-value.js';

/**
 * Where a run's OpenTelemetry spans go and what they carry (see docs/observability.md). Typed
 * structurally, so that planmode's types never import `@opentelemetry/api`'s.
 */
export interface TracingOptions {
  /**
   * An OpenTelemetry `TracerProvider` (anything with `getTracer(name, version)`).
   * @default the global tracer provider registered with `@opentelemetry/api`
   */
  readonly tracerProvider?: { getTracer(name: string, version?: string): unknown };
  /**
   * Records each call's arguments as `gen_ai.tool.call.arguments` (JSON text). Arguments may
   * hold secrets: they are not recorded unless this is true.
   * @default false
   */
  readonly recordArguments?: boolean;
  /**
   * Records each call's result as `gen_ai.tool.call.result` (JSON text). Off for the same reason.
   * @default false
   */
  readonly recordResults?: boolean;
}

/** Where `@opentelemetry/api` 1.x keeps its globals (the tracer provider once one is registered). */
const OTEL_GLOBALS = Symbol.for('opentelemetry.js.api.1');

/**
 * True when a run with this option traces: an explicit provider, or (unless `false`) a global
 * tracer provider registered with `@opentelemetry/api`, read from its globals without loading it.
 */
export function wantsTracing(tracing: TracingOptions | false | undefined): boolean {
  if (tracing === false) return false;
  if (tracing?.tracerProvider !== undefined) return true;
  const globals = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[OTEL_GLOBALS];
  return globals?.trace !== undefined;
}

/** @throws {TypeError} naming the bad field of the `tracing` option. */
export function checkTracingOptions(tracing: unknown): void {
  if (tracing === undefined || tracing === false) return;
  if (tracing === null || typeof tracing !== 'object' || Array.isArray(tracing)) {
    throw new TypeError(
      `Expected tracing to be false or an object { tracerProvider?, recordArguments?, recordResults? }, got ${describeValue(tracing)}`,
    );
  }
  const known = new Set(['tracerProvider', 'recordArguments', 'recordResults']);
  for (const key of Object.keys(tracing)) {
    if (!known.has(key))
      throw new TypeError(
        `Unknown tracing option ${JSON.stringify(key)} (known: tracerProvider, recordArguments, recordResults)`,
      );
  }
  const { tracerProvider, recordArguments, recordResults } = tracing as Record<string, unknown>;
  if (
    tracerProvider !== undefined &&
    typeof (tracerProvider as { getTracer?: unknown } | null)?.getTracer !== 'function'
  ) {
    throw new TypeError(
      `Expected tracing.tracerProvider to be an OpenTelemetry TracerProvider (with getTracer), got ${describeValue(tracerProvider)}`,
    );
  }
  for (const [key, value] of [
    ['recordArguments', recordArguments],
    ['recordResults', recordResults],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean')
      throw new TypeError(`Expected tracing.${key} to be true or false, got ${describeValue(value)}`);
  }
}
