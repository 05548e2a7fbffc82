/**
 * The request `{"schema": ..., "context": [...]}` as a document: its context is the plan, its
 * schema the final answer's (E_OUTPUT_SCHEMA when it is not a usable JSON Schema), every
 * diagnostic inside it at its place in the whole text, and its parts held to the limits.
 */
import { describe, expect, it } from 'vitest';
import { compile, parsePlan, run, simulate, type Tool } from '../../src/index.js';

const tools: Tool[] = [
  {
    name: 'getWeather',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    outputSchema: { type: 'object', properties: { sunny: { type: 'boolean' } } },
    annotations: { readOnlyHint: true },
    execute: ({ city }) => ({ sunny: city === 'Paris' }),
  },
  {
    name: 'suggest',
    inputSchema: { type: 'object', properties: { weather: {} } },
    annotations: { readOnlyHint: true },
    execute: ({ weather }) => ((weather as { sunny: boolean }).sunny ? 'a park' : 'a movie'),
  },
];

const answerSchema = { type: 'object', properties: { suggestion: { type: 'string' } } };
const replySchema = { type: 'object', properties: { calls: { type: 'array' }, output: answerSchema } };

const request = (context: unknown[], schema: unknown = replySchema) => ({ schema, context });

const planMessage = {
  type: 'plan',
  plan: [
    { _tool: 'getWeather', city: '†input.city', _outputPath: '†state.weather' },
    { _tool: 'suggest', weather: '†state.weather', _outputPath: '†state.suggestion' },
  ],
};

/** Code and pointer of each diagnostic (a value's positions are in its rendering, not checked here). */
const codes = (value: unknown, options = {}) =>
  compile(value as string, options).diagnostics.map((d) => [d.code, d.pointer]);

describe('a request document', () => {
  it('compiles its context as the plan, with the input message as input', () => {
    const result = compile(request([{ type: 'input', city: 'Paris' }, planMessage]), { tools });
    expect(result.diagnostics).toEqual([]);
    expect(result.document?.shape).toBe('request');
    expect(result.document?.callsPointer).toBe('/context/1/plan');
    expect(result.plan?.order).toEqual([0, 1]);
    expect(result.plan?.input).toEqual({ city: 'Paris' });
  });

  it("keeps the answer's schema on the compiled plan: the reply schema's output", () => {
    const result = compile(request([{ type: 'input', city: 'Paris' }, planMessage]), { tools });
    expect(result.plan?.outputSchema).toEqual(answerSchema);
    expect(result.document?.schema).toEqual(replySchema);
  });

  it("takes a schema without properties.calls as the answer's schema itself", () => {
    const result = compile(request([planMessage], { type: 'string' }), { input: { city: 'Paris' } });
    expect(result.plan?.outputSchema).toEqual({ type: 'string' });
  });

  it('has no output schema without a schema, and none when the reply schema says nothing of output', () => {
    expect(compile({ context: [planMessage] }, { input: { city: 'x' } }).plan?.outputSchema).toBeUndefined();
    const calls = { type: 'object', properties: { calls: { type: 'array' } } };
    expect(
      compile(request([planMessage], calls), { input: { city: 'x' } }).plan?.outputSchema,
    ).toBeUndefined();
  });

  it('takes a context of calls as the plan', () => {
    const result = compile(request([{ _tool: 'getWeather', city: 'Oslo' }]), { tools });
    expect(result.ok).toBe(true);
    expect(result.document?.callsPointer).toBe('/context');
    expect(result.plan?.calls.map((c) => c.tool)).toEqual(['getWeather']);
  });

  it("compiles a first request's context, without a plan message, to no calls", () => {
    const result = compile(request([{ type: 'input', city: 'Paris' }]), { tools });
    expect(result.diagnostics).toEqual([]);
    expect(result.plan?.calls).toEqual([]);
    expect(result.plan?.input).toEqual({ city: 'Paris' });
  });

  it('places diagnostics inside the context at their line and column in the whole text', () => {
    const text = [
      '{',
      '  "schema": { "type": "object" },',
      '  "context": [',
      '    { "type": "input", "city": "Paris" },',
      '    { "type": "plan", "plan": [',
      '      { "_tool": "suggest", "weather": "†state.wether" },',
      '      { "_tool": "getWeathr", "city": "†input.city" }',
      '    ] }',
      '  ]',
      '}',
    ].join('\n');
    const found = compile(text, { tools }).diagnostics;
    expect(found.map((d) => [d.code, d.pointer, d.line, d.column])).toEqual([
      ['E_UNRESOLVED', '/context/1/plan/0/weather', 6, 41],
      ['E_UNKNOWN_TOOL', '/context/1/plan/1/_tool', 7, 18],
    ]);
    const lines = text.split('\n');
    const at = found.map((d) => lines[d.line - 1]!.slice(d.column - 1));
    expect(at[0]).toMatch(/^†state\.wether"/);
    expect(at[1]).toMatch(/^"getWeathr"/);
  });

  it('places a bad schema at the keyword, inside the whole text', () => {
    const text = '{\n  "schema": {\n    "type": "objekt"\n  },\n  "context": []\n}';
    const result = compile(text);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.code, d.pointer, d.line, d.column])).toEqual([
      ['E_OUTPUT_SCHEMA', '/schema/type', 3, 13],
    ]);
    expect(result.diagnostics[0]!.message).toContain('"object"');
  });

  it('reports a schema that is not a schema, a $ref that resolves nowhere, and nullable without type', () => {
    expect(codes(request([], 42))).toEqual([['E_OUTPUT_SCHEMA', '/schema']]);
    const [ref] = compile(request([], { $ref: '#/$defs/answer' })).diagnostics;
    expect([ref?.code, ref?.pointer, ref?.message]).toEqual([
      'E_OUTPUT_SCHEMA',
      '/schema',
      expect.stringContaining("can't resolve reference #/$defs/answer"),
    ]);
    expect(codes(request([], { nullable: true })).map((d) => d[0])).toEqual(['E_OUTPUT_SCHEMA']);
  });

  it('accepts a boolean schema and a 2020-12 one', () => {
    expect(compile(request([], true)).ok).toBe(true);
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      prefixItems: [{ type: 'string' }],
    };
    expect(compile(request([], schema)).diagnostics).toEqual([]);
  });

  it('refuses other keys, a missing context and a context that is not an array (E_SHAPE)', () => {
    expect(codes({ schema: {}, context: [], config: {} })).toEqual([['E_SHAPE', '/config']]);
    expect(codes({ schema: {} })).toEqual([['E_SHAPE', '']]);
    expect(codes({ schema: {}, context: { type: 'plan', plan: [] } })).toEqual([['E_SHAPE', '/context']]);
    expect(codes({ context: [planMessage, planMessage] }, { input: { city: 'x' } })).toEqual([
      ['E_SHAPE', '/context/1/type'],
    ]);
  });

  it('holds the schema and the context to the limits, like any document', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let k = 0; k < 10; k++) deep = { type: 'object', properties: { x: deep } };
    const [tooDeep] = compile(request([], deep), { limits: { maxDepth: 8 } }).diagnostics;
    expect([tooDeep?.code, tooDeep?.pointer.startsWith('/schema/properties/x')]).toEqual(['E_LIMIT', true]);
    const calls = Array.from({ length: 4 }, () => ({ _tool: 'getWeather', city: 'Oslo' }));
    expect(codes(request(calls), { limits: { maxCalls: 3 } })).toEqual([['E_LIMIT', '/context']]);
    const input = {
      type: 'input',
      wide: Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`k${k}`, k])),
    };
    expect(codes(request([input]), { limits: { maxKeys: 10 } })).toEqual([['E_LIMIT', '/context/0/wide']]);
  });

  it('is read by parsePlan from a value as from text', () => {
    const value = request([{ type: 'input', city: 'Paris' }, planMessage]);
    const fromValue = parsePlan(value).document;
    const fromText = parsePlan(JSON.stringify(value, null, 2)).document;
    expect(fromValue?.shape).toBe('request');
    expect(fromText?.outputSchema).toEqual(answerSchema);
    expect(fromValue?.calls).toEqual(fromText?.calls);
  });

  it('runs: the context is the plan, and the answer schema stays on the plan, unchecked against the state', async () => {
    const result = await run(request([{ type: 'input', city: 'Paris' }, planMessage]), { tools });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ weather: { sunny: true }, suggestion: 'a park' });
  });

  it('runs a first request (no plan message) as no calls', async () => {
    const result = await run(request([{ type: 'input', city: 'Paris' }]), { tools });
    expect(result.status).toBe('succeeded');
    expect(result.calls).toEqual([]);
  });

  it('refuses to run a request whose schema is bad, with its diagnostic', async () => {
    await expect(
      run(request([planMessage], { type: 'objekt' }), { tools, input: { city: 'x' } }),
    ).rejects.toMatchObject({
      diagnostics: [expect.objectContaining({ code: 'E_OUTPUT_SCHEMA', pointer: '/schema/type' })],
    });
  });

  it('is dry-run by simulate', () => {
    const simulation = simulate(request([{ type: 'input', city: 'Paris' }, planMessage]), { tools });
    expect(simulation.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(simulation.criticalPath).toEqual(['0', '1']);
  });
});
