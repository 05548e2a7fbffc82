/**
 * End to end: spans sent by the real OTLP/HTTP exporter to a receiver this test starts on the
 * loopback interface, from the library (a provider the caller builds) and from `plan run --otlp`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type Tool } from '../../src/index.js';
import { planInProcess } from '../cli/in-process.js';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.js';

let receiver: OtlpReceiver;
let dir: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  dir = mkdtempSync(join(tmpdir(), 'planmode-otlp-'));
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const PLAN = [
  { _id: 'a', _tool: 'fetch', url: 'https://a', _outputPath: '†state.a' },
  { _id: 's', _tool: 'summarize', text: '†state.a', _outputPath: '†state.s' },
];

describe('OTLP/HTTP export to a loopback receiver', () => {
  it('delivers the run’s spans from the library, as OTLP JSON', async () => {
    receiver.spans.length = 0;
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.url }))],
    });
    const tools: Tool[] = [
      { name: 'fetch', execute: (args) => `page ${String(args.url)}` },
      { name: 'summarize', execute: (args) => `sum ${String(args.text)}` },
    ];
    await run(PLAN, { tools, tracing: { tracerProvider: provider } });
    await provider.forceFlush();
    await provider.shutdown();
    expect(receiver.contentTypes.every((t) => t.startsWith('application/json'))).toBe(true);
    const names = receiver.spans.map((s) => s.name).sort();
    expect(names).toEqual([
      'attempt 1',
      'attempt 1',
      'execute_tool fetch',
      'execute_tool summarize',
      'run plan',
    ]);
    const call = receiver.spans.find((s) => s.name === 'execute_tool summarize')!;
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'summarize',
      'gen_ai.tool.call.id': 's',
    });
    const root = receiver.spans.find((s) => s.name === 'run plan')!;
    expect(call.parentSpanId).toBe(root.spanId);
  });

  it('plan run --otlp URL sends the spans and flushes them before it exits', async () => {
    receiver.spans.length = 0;
    const tools = join(dir, 'tools.mjs');
    writeFileSync(
      tools,
      `export const tools = [
  { name: 'fetch', execute: (args) => 'page ' + args.url },
  { name: 'summarize', execute: async (args) => 'sum ' + args.text },
];\n`,
    );
    const plan = join(dir, 'plan.json');
    writeFileSync(plan, JSON.stringify({ calls: PLAN }));
    const result = await planInProcess(['run', plan, '--tools', tools, '--otlp', receiver.url, '--json']);
    expect(result.code).toBe(0);
    // No wait: the command returned only after the exporter had sent everything.
    const names = receiver.spans.map((s) => s.name).sort();
    expect(names).toEqual([
      'attempt 1',
      'attempt 1',
      'execute_tool fetch',
      'execute_tool summarize',
      'run plan',
    ]);
    expect(new Set(receiver.spans.map((s) => s.traceId)).size).toBe(1);
  });

  it('plan run --otlp with a URL that is not http(s) is a flag error (exit 2) saying what to pass', async () => {
    const plan = join(dir, 'plan.json');
    writeFileSync(plan, JSON.stringify({ calls: PLAN }));
    const result = await planInProcess([
      'run',
      plan,
      '--tools',
      join(dir, 'tools.mjs'),
      '--otlp',
      'localhost:4318',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--otlp must be the http(s) URL of an OTLP/HTTP traces endpoint');
    expect(result.stderr).toContain('http://localhost:4318/v1/traces');
    expect(result.stderr).toContain("not 'localhost:4318'");
  });
});
