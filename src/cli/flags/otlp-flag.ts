/**
 * `plan run --otlp <url>`: the run's spans sent as OTLP/HTTP (JSON) to a collector's traces
 * endpoint, flushed before the command exits. The OpenTelemetry packages are loaded only when
 * the flag is given; without them installed the flag is an input error naming the install.
 */
import { CliInputError } from '../cli-input-error.js';
import type { TracingOptions } from '../../run/index.js';

export interface OtlpFlags {
  /** An OTLP/HTTP traces endpoint, such as http://localhost:4318/v1/traces. @default none: no spans are sent */
  otlp?: string;
}

const PACKAGES =
  '@opentelemetry/api@1.9.0 @opentelemetry/sdk-trace-base@2.5.1 @opentelemetry/exporter-trace-otlp-http@0.212.0';

/** The run's tracing option, and `close`, which sends what is left and stops the exporter. */
export interface OtlpExport {
  readonly tracing: TracingOptions;
  close(): Promise<void>;
}

/** The export `--otlp` asks for, or null without the flag. */
export async function otlpExport(flags: OtlpFlags): Promise<OtlpExport | null> {
  return flags.otlp === undefined ? null : openOtlpExport(flags.otlp);
}

/**
 * @throws {CliInputError} (exit 2) for a URL that is not http(s), or without the packages.
 */
export async function openOtlpExport(url: string): Promise<OtlpExport> {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // said below
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new CliInputError(
      `--otlp must be the http(s) URL of an OTLP/HTTP traces endpoint, such as http://localhost:4318/v1/traces, not '${url}'`,
    );
  let sdk: typeof import('@opentelemetry/sdk-trace-base');
  let exporters: typeof import('@opentelemetry/exporter-trace-otlp-http');
  try {
    [sdk, exporters] = await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
    ]);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new CliInputError(`--otlp needs the OpenTelemetry packages: npm install ${PACKAGES}`);
  }
  const exporter = new exporters.OTLPTraceExporter({ url: parsed.href });
  const provider = new sdk.BasicTracerProvider({ spanProcessors: [new sdk.BatchSpanProcessor(exporter)] });
  return {
    tracing: { tracerProvider: provider },
    async close() {
      await provider.forceFlush();
      await provider.shutdown();
    },
  };
}
