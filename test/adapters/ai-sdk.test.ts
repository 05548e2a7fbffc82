/** fromAiSdkTools against the real `ai` package (tool, jsonSchema) and zod 4. */
import { jsonSchema, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromAiSdkTools } from '../../src/adapters/index.js';
import { compile, run, ToolRegistry } from '../../src/index.js';

describe('fromAiSdkTools', () => {
  it('turns zod schemas into JSON Schema with the AI SDK, so compile checks literal arguments', async () => {
    const tools = await fromAiSdkTools({
      weather: tool({
        description: 'The weather in a city',
        inputSchema: z.object({ city: z.string(), unit: z.enum(['C', 'F']).default('C') }),
        outputSchema: z.object({ temperature: z.number() }),
        execute: async ({ city }) => ({ temperature: city.length }),
      }),
    });
    expect(tools).toHaveLength(1);
    const [weather] = tools;
    expect(weather!.name).toBe('weather');
    expect(weather!.description).toBe('The weather in a city');
    expect(weather!.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, unit: { enum: ['C', 'F'] } },
      required: ['city'],
    });
    expect(weather!.outputSchema).toMatchObject({ properties: { temperature: { type: 'number' } } });

    const bad = compile([{ _tool: 'weather', city: 7 }], { tools });
    expect(bad.ok).toBe(false);
    expect(bad.diagnostics.map((d) => d.code)).toContain('E_ARGS');
  });

  it('runs execute with the arguments the AI SDK schema parsed (defaults applied) and the call options', async () => {
    const seen: unknown[] = [];
    const tools = await fromAiSdkTools({
      weather: tool({
        inputSchema: z.object({ city: z.string(), unit: z.enum(['C', 'F']).default('C') }),
        execute: async (input, options) => {
          seen.push({
            input,
            toolCallId: options.toolCallId,
            signal: options.abortSignal instanceof AbortSignal,
            messages: options.messages,
            context: options.experimental_context,
          });
          return `${input.city} in ${input.unit}`;
        },
      }),
    });
    const result = await run(
      [{ _id: 'w', _tool: 'weather', city: '†input.city', _outputPath: '†state.report' }],
      { tools, input: { city: 'Oslo' }, context: { user: 'ada' } },
    );
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ report: 'Oslo in C' });
    expect(seen).toEqual([
      {
        input: { city: 'Oslo', unit: 'C' },
        toolCallId: 'w',
        signal: true,
        messages: [],
        context: { user: 'ada' },
      },
    ]);
  });

  it('takes jsonSchema() schemas, and a streaming execute gives its last value', async () => {
    const tools = await fromAiSdkTools({
      count: tool({
        inputSchema: jsonSchema<{ to: number }>({
          type: 'object',
          properties: { to: { type: 'integer' } },
          required: ['to'],
        }),
        async *execute({ to }) {
          for (let i = 1; i <= to; i++) yield i;
        },
      }),
    });
    expect(tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: { to: { type: 'integer' } },
      required: ['to'],
    });
    const result = await run([{ _tool: 'count', to: 3, _outputPath: '†state.n' }], { tools });
    expect(result.state).toEqual({ n: 3 });
  });

  it('a throw fails the call with its message; an input the AI SDK schema refuses fails it too', async () => {
    const tools = await fromAiSdkTools({
      boom: tool({
        inputSchema: z.object({}),
        execute: async (): Promise<string> => {
          throw new Error('the disk is full');
        },
      }),
      short: tool({
        // The refinement is not in the JSON Schema: only the AI SDK's own validation sees it.
        inputSchema: z.object({ word: z.string().refine((w) => w.length < 4, 'too long') }),
        execute: async ({ word }) => word,
      }),
    });
    const result = await run(
      [
        { _id: 'a', _tool: 'boom' },
        { _id: 'b', _tool: 'short', word: 'lengthy' },
      ],
      { tools },
    );
    expect(result.calls.map((c) => [c.id, c.status])).toEqual([
      ['a', 'failed'],
      ['b', 'failed'],
    ]);
    expect(result.calls[0]!.error?.message).toContain('the disk is full');
    expect(result.calls[1]!.error?.message).toBe("invalid arguments for 'short': word: too long");
  });

  it('needsApproval (a boolean or a function) asks for every call; without an approver the call is rejected', async () => {
    const tools = await fromAiSdkTools({
      pay: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => 'paid' }),
      maybe: tool({
        inputSchema: z.object({ n: z.number() }),
        needsApproval: async ({ n }) => n > 10,
        execute: async () => 'ok',
      }),
      free: tool({ inputSchema: z.object({}), needsApproval: false, execute: async () => 'ok' }),
    });
    expect(tools.map((t) => [t.name, t.needsApproval === true])).toEqual([
      ['pay', true],
      ['maybe', true],
      ['free', false],
    ]);
    // An adapter's tools are not believed in plan mode unless trusted explicitly (readOnly, trustAnnotations).
    expect(tools.every((t) => t.annotationsTrusted === false)).toBe(true);
    const result = await run([{ _tool: 'pay' }], { tools });
    expect(result.calls[0]!.status).toBe('rejected');
  });

  it('a tool without execute is a definition (enough to validate); the registry accepts them all', async () => {
    const tools = await fromAiSdkTools({
      ask: tool({ description: 'Ask a person', inputSchema: z.object({ q: z.string() }) }),
    });
    expect(tools[0]!.execute).toBeUndefined();
    expect(new ToolRegistry(tools).names()).toEqual(['ask']);
  });

  it('refuses what is not a tool, and provider-defined tools, with a clear TypeError', async () => {
    await expect(fromAiSdkTools([] as never)).rejects.toThrow(/tools must be an object of AI SDK tools/);
    await expect(fromAiSdkTools({ x: null as never })).rejects.toThrow(/'x' must be an AI SDK tool/);
    await expect(
      fromAiSdkTools({
        search: { type: 'provider', id: 'openai.web_search', args: {}, inputSchema: z.object({}) } as never,
      }),
    ).rejects.toThrow(/'search' is a provider-defined tool/);
  });
});
