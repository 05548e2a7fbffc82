/** fromOpenAIAgentsTools against the real `@openai/agents` (tool, RunContext, hosted tools) and zod 4. */
import { RunContext, tool, webSearchTool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromOpenAIAgentsTools } from '../../src/adapters/index.js';
import { compile, run } from '../../src/index.js';

describe('fromOpenAIAgentsTools', () => {
  it('keeps name, description and the JSON Schema parameters; runs invoke with the arguments and the run context', async () => {
    const seen: unknown[] = [];
    const tools = await fromOpenAIAgentsTools([
      tool({
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }, runContext) => {
          seen.push({ city, context: runContext?.context });
          return `sunny in ${city}`;
        },
      }),
    ]);
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      name: 'get_weather',
      description: 'The weather in a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
    expect(tools[0]!.needsApproval).toBeUndefined();
    expect(
      compile([{ _tool: 'get_weather', town: 'Oslo' }], { tools }).diagnostics.map((d) => d.code),
    ).toContain('E_ARGS');

    const result = await run([{ _tool: 'get_weather', city: 'Oslo', _outputPath: '†state.w' }], {
      tools,
      context: { user: 'ada' },
    });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ w: 'sunny in Oslo' });
    expect(seen).toEqual([{ city: 'Oslo', context: { user: 'ada' } }]);
  });

  it('takes a RunContext of your own', async () => {
    const tools = await fromOpenAIAgentsTools(
      [
        tool({
          name: 'whoami',
          description: 'who',
          parameters: z.object({}),
          execute: async (_input, runContext) => (runContext as RunContext<{ user: string }>).context.user,
        }),
      ],
      { runContext: new RunContext({ user: 'grace' }) },
    );
    const result = await run([{ _tool: 'whoami', _outputPath: '†state.me' }], { tools });
    expect(result.state).toEqual({ me: 'grace' });
  });

  it('a throw fails the call (the SDK would have made it a message for the model), with or without errorFunction: null', async () => {
    const tools = await fromOpenAIAgentsTools([
      tool({
        name: 'boom',
        description: 'fails',
        parameters: z.object({}),
        execute: async () => {
          throw new Error('the disk is full');
        },
      }),
      tool({
        name: 'raw',
        description: 'fails and throws',
        parameters: z.object({}),
        errorFunction: null,
        execute: async () => {
          throw new Error('no such table');
        },
      }),
    ]);
    const result = await run(
      [
        { _id: 'a', _tool: 'boom', _outputPath: '†state.a' },
        { _id: 'b', _tool: 'raw', _outputPath: '†state.b' },
      ],
      { tools },
    );
    expect(result.calls.map((c) => [c.id, c.status])).toEqual([
      ['a', 'failed'],
      ['b', 'failed'],
    ]);
    expect(result.calls[0]!.error?.message).toContain('the disk is full');
    expect(result.calls[0]!.error?.message).not.toContain('Please try again');
    expect(result.calls[1]!.error?.message).toContain('no such table');
    expect(result.state).toEqual({});
  });

  it('non-strict JSON Schema parameters and an outputSchema (a JSON string result is parsed)', async () => {
    const tools = await fromOpenAIAgentsTools([
      tool({
        name: 'stats',
        description: 'stats',
        strict: false,
        parameters: {
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
          additionalProperties: true,
        },
        outputSchema: {
          type: 'object',
          properties: { double: { type: 'integer' } },
          required: ['double'],
          additionalProperties: false,
        },
        errorFunction: null,
        execute: async (input) => JSON.stringify({ double: (input as { n: number }).n * 2 }),
      }),
    ]);
    expect(tools[0]!.outputSchema).toMatchObject({ properties: { double: { type: 'integer' } } });
    const result = await run([{ _tool: 'stats', n: 21, _outputPath: '†state.s' }], { tools });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ s: { double: 42 } });
  });

  it('needsApproval: true, or a function of the input, asks for every call', async () => {
    const tools = await fromOpenAIAgentsTools([
      tool({
        name: 'pay',
        description: 'pay',
        parameters: z.object({}),
        needsApproval: true,
        execute: () => 'paid',
      }),
      tool({
        name: 'maybe',
        description: 'maybe',
        parameters: z.object({ n: z.number() }),
        needsApproval: async (_ctx, { n }) => n > 10,
        execute: () => 'ok',
      }),
      tool({ name: 'free', description: 'free', parameters: z.object({}), execute: () => 'ok' }),
    ]);
    expect(tools.map((t) => [t.name, t.needsApproval === true])).toEqual([
      ['pay', true],
      ['maybe', true],
      ['free', false],
    ]);
    // An adapter's tools are not believed in plan mode unless trusted explicitly (readOnly, trustAnnotations).
    expect(tools.every((t) => t.annotationsTrusted === false)).toBe(true);
    const approved: string[] = [];
    const result = await run([{ _tool: 'pay' }], {
      tools,
      approve: (request) => {
        if (request.kind === 'call') approved.push(request.tool);
        return true;
      },
    });
    expect(result.status).toBe('succeeded');
    expect(approved).toEqual(['pay']);
  });

  it('refuses hosted tools, duplicates and what is not a tool, with a clear TypeError', async () => {
    await expect(fromOpenAIAgentsTools([webSearchTool()] as never)).rejects.toThrow(
      /is a hosted_tool tool, not a function tool/,
    );
    const t = tool({ name: 'same', description: 'x', parameters: z.object({}), execute: () => 'x' });
    await expect(fromOpenAIAgentsTools([t, t])).rejects.toThrow(/two tools are named 'same'/);
    await expect(fromOpenAIAgentsTools(42 as never)).rejects.toThrow(/tools must be an array/);
  });
});
