import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { planSchema, type Tool, toolsFromManifest } from '../../src/index.js';
import { strictModeViolations } from './strict-mode-rules.js';

const EXAMPLES = join(import.meta.dirname, '../../fixtures/examples');

interface Example {
  readonly name: string;
  readonly tools: Tool[];
  readonly calls: Record<string, unknown>[];
  readonly mode: 'eager' | 'lazy';
}

/** The calls of any of the four document shapes, and the mode its plan message names. */
function callsOf(document: unknown): Pick<Example, 'calls' | 'mode'> {
  const plan = (message: Record<string, unknown>) => ({
    calls: message.plan as Record<string, unknown>[],
    mode: message.mode === 'lazy' ? ('lazy' as const) : ('eager' as const),
  });
  if (Array.isArray(document)) {
    const message = document.find((m: Record<string, unknown>) => m.type === 'plan');
    return message ? plan(message) : { calls: document, mode: 'eager' };
  }
  const object = document as Record<string, unknown>;
  return object.type === 'plan'
    ? plan(object)
    : { calls: object.calls as Record<string, unknown>[], mode: 'eager' };
}

const examples: Example[] = readdirSync(EXAMPLES).map((name) => {
  const read = (file: string) => JSON.parse(readFileSync(join(EXAMPLES, name, file), 'utf8')) as unknown;
  return {
    name,
    tools: toolsFromManifest(read('tools.json'), `${name}/tools.json`),
    ...callsOf(read('plan.json')),
  };
});

const ajv = () => new Ajv2020({ strict: false, allErrors: true, logger: false });

/** A plan as a strict-mode model writes it: every key the schema declares is present, null when left out. */
function withNulls(
  calls: Record<string, unknown>[],
  schema: Record<string, unknown>,
): Record<string, unknown>[] {
  const array = (schema.properties as Record<string, Record<string, unknown>>).calls!;
  const items = array.items as Record<string, unknown>;
  const variants = (items.anyOf ?? [items]) as Record<string, unknown>[];
  return calls.map((call) => {
    const variant = variants.find(
      (v) => (v.properties as Record<string, { const: string } | undefined>)._tool?.const === call._tool,
    )!;
    const filled: Record<string, unknown> = {};
    for (const key of Object.keys(variant.properties as object)) filled[key] = call[key] ?? null;
    return { ...filled, ...call };
  });
}

describe('planSchema', () => {
  it('admits every bundled example plan over its own tools, as JSON Schema and in OpenAI strict form', () => {
    expect(examples.length).toBeGreaterThan(5);
    for (const example of examples) {
      const { tools, calls, mode } = example;
      const plain = ajv().compile(planSchema(tools, { mode }));
      expect(plain(calls), `${example.name}: ${ajv().errorsText(plain.errors)}`).toBe(true);

      const strictSchema = planSchema(tools, { mode, format: 'openai-strict' });
      expect(strictModeViolations(strictSchema), example.name).toEqual([]);
      const strict = ajv().compile(strictSchema);
      const instance = { calls: withNulls(calls, strictSchema) };
      expect(strict(instance), `${example.name}: ${ajv().errorsText(strict.errors)}`).toBe(true);

      const solution = planSchema(tools, { mode, shape: 'solution', format: 'openai-strict' });
      expect(strictModeViolations(solution), example.name).toEqual([]);
      expect(ajv().validate(solution, { ...instance, output: null })).toBe(true);
    }
  });

  it('rejects a call to a tool that is not offered, in every format and shape', () => {
    const { tools, calls } = examples.find((e) => e.name === 'weather-branch')!;
    const wrong = [...calls, { _tool: 'bookTable', city: 'Paris' }];
    expect(ajv().validate(planSchema(tools), calls)).toBe(true);
    expect(ajv().validate(planSchema(tools), wrong)).toBe(false);
    const strictSchema = planSchema(tools, { format: 'openai-strict' });
    expect(ajv().validate(strictSchema, { calls: withNulls(wrong.slice(0, -1), strictSchema) })).toBe(true);
    expect(ajv().validate(strictSchema, { calls: [...withNulls(calls, strictSchema), wrong.at(-1)] })).toBe(
      false,
    );
    expect(ajv().validate(planSchema(tools, { shape: 'solution' }), { calls: wrong, output: null })).toBe(
      false,
    );
  });

  const tools: Tool[] = [
    {
      name: 'getWeather',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
        required: ['city'],
        additionalProperties: false,
      },
    },
    {
      name: 'summarize',
      latent: true,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      outputSchema: { type: 'string' },
    },
  ];

  it('checks references, output paths, ids and meta keys', () => {
    const valid = ajv().compile(planSchema(tools));
    const ok = (call: Record<string, unknown>) => valid([call]);
    expect(ok({ _tool: 'getWeather', city: '†input.city', _outputPath: '†state.w || †state.err' })).toBe(
      true,
    );
    expect(ok({ _tool: 'getWeather', city: '†input.cities[*].name && †state["a b"][0]' })).toBe(true);
    expect(ok({ _tool: 'getWeather', city: 'Paris', _id: 'w', _outputPath: '†state.a && †state.b' })).toBe(
      true,
    );
    expect(ok({ _tool: 'getWeather', days: '†state.days' })).toBe(false); // city is required
    expect(ok({ _tool: 'getWeather', city: 'Paris', days: '3' })).toBe(false); // not a reference
    expect(ok({ _tool: 'getWeather', city: 'Paris', days: '†state.a || †state.b && †state.c' })).toBe(false);
    expect(ok({ _tool: 'getWeather', city: 'Paris', _outputPath: '†input.x' })).toBe(false);
    expect(ok({ _tool: 'getWeather', city: 'Paris', _outputPath: '†state.xs[*]' })).toBe(false);
    expect(ok({ _tool: 'getWeather', city: 'Paris', _id: '' })).toBe(false);
    expect(ok({ _tool: 'summarize', text: 'hi', _output: 'short' })).toBe(true);
    expect(ok({ _tool: 'summarize', text: 'hi', _output: 3 })).toBe(false);
    // Eager, a latent call carries its result: without it, it would not compile (E_NO_OUTPUT).
    expect(ok({ _tool: 'summarize', text: 'hi' })).toBe(false);
    expect(ajv().validate(planSchema(tools, { mode: 'lazy' }), [{ _tool: 'summarize', text: 'hi' }])).toBe(
      true,
    );
    expect(ok({ _tool: 'summarize', text: 'hi', _outputpath: '†state.s' })).toBe(false);
    // Lazy plans never carry _output.
    expect(ajv().validate(planSchema(tools, { mode: 'lazy' }), [{ _tool: 'summarize', _output: 'x' }])).toBe(
      false,
    );
    const strictLazy = planSchema(tools, { mode: 'lazy', format: 'openai-strict' }) as { properties: object };
    expect(JSON.stringify(strictLazy)).not.toContain('_output"');
  });

  it('makes optional keys nullable in strict mode, and the solution root an object (Anthropic tool input)', () => {
    const schema = planSchema(tools, { format: 'openai-strict', shape: 'solution' });
    expect(schema.type).toBe('object');
    expect(planSchema(tools, { shape: 'solution' }).type).toBe('object');
    const valid = ajv().compile(schema);
    const call = {
      _tool: 'getWeather',
      _id: null,
      _outputPath: null,
      _onError: null,
      _forEach: null,
      city: 'Paris',
      days: null,
    };
    expect(valid({ calls: [call], output: null })).toBe(true);
    expect(valid({ calls: [{ ...call, days: undefined }], output: null })).toBe(false); // all required
    expect(valid({ calls: [{ ...call, city: null }], output: null })).toBe(false); // city is required
    expect(valid({ calls: [{ ...call, extra: 1 }], output: null })).toBe(false);
  });

  it('rewrites what strict mode does not know, and the checker catches what it would refuse', () => {
    const loose: Tool = {
      name: 'loose',
      inputSchema: {
        type: 'object',
        properties: {
          any: {},
          either: { oneOf: [{ type: 'string' }, { type: 'number' }] },
          both: { allOf: [{ type: 'string' }], format: 'uri' },
          map: { type: 'object' },
          list: {
            type: 'array',
            items: { type: 'object', properties: { a: { type: 'string', format: 'uri' } } },
          },
        },
      },
    };
    expect(strictModeViolations(planSchema([loose], { format: 'openai-strict' }))).toEqual([]);
    const violations = strictModeViolations(planSchema([loose], { shape: 'solution' }));
    expect(violations.join('\n')).toMatch(/oneOf/);
    expect(violations.join('\n')).toMatch(/additionalProperties/);
    expect(strictModeViolations({ type: 'array' })).toContain('/: the root must be an object schema');
  });

  it('bounds a deeply nested tool schema to the nesting limit', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 25; i++) deep = { type: 'object', properties: { a: deep }, required: ['a'] };
    const schema = planSchema([{ name: 'deep', inputSchema: { type: 'object', properties: { x: deep } } }], {
      format: 'openai-strict',
    });
    expect(strictModeViolations(schema)).toEqual([]);
  });

  it('refuses, with a RangeError, tools that need more properties than strict mode allows', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 6000 }, (_, i) => [`p${i}`, { type: 'string' }]),
    );
    const wide: Tool = { name: 'wide', inputSchema: { type: 'object', properties } };
    expect(() => planSchema([wide], { format: 'openai-strict' })).toThrow(
      /6\d{3} properties; OpenAI strict mode allows 5000/,
    );
  });

  it('refuses an unknown option value with a TypeError naming it', () => {
    // @ts-expect-error: not a format
    expect(() => planSchema(tools, { format: 'openai' })).toThrow(
      /format must be one of json-schema, openai-strict, grammar, not "openai"/,
    );
    // @ts-expect-error: not a mode
    expect(() => planSchema(tools, { mode: 'fast' })).toThrow(TypeError);
  });

  it("keeps a tool's local $defs references working (plain format) and drops them in strict form", () => {
    const defined: Tool = {
      name: 'book',
      latent: true,
      inputSchema: {
        type: 'object',
        $defs: { when: { type: 'string', pattern: '^[0-9]{4}-' } },
        properties: { date: { $ref: '#/$defs/when' } },
        required: ['date'],
      },
      outputSchema: { type: 'boolean' },
    };
    const valid = ajv().compile(planSchema([defined]));
    expect(valid([{ _tool: 'book', date: '2026-01-01', _output: true }])).toBe(true);
    expect(valid([{ _tool: 'book', date: 'soon' }])).toBe(false);
    expect(valid([{ _tool: 'book', date: '2026-01-01', _output: 'yes' }])).toBe(false);
    expect(valid([{ _tool: 'book', date: '†input.date', _output: false }])).toBe(true);
    const strict = planSchema([defined], { format: 'openai-strict' });
    expect(strictModeViolations(strict)).toEqual([]);
    expect(
      ajv().validate(strict, {
        calls: [{ _tool: 'book', _id: null, _outputPath: null, _onError: null, _output: true, date: 'x' }],
      }),
    ).toBe(true);
  });

  it('admits a reference in place of any nested value, in both formats', () => {
    const search: Tool = {
      name: 'search',
      inputSchema: {
        type: 'object',
        properties: {
          filter: {
            type: 'object',
            properties: { city: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
            required: ['city'],
          },
        },
        required: ['filter'],
      },
    };
    const plain = ajv().compile(planSchema([search]));
    expect(plain([{ _tool: 'search', filter: { city: '†state.city', tags: ['a', '†input.tag'] } }])).toBe(
      true,
    );
    expect(plain([{ _tool: 'search', filter: { city: 'Paris', tags: '†state.tags' } }])).toBe(true);
    // Still the tool's types where a value is written, and only references that parse.
    expect(plain([{ _tool: 'search', filter: { city: 3 } }])).toBe(false);
    expect(plain([{ _tool: 'search', filter: { city: 'Paris', tags: '†stat.tags' } }])).toBe(false);
    const strictSchema = planSchema([search], { format: 'openai-strict' });
    expect(strictModeViolations(strictSchema)).toEqual([]);
    const strict = ajv().compile(strictSchema);
    // Every key strict mode declares is present: `_forEach` too, which every tool that runs offers.
    const call = { _tool: 'search', _id: null, _outputPath: null, _onError: null, _forEach: null };
    expect(strict({ calls: [{ ...call, filter: { city: '†state.city', tags: ['†input.tag'] } }] })).toBe(
      true,
    );
    expect(strict({ calls: [{ ...call, filter: { city: 3, tags: null } }] })).toBe(false);
  });

  it('writes the reference, output-path and id patterns once, under $defs', () => {
    const tools: Tool[] = Array.from({ length: 20 }, (_, i) => ({
      name: `tool${i}`,
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'number' }, c: { type: 'boolean' } },
      },
    }));
    for (const format of ['json-schema', 'openai-strict'] as const) {
      const text = JSON.stringify(planSchema(tools, { format, shape: 'solution' }));
      // The pattern's text appears once, however many tools and arguments point at it.
      expect(text.split('A reference to data').length - 1, format).toBe(1);
      expect(text.split('Where the result goes').length - 1, format).toBe(1);
      expect(text).toContain('"$ref":"#/$defs/reference"');
    }
  });

  it('offers no call at all when there is no tool', () => {
    const schema = planSchema([], { format: 'openai-strict' });
    expect(strictModeViolations(schema)).toEqual([]);
    expect(ajv().validate(schema, { calls: [] })).toBe(true);
    expect(ajv().validate(planSchema([]), [{ _tool: 'x' }])).toBe(false);
  });
});
