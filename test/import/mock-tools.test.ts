import { describe, expect, it } from 'vitest';
import { mockLatencyMs, mockTools, type ToolManifest } from '../../src/import/index.js';
import { SchemaCompiler, type Tool, type ToolContext } from '../../src/tools/index.js';

const MANIFEST: ToolManifest = {
  tools: [
    {
      name: 'get_weather',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      outputSchema: {
        type: 'object',
        properties: {
          temperature: { type: 'number', minimum: -50, maximum: 60 },
          summary: { type: 'string', maxLength: 40 },
          tags: { type: 'array', items: { type: 'string', enum: ['sun', 'rain', 'wind'] } },
        },
        required: ['temperature', 'summary'],
      },
    },
    { name: 'var_result', inputSchema: { type: 'object' } },
  ],
};

function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { toolCallId: 'c', abortSignal: signal, outputPaths: [] };
}

function byName(tools: Tool[], name: string): Tool {
  return tools.find((t) => t.name === name)!;
}

async function call(tools: Tool[], name: string, args: Record<string, unknown>): Promise<unknown> {
  return await byName(tools, name).execute!(args, context());
}

describe('mockTools', () => {
  it('answers the same call the same way from two sets of mocks, whatever the order of calls', async () => {
    const first = mockTools(MANIFEST, { seed: 7 });
    const second = mockTools(MANIFEST, { seed: 7 });
    const a1 = await call(first, 'get_weather', { city: 'Paris' });
    const b1 = await call(first, 'get_weather', { city: 'Oslo' });
    // The other instance asks in the other order, with the keys of the arguments reordered.
    const b2 = await call(second, 'get_weather', { city: 'Oslo' });
    const a2 = await call(second, 'get_weather', { city: 'Paris' });
    expect(a2).toEqual(a1);
    expect(b2).toEqual(b1);
    const nested = { a: 1, b: { c: [1, 2], d: 'x' } };
    const reordered = { b: { d: 'x', c: [1, 2] }, a: 1 };
    expect(await call(second, 'get_weather', reordered)).toEqual(await call(first, 'get_weather', nested));
  });

  it('gives other arguments (and another seed) another answer, always valid against the outputSchema', async () => {
    const tools = mockTools(MANIFEST, { seed: 0 });
    const validate = new SchemaCompiler().compile(MANIFEST.tools[0]!.outputSchema!);
    const answers = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const answer = await call(tools, 'get_weather', { city: `city ${i}` });
      expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
      answers.add(JSON.stringify(answer));
    }
    expect(answers.size).toBe(20);
    const otherSeed = await call(mockTools(MANIFEST, { seed: 1 }), 'get_weather', { city: 'city 0' });
    expect(JSON.stringify(otherSeed)).not.toBe([...answers][0]);
  });

  it('answers null for a tool without an outputSchema, and keeps the definition', async () => {
    const tools = mockTools(MANIFEST);
    expect(await call(tools, 'var_result', { x: 1 })).toBeNull();
    expect(byName(tools, 'get_weather').inputSchema).toEqual(MANIFEST.tools[0]!.inputSchema);
  });

  it('sets no timer without latency: execute answers synchronously', () => {
    const tools = mockTools(MANIFEST);
    const answer = byName(tools, 'get_weather').execute!({ city: 'Rome' }, context());
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ temperature: expect.any(Number) as number });
  });

  it('draws latencies within bounds, the same for the same (seed, tool, arguments, n), another for the next n', () => {
    const latency = { minMs: 50, maxMs: 500 };
    const draws: number[] = [];
    for (let i = 0; i < 500; i++)
      draws.push(mockLatencyMs({ seed: 3, tool: 'get_weather', args: `{"city":"${i}"}`, nth: 1, latency }));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(50);
    expect(Math.max(...draws)).toBeLessThanOrEqual(500);
    expect(draws.every((d) => Number.isInteger(d))).toBe(true);
    // Spread over the range, not stuck at one end: both halves are drawn often.
    expect(draws.filter((d) => d < 275).length).toBeGreaterThan(150);
    expect(draws.filter((d) => d >= 275).length).toBeGreaterThan(150);
    const draw = { seed: 3, tool: 'get_weather', args: '{"city":"1"}', nth: 1, latency };
    expect(mockLatencyMs(draw)).toBe(draws[1]);
    const nths = new Set([1, 2, 3, 4, 5].map((nth) => mockLatencyMs({ ...draw, nth })));
    expect(nths.size).toBeGreaterThan(1);
    expect(mockLatencyMs({ ...draw, latency: { minMs: 120, maxMs: 120 } })).toBe(120);
  });

  it('ends a wait when the call is aborted, with the abort reason', async () => {
    const tools = mockTools(MANIFEST, { latency: { minMs: 3_600_000, maxMs: 3_600_000 } });
    const controller = new AbortController();
    const pending = byName(tools, 'get_weather').execute!({ city: 'Rome' }, context(controller.signal));
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('waits and then answers as without latency', async () => {
    const tools = mockTools(MANIFEST, { latency: { minMs: 0, maxMs: 1 } });
    expect(await call(tools, 'get_weather', { city: 'Rome' })).toEqual(
      await call(mockTools(MANIFEST), 'get_weather', { city: 'Rome' }),
    );
  });

  it('refuses a bad seed or latency with a TypeError naming it', () => {
    expect(() => mockTools(MANIFEST, { seed: 1.5 })).toThrow(/seed/);
    expect(() => mockTools(MANIFEST, { latency: { minMs: 10, maxMs: 5 } })).toThrow(/latency/);
    expect(() => mockTools(MANIFEST, { latency: { minMs: -1, maxMs: 5 } })).toThrow(/latency/);
  });
});
