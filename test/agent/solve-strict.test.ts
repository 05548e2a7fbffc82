/**
 * solve() with a provider that enforces schemas strictly (OpenAI's `strict: true`): it sends the
 * plan schema in OpenAI's strict form, and drops the nulls strict mode makes the model write for
 * the keys it leaves out. Against a loopback server speaking Chat Completions over SSE.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { OpenAICompatibleProvider } from '../../src/agent/providers/openai.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import { createProvider } from '../../src/agent/providers/create.js';
import { dropStrictNulls } from '../../src/agent/plan-loop/strict-nulls.js';
import { planSchema, type Tool, ToolRegistry } from '../../src/index.js';
import { chatServer } from './chat-server.js';
import type { FakeServer } from './providers/fake-server.js';

const seen: { query: unknown; limit: unknown; filter: unknown }[] = [];
const tools: Tool[] = [
  {
    name: 'search',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer' },
        filter: {
          type: 'object',
          properties: { city: { type: 'string' }, open: { type: 'boolean' } },
          required: ['city'],
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: { type: 'array', items: { type: 'string' } },
    execute: (args) => {
      seen.push({ query: args.query, limit: args.limit, filter: args.filter });
      return ['a park'];
    },
  },
];

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  seen.length = 0;
});

/** A solution as strict and grammar schemas make the model write it: null for each key left out. */
const nullsReply = JSON.stringify({
  calls: [
    {
      _tool: 'search',
      _id: null,
      _outputPath: '†state.places',
      _onError: null,
      _forEach: null,
      query: 'parks',
      limit: null,
      filter: { city: 'Paris', open: null },
    },
  ],
  output: null,
});

describe('solve() with a strict provider', () => {
  it('sends the strict plan schema and runs a reply whose left-out keys are nulls', async () => {
    const replies = [nullsReply, JSON.stringify({ calls: [], output: '†state.places' })];
    server = await chatServer(replies.map((text) => ({ text })));
    const provider = new OpenAICompatibleProvider({
      model: 'gpt-4o',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      strict: true,
    });
    expect(provider.strictSchemas).toBe(true);
    const result = await new PlanAgent({ provider, tools }).solve({ goal: 'parks in Paris' });
    expect(result.status).toBe('done');
    // The nulls are gone before the tool sees its arguments: no `limit`, no `filter.open`.
    expect(seen).toEqual([{ query: 'parks', limit: undefined, filter: { city: 'Paris' } }]);
    const format = (server.requests[0]!.body as { response_format: { json_schema: Record<string, unknown> } })
      .response_format.json_schema;
    expect(format.strict).toBe(true);
    expect(format.schema).toEqual(planSchema(tools, { shape: 'solution', format: 'openai-strict' }));
    // The reply the model sent fits the schema it was sent.
    const validate = new Ajv2020({ strict: false }).compile(format.schema as object);
    expect(validate(JSON.parse(replies[0]!)), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it('a provider that is not strict gets the plain plan schema', async () => {
    server = await chatServer([{ text: JSON.stringify({ calls: [], output: 'ok' }) }]);
    const provider = new OpenAICompatibleProvider({
      model: 'gpt-4o',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    expect(provider.strictSchemas).toBe(false);
    await new PlanAgent({ provider, tools }).solve({ goal: 'x' });
    const format = (server.requests[0]!.body as { response_format: { json_schema: Record<string, unknown> } })
      .response_format.json_schema;
    expect(format.strict).toBeUndefined();
    expect(format.schema).toEqual(planSchema(tools, { shape: 'solution' }));
  });
});

describe('solve() with a provider whose engine wants the grammar format', () => {
  it('sends the grammar plan schema, and drops the nulls the grammar made the model write', async () => {
    const replies = [nullsReply, JSON.stringify({ calls: [], output: '†state.places' })];
    server = await chatServer(replies.map((text) => ({ text })));
    const provider = new OpenAICompatibleProvider({
      model: 'qwen2.5',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      schemaFormat: 'grammar',
    });
    expect(provider.schemaFormat).toBe('grammar');
    const result = await new PlanAgent({ provider, tools }).solve({ goal: 'parks in Paris' });
    expect(result.status).toBe('done');
    expect(seen).toEqual([{ query: 'parks', limit: undefined, filter: { city: 'Paris' } }]);
    const format = (server.requests[0]!.body as { response_format: { json_schema: Record<string, unknown> } })
      .response_format.json_schema;
    // No `strict: true`: that is OpenAI's own flag; a grammar engine enforces the schema anyway.
    expect(format.strict).toBeUndefined();
    expect(format.schema).toEqual(planSchema(tools, { shape: 'solution', format: 'grammar' }));
    const validate = new Ajv2020({ strict: false }).compile(format.schema as object);
    expect(validate(JSON.parse(replies[0]!)), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it('a scripted provider standing in for such an engine does the same', async () => {
    const provider = new ScriptedProvider({
      turns: [{ text: nullsReply }, { text: JSON.stringify({ calls: [], output: '†state.places' }) }],
      schemaFormat: 'grammar',
    });
    const result = await new PlanAgent({ provider, tools }).solve({ goal: 'parks in Paris' });
    expect(result.status).toBe('done');
    expect(seen).toEqual([{ query: 'parks', limit: undefined, filter: { city: 'Paris' } }]);
    expect(provider.requests[0]!.responseFormat!.schema).toEqual(
      planSchema(tools, { shape: 'solution', format: 'grammar' }),
    );
  });

  it('refuses a format strict mode cannot take, and a format that is not one', () => {
    const base = { model: 'gpt-4o', apiKey: 'sk-test' };
    expect(() => new OpenAICompatibleProvider({ ...base, strict: true, schemaFormat: 'grammar' })).toThrow(
      /strict needs schemaFormat 'openai-strict', not 'grammar'/,
    );
    expect(
      () => new OpenAICompatibleProvider({ ...base, schemaFormat: 'gbnf' as unknown as 'grammar' }),
    ).toThrow(/schemaFormat must be 'json-schema', 'openai-strict', 'grammar', not "gbnf"/);
    expect(new OpenAICompatibleProvider({ ...base, strict: true }).schemaFormat).toBe('openai-strict');
    expect(new OpenAICompatibleProvider(base).schemaFormat).toBe('json-schema');
    expect(() =>
      createProvider('anthropic:claude', { schemaFormat: 'grammar', env: { ANTHROPIC_API_KEY: 'k' } }),
    ).toThrow(/schemaFormat is for openai: and scripted: providers/);
    expect(
      createProvider('openai:llama', { schemaFormat: 'grammar', baseURL: 'http://127.0.0.1:1/v1' })
        .schemaFormat,
    ).toBe('grammar');
  });
});

describe('dropStrictNulls', () => {
  const registry = ToolRegistry.from([
    {
      name: 't',
      inputSchema: {
        type: 'object',
        properties: {
          a: { type: 'string' },
          b: { type: ['string', 'null'] },
          c: { type: 'string' },
          list: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } } } },
        },
        required: ['c'],
      },
    },
  ]);

  it('drops a null only where the key was optional and its schema does not admit null', () => {
    const calls: unknown[] = [
      { _tool: 't', _id: null, a: null, b: null, c: null, list: [{ x: null }, { x: 1 }], extra: null },
      { _tool: 'unknown', a: null, _outputPath: null },
      'not a call',
    ];
    dropStrictNulls(calls, registry);
    expect(calls).toEqual([
      // b admits null, c is required (the compiler reports it), extra is not the tool's.
      { _tool: 't', b: null, c: null, list: [{}, { x: 1 }], extra: null },
      { _tool: 'unknown', a: null },
      'not a call',
    ]);
  });
});
