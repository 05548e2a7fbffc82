import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { grammarPatternViolations } from '../../src/compile/plan-schema/grammar-regex.js';
import { referencePatterns } from '../../src/compile/plan-schema/reference-regex.js';
import { compileLinearRegExp } from '../../src/tools/patterns/linear-regexp.js';
import { planSchema, type Tool, toolsFromManifest } from '../../src/index.js';
import { ENGINES, grammarEngineReport } from './grammar-engine-rules.js';

const EXAMPLES = join(import.meta.dirname, '../../fixtures/examples');
const read = (name: string, file: string) =>
  JSON.parse(readFileSync(join(EXAMPLES, name, file), 'utf8')) as unknown;

/** Tool sets: every example's tools file, and tools with the shapes the rewrite has to handle. */
const TOOL_SETS: Record<string, Tool[]> = {
  ...Object.fromEntries(
    readdirSync(EXAMPLES).map((name) => [name, toolsFromManifest(read(name, 'tools.json'), name)]),
  ),
  shapes: [
    {
      name: 'book',
      description: 'Book a trip',
      inputSchema: {
        type: 'object',
        properties: {
          traveller: {
            type: 'object',
            properties: {
              name: { type: 'string', minLength: 1 },
              address: {
                type: 'object',
                properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
                required: ['city'],
              },
            },
            required: ['name'],
          },
          cabin: { type: 'string', enum: ['economy', 'business'] },
          nights: { type: 'integer', minimum: 1, maximum: 30 },
          price: { type: ['number', 'null'], exclusiveMinimum: 0 },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
          legs: { type: 'array', items: { type: 'object', properties: { from: { type: 'string' } } } },
          when: { type: 'string', format: 'date' },
          email: { type: 'string', format: 'email' },
          code: { type: 'string', pattern: String.raw`^\d{3}-\w+$` },
          note: { description: 'anything' },
          extra: { type: 'object', additionalProperties: { type: 'integer' } },
          free: { type: 'object' },
          empty: { type: 'object', additionalProperties: false },
          either: {
            anyOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'integer' } } }],
          },
          pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
          kind: { const: 'trip' },
          check: { allOf: [{ type: 'string' }], not: { const: '' } },
        },
        required: ['traveller', 'cabin'],
      },
    },
    {
      name: 'summarize',
      description: 'Summarize a text',
      latent: true,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      outputSchema: {
        type: 'object',
        properties: { summary: { type: 'string', maxLength: 200 }, score: { type: 'number' } },
      },
    },
    { name: 'ping', inputSchema: { type: 'object' } },
  ],
  none: [],
};

const VARIANTS = [
  { shape: 'calls', mode: 'eager' },
  { shape: 'solution', mode: 'eager' },
  { shape: 'calls', mode: 'lazy' },
] as const;

describe("planSchema format 'grammar'", () => {
  for (const [name, tools] of Object.entries(TOOL_SETS)) {
    it(`is turned into grammar whole by every engine: ${name}`, () => {
      for (const { shape, mode } of VARIANTS) {
        const schema = planSchema(tools, { format: 'grammar', shape, mode });
        for (const engine of ENGINES) {
          const report = grammarEngineReport(schema, engine);
          expect(report.violations, `${engine} ${shape} ${mode}`).toEqual([]);
          // node-llama-cpp has no patterns: references go unchecked by it (the compiler checks).
          expect(report.unenforced, engine).toEqual(engine === 'node-llama-cpp' ? ['pattern'] : []);
        }
      }
    });
  }

  it('the checker fails the other formats: \\s, (?:, anyOf, if and not', () => {
    const tools = TOOL_SETS['weather-branch']!;
    const strict = planSchema(tools, { format: 'openai-strict' });
    const llama = grammarEngineReport(strict, 'llama.cpp').violations;
    expect(llama.some((v) => v.startsWith('/$defs/reference: pattern: \\s admits'))).toBe(true);
    expect(llama.some((v) => v.startsWith('/$defs/outputPath: pattern: a (?: group'))).toBe(true);
    expect(llama.some((v) => v.startsWith('/$defs/onError: pattern:'))).toBe(true);
    expect(grammarEngineReport(strict, 'node-llama-cpp').violations).toContainEqual(
      expect.stringMatching(/anyOf is not turned into grammar/),
    );
    for (const engine of ['xgrammar', 'outlines'] as const) {
      // Their regex engines know \s, but a pattern that admits " or \ cannot be followed in JSON text.
      expect(grammarEngineReport(strict, engine).violations).toContainEqual(
        expect.stringMatching(/^\/\$defs\/reference: pattern: .*JSON text/),
      );
    }
    const plain = grammarEngineReport(planSchema(tools), 'llama.cpp').violations;
    expect(plain).toContainEqual(expect.stringMatching(/ if is not turned into grammar/));
    expect(plain).toContainEqual(expect.stringMatching(/ propertyNames is not turned into grammar/));
  });

  it('uses oneOf only, lists and closes every object, and makes optional keys nullable', () => {
    const schema = planSchema(TOOL_SETS.shapes!, { format: 'grammar', shape: 'solution' });
    expect(JSON.stringify(schema)).not.toContain('"anyOf"');
    const calls = (schema.properties as Record<string, Record<string, unknown>>).calls!;
    const [book] = (calls.items as { oneOf: Record<string, unknown>[] }).oneOf;
    const properties = book!.properties as Record<string, Record<string, unknown>>;
    expect(book!.required).toEqual(Object.keys(properties));
    expect(book!.additionalProperties).toBe(false);
    expect(properties.cabin).toEqual({
      oneOf: [{ enum: ['economy', 'business'] }, { $ref: '#/$defs/reference' }],
    });
    // Optional: the model writes null for it.
    expect(properties.when).toEqual({
      oneOf: [{ type: 'string', format: 'date' }, { $ref: '#/$defs/reference' }, { type: 'null' }],
    });
    // Kept: a pattern in the shared subset. Dropped: \d and \w, email, minimum, uniqueItems.
    const address = (properties.traveller!.oneOf as Record<string, unknown>[])[0]!;
    const zip = JSON.stringify((address.properties as Record<string, unknown>).address);
    expect(zip).toContain('"pattern":"^[0-9]{5}$"');
    expect(properties.code!.oneOf).toContainEqual({ type: 'string' });
    expect(properties.email!.oneOf).toContainEqual({ type: 'string' });
    expect(properties.nights!.oneOf).toContainEqual({ type: 'integer' });
    expect(JSON.stringify(properties.tags)).not.toContain('uniqueItems');
    // A free-form object says so (node-llama-cpp's default is closed).
    expect(properties.free!.oneOf).toContainEqual({ type: 'object', additionalProperties: true });
  });

  it('admits every example plan, with null for the keys it leaves out, read as the decoders read it', () => {
    for (const name of readdirSync(EXAMPLES)) {
      const schema = planSchema(TOOL_SETS[name]!, { format: 'grammar', mode: 'lazy' });
      const validate = ajv().compile(asDecoded(schema));
      const document = read(name, 'plan.json');
      const calls = callsOf(document).map((call) => withNulls(call, schema));
      expect(validate(calls), `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
      expect(validate([{ ...calls[0], _tool: 'noSuchTool' }])).toBe(false);
      expect(validate([{ ...calls[0], _outputPath: 'state.x' }])).toBe(false);
    }
  });
});

/** A reference table: the normal and grammar patterns agree on each, but for the rows that say why not. */
const REFERENCES: {
  text: string;
  kinds: ('argument' | 'forEach' | 'outputPath' | 'onError')[];
  grammarRejects?: string;
}[] = [
  { text: '†input.city', kinds: ['argument', 'forEach'] },
  { text: '†state.weather.temp', kinds: ['argument', 'forEach', 'outputPath', 'onError'] },
  { text: '†state.list[0].name', kinds: ['argument', 'forEach', 'outputPath', 'onError'] },
  { text: '†state.a || †state.b', kinds: ['argument', 'forEach', 'outputPath'] },
  { text: '†state.a||†state.b', kinds: ['argument', 'forEach', 'outputPath'] },
  { text: '†state.a && †state.b', kinds: ['argument', 'forEach', 'outputPath'] },
  { text: '†input.items[*].id', kinds: ['argument', 'forEach'] },
  { text: "†state.hotels[?(@.pets==true && @.city=='Paris')]", kinds: ['argument', 'forEach'] },
  { text: '†state.rows[1:3]', kinds: ['argument', 'forEach'] },
  { text: '†state.rows[-1]', kinds: ['argument', 'forEach'] },
  { text: '†state.rows[0,2]', kinds: ['argument', 'forEach'] },
  { text: '†state..name', kinds: ['argument', 'forEach'] },
  { text: '†state.$meta.x-y', kinds: ['argument', 'forEach', 'outputPath', 'onError'] },
  { text: '†item', kinds: ['argument'] },
  { text: '†item.price', kinds: ['argument'] },
  { text: '†index', kinds: ['argument'] },
  // Invalid everywhere.
  { text: 'state.city', kinds: [] },
  { text: '†', kinds: [] },
  { text: '†output.x', kinds: [] },
  { text: ' †state.a', kinds: [] },
  { text: '†state.a ||', kinds: [] },
  { text: '†state.a || †state.b && †state.c', kinds: [] },
  { text: '†state.a[x]', kinds: [] },
  { text: '†state.1a.b', kinds: [] },
  { text: '†item || †state.a', kinds: [] },
  { text: '†index.x', kinds: [] },
  { text: '†state.a[01:2]', kinds: [] },
  { text: '', kinds: [] },
  // The grammar patterns admit nothing the JSON text would escape.
  {
    text: '†state["a b"]',
    kinds: ['argument', 'forEach', 'outputPath', 'onError'],
    grammarRejects: 'a quoted key: its quotes are \\" in the JSON text',
  },
  {
    text: '†state.a\t||\t†state.b',
    kinds: ['argument', 'forEach', 'outputPath'],
    grammarRejects: 'a tab around ||: only spaces',
  },
  {
    text: '†state.a[?(@.city=="Paris")]',
    kinds: ['argument', 'forEach'],
    grammarRejects: '" in a filter (the compiler refuses it too: text in a filter is in single quotes)',
  },
];

describe('the grammar patterns accept and reject the references the normal ones do', () => {
  const ecma = referencePatterns('ecma');
  const grammar = referencePatterns('grammar');
  const pairs = {
    argument: [ecma.argumentReference, grammar.argumentReference],
    forEach: [ecma.reference, grammar.reference],
    outputPath: [ecma.outputPath, grammar.outputPath],
    onError: [ecma.onError, grammar.onError],
  } as const;

  for (const [kind, [normal, subset]] of Object.entries(pairs)) {
    it(kind, () => {
      const engines = [
        (p: string) => new RegExp(p, 'u'),
        (p: string) => compileLinearRegExp(p), // planmode's own pattern engine (RE2)
      ];
      for (const compileWith of engines) {
        const [n, g] = [compileWith(normal), compileWith(subset)];
        for (const row of REFERENCES) {
          const valid = row.kinds.includes(kind as never);
          expect(n.test(row.text), `${kind} normal ${JSON.stringify(row.text)}`).toBe(valid);
          const expected = valid && row.grammarRejects === undefined;
          expect(g.test(row.text), `${kind} grammar ${JSON.stringify(row.text)}`).toBe(expected);
        }
      }
    });
  }

  it('are in every engine regex subset, and the normal ones are not', () => {
    for (const engine of ['llama.cpp', 'xgrammar', 'outlines'] as const) {
      for (const pattern of Object.values(grammar))
        expect(grammarPatternViolations(pattern, engine)).toEqual([]);
      expect(grammarPatternViolations(ecma.reference, engine)).not.toEqual([]);
    }
    expect(grammarPatternViolations(ecma.reference, 'llama.cpp')).toContainEqual(
      expect.stringMatching(/^\\s admits/),
    );
  });
});

const ajv = () => new Ajv2020({ strict: false, allErrors: true, logger: false });

/** The schema as the decoders read it: each `oneOf` as "any one of" (node-llama-cpp, llama.cpp, xgrammar, Outlines). */
function asDecoded(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema).replaceAll('"oneOf":', '"anyOf":')) as Record<string, unknown>;
}

function callsOf(document: unknown): Record<string, unknown>[] {
  if (Array.isArray(document)) {
    const plan = document.find((m: Record<string, unknown>) => m.type === 'plan') as
      Record<string, unknown> | undefined;
    return (plan ? plan.plan : document) as Record<string, unknown>[];
  }
  const object = document as Record<string, unknown>;
  return (object.type === 'plan' ? object.plan : object.calls) as Record<string, unknown>[];
}

/** A call as node-llama-cpp writes it: every key the schema lists, null when left out. */
function withNulls(call: Record<string, unknown>, schema: Record<string, unknown>): Record<string, unknown> {
  const items = schema.items as Record<string, unknown>;
  const variants = (items.oneOf ?? [items]) as Record<string, unknown>[];
  const variant = variants.find(
    (v) => (v.properties as Record<string, { const: string } | undefined>)._tool?.const === call._tool,
  );
  const filled: Record<string, unknown> = {};
  for (const key of Object.keys((variant?.properties ?? {}) as object)) filled[key] = call[key] ?? null;
  return { ...filled, ...call };
}
