/** schemas/: the plan document, the tool manifest and the `validate --json` output, checked against real files and outputs. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toValidateJson as cliValidateJson } from '../../src/cli/commands/validate.js';
import { type CompileResult, compile } from '../../src/compile/index.js';
import { DIAGNOSTIC_CODES, type JsonObject, parseString } from '../../src/language/index.js';
import { type Tool, ToolRegistry } from '../../src/tools/index.js';
import {
  EXAMPLES,
  exampleNames,
  INVALID,
  loadExample,
  loadInvalidExpectations,
  manifestPaths,
  readJson,
} from '../fixtures/fixtures.js';
import { errorsOf, readSchema, SCHEMA_FILES, validator } from './ajv.js';

/** What `plan validate --json` prints for a compile result (SPEC 12). */
function toValidateJson(result: CompileResult) {
  const plan = result.plan;
  return {
    ok: result.ok,
    mode: plan?.mode ?? result.document?.mode ?? 'eager',
    calls: result.document?.calls.length ?? 0,
    edges: plan?.edgeCount ?? 0,
    order: plan ? plan.order.map((i) => plan.calls[i]!.id) : [],
    diagnostics: result.diagnostics,
  };
}

describe('schemas/', () => {
  it.each(SCHEMA_FILES)(
    '%s is a described draft 2020-12 schema with an $id that strict ajv compiles',
    (file) => {
      const schema = readSchema(file);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toMatch(/^urn:planmode:schema:/);
      expect(schema.title).toBeTypeOf('string');
      expect(schema.description).toBeTypeOf('string');
      expect(validator(file)).toBeTypeOf('function');
    },
  );

  it('gives every definition a description', () => {
    for (const file of SCHEMA_FILES) {
      const defs = (readSchema(file).$defs ?? {}) as Record<string, JsonObject>;
      for (const [name, def] of Object.entries(defs))
        expect(def.description, `${file} $defs/${name}`).toBeTypeOf('string');
    }
  });
});

describe('schemas/plan.schema.json', () => {
  it.each(exampleNames())('accepts the example %s', (name) => {
    expect(errorsOf('plan.schema.json', readJson(join(EXAMPLES, name, 'plan.json')))).toEqual([]);
  });

  const expectations = loadInvalidExpectations();
  it.each(Object.keys(expectations).filter((file) => expectations[file]!.schemaValid !== null))(
    'judges the invalid fixture %s as expected.json says',
    (file) => {
      const valid = validator('plan.schema.json')(readJson(join(INVALID, file)));
      expect(valid).toBe(expectations[file]!.schemaValid);
    },
  );

  it('leaves only the fixtures that are not strict JSON out', () => {
    const skipped = Object.entries(expectations).filter(([, f]) => f.schemaValid === null);
    expect(skipped.map(([file]) => file)).toEqual(['E_JSON.json', 'W_JSON_EXTENSION.json']);
    for (const [file] of skipped) {
      expect(() => JSON.parse(readFileSync(join(INVALID, file), 'utf8'))).toThrow();
    }
  });

  const call = { _tool: 'getWeather', city: 'Paris' };
  it.each<[string, unknown, boolean]>([
    ['an empty call array', [], true],
    ['a plan message without mode', { type: 'plan', plan: [call] }, true],
    ['a solution without output', { calls: [call] }, true],
    [
      'a context array with input, state and plan',
      [
        { type: 'input', city: 'Paris' },
        { type: 'state', schema: true, x: 1 },
        { type: 'plan', plan: [] },
      ],
      true,
    ],
    ['a context array without a plan message', [{ type: 'input', city: 'Paris' }], false],
    [
      'a context array with two plan messages',
      [
        { type: 'plan', plan: [] },
        { type: 'plan', plan: [] },
      ],
      false,
    ],
    ['a plan message with an unknown mode', { type: 'plan', mode: 'now', plan: [] }, false],
    ['a plan message with an unknown key', { type: 'plan', plan: [], calls: [] }, false],
    ['a solution with an unknown key', { calls: [], output: null, plan: [] }, false],
    ['a lone input message', { type: 'input', city: 'Paris' }, false],
    [
      'a request whose context has no plan message',
      { schema: { type: 'object' }, context: [{ type: 'input', city: 'Paris' }] },
      true,
    ],
    ['a request whose context is calls, without a schema', { context: [call] }, true],
    ['a request without context', { schema: { type: 'object' } }, false],
    ['a request with an unknown key', { schema: true, context: [], config: {} }, false],
    ['a request whose schema is a number', { schema: 3, context: [] }, false],
    ['a call with an empty _tool', [{ _tool: '' }], false],
    ['a call with a numeric _id', [{ ...call, _id: 1 }], false],
    ['_output in an eager plan', { type: 'plan', plan: [{ ...call, _output: { sunny: true } }] }, true],
    [
      '_output in a lazy plan',
      { type: 'plan', mode: 'lazy', plan: [{ ...call, _output: { sunny: true } }] },
      false,
    ],
    ['a †† literal argument', [{ ...call, note: '††state is text' }], true],
    ['a † inside text', [{ ...call, note: 'see †state.x' }], true],
    [
      'references deep inside arguments',
      [{ ...call, filter: { any: [{ id: '†state.items[*].id' }, 3, null, true] } }],
      true,
    ],
    [
      'a broken reference deep inside arguments',
      [{ ...call, filter: { any: [{ id: '†state.items[' }] } }],
      false,
    ],
    [
      'an argument whose name starts with a letter, digit or is empty',
      [{ ...call, a_b: 1, '1': 2, '': 3 }],
      true,
    ],
  ])('%s: %s', (_what, document, valid) => {
    expect(validator('plan.schema.json')(document)).toBe(valid);
  });

  /** Strings in argument position: the schema agrees with the compiler's reference parser. */
  const READS = [
    '†input',
    '†state',
    '†state.a',
    '†state.a.b[0].c',
    '†state.items[*].id',
    '†state.items[*][*]',
    '†state["a b"]',
    '†state["say \\"hi\\""]',
    '†state.0',
    '†state.a-b.$c._d',
    '†state.a || †state.b',
    '†state.a&&†state.b',
    '†input.x || †state.y || †state.z',
    '†state.a ',
    '†state.a || †state.b\t',
    '†state.m.01',
    '†state.m[007]',
    '†state.m.10[0]',
    '†state.constructorX',
    '†',
    '†stat.a',
    '†inputs.a',
    '†state.',
    '†state..a',
    '†state[',
    '†state[0',
    '†state[x]',
    '†state[-1]',
    '†state.1a',
    '†state.a b',
    '†state.a ||',
    '†state.a || ',
    '†state.a | †state.b',
    '†state.a || state.b',
    '†state.a || †state.b && †state.c',
    '†state.a && †state.b || †state.c',
    '†state.__proto__',
    '†state.a.prototype.b',
    '†state["constructor"]',
    '†input.constructor || †state.a',
    // JSONPath selections (the filter's expression is the compiler's alone: these agree).
    '†state.flights[?(@.price < 300)]',
    "†state.flights[?(@.city == 'Paris' && @.tags[0] != 'x')].id",
    '†state.a[?(@.x > 1 || @.y)] || †state.b',
    '†state.a[0:3]',
    '†state.a[-2:]',
    '†state.a[:3]',
    '†state.a[::2]',
    '†state.a[1:5:2][*].x',
    '†state.a[-1]',
    '†state.a[-1].name',
    '†state.a[0,2]',
    '†state.a[0,2,10]',
    '†state.doc..title',
    '†state..title',
    '†state.a..b..c[0]',
    '†state.a[?(@.constructor)]',
    '†state.a..constructor',
    '†state.a[1:2:0]',
    '†state.a[-0]',
    '†state.a[01:2]',
    '†state.a[0, 2]',
    '†state.a[?(@.x > 1)',
    '†state.a...b',
    '†state.a..1',
  ];
  it.each(READS)('reads %j as the compiler does', (text) => {
    const compilerAccepts = parseString(text).kind !== 'error';
    expect(validator('plan.schema.json')([{ _tool: 't', x: text }])).toBe(compilerAccepts);
  });

  const WRITES = [
    '†state',
    '†state.a',
    '†state.a.b[0]',
    '†state["a b"]',
    '†state.ok || †state.error',
    '†state.a && †state.b.c',
    '†input.a',
    '†state.a || †input.b',
    '†state.items[*]',
    '†state.a[*].b',
    'state.a',
    '††state.a',
    '',
    '†state.a || †state.b && †state.c',
    '†state.__proto__.x',
    '†sate.a',
  ];
  it.each(WRITES)('accepts _outputPath %j exactly when the compiler does', (text) => {
    const result = compile([{ _tool: 't', _outputPath: text }]);
    expect(validator('plan.schema.json')([{ _tool: 't', _outputPath: text }])).toBe(result.ok);
  });
});

describe('schemas/tool-manifest.schema.json', () => {
  it.each(manifestPaths().map((path) => [path.slice(path.indexOf('fixtures/')), path]))(
    'accepts %s',
    (_name, path) => {
      const manifest = readJson<{ tools: Tool[] }>(path);
      expect(errorsOf('tool-manifest.schema.json', manifest)).toEqual([]);
      // and the registry takes what the schema accepts
      expect(new ToolRegistry(manifest.tools).size).toBe(manifest.tools.length);
    },
  );

  const tool = { name: 'getWeather' };
  it.each<[string, unknown, boolean]>([
    ['a bare name', { tools: [tool] }, true],
    ['no tools at all', { tools: [] }, true],
    ['a $schema key for editors', { $schema: '../schemas/tool-manifest.schema.json', tools: [tool] }, true],
    [
      'every flag',
      {
        tools: [
          {
            ...tool,
            latent: false,
            needsApproval: true,
            errorBranch: false,
            timeoutMs: 500,
            retries: { limit: 2, delayMs: 10, maxDelayMs: 100, factor: 3 },
            estimatedMs: 40,
          },
        ],
      },
      true,
    ],
    ['boolean schemas', { tools: [{ ...tool, inputSchema: true, outputSchema: false }] }, true],
    ['a bare array', [tool], false],
    ['a tool without a name', { tools: [{ description: 'x' }] }, false],
    ['an empty name', { tools: [{ name: '' }] }, false],
    ['execute in JSON', { tools: [{ ...tool, execute: 'return 1' }] }, false],
    ['a misspelled flag', { tools: [{ ...tool, needsAproval: true }] }, false],
    ['a flag of the wrong type', { tools: [{ ...tool, latent: 'yes' }] }, false],
    ['negative retries', { tools: [{ ...tool, retries: -1 }] }, false],
    ['a retry policy without a limit', { tools: [{ ...tool, retries: { delayMs: 10 } }] }, false],
    [
      'an annotation of the wrong type',
      { tools: [{ ...tool, annotations: { readOnlyHint: 'true' } }] },
      false,
    ],
    ['a schema that is a string', { tools: [{ ...tool, inputSchema: 'object' }] }, false],
  ])('%s: %s', (_what, manifest, valid) => {
    expect(validator('tool-manifest.schema.json')(manifest)).toBe(valid);
  });
});

describe('schemas/validate-output.schema.json', () => {
  const schema = readSchema('validate-output.schema.json') as {
    $defs: { diagnostic: { properties: { code: { enum: string[] } } } };
  };

  it('enumerates exactly the diagnostic codes of SPEC 11', () => {
    expect(schema.$defs.diagnostic.properties.code.enum).toEqual([...DIAGNOSTIC_CODES]);
  });

  it('describes the output for a valid plan', () => {
    const example = loadExample('weather-branch');
    const output = toValidateJson(compile(example.text, { tools: example.tools, input: example.input }));
    expect(output).toMatchObject({
      ok: true,
      mode: 'eager',
      calls: 4,
      edges: 4,
      order: ['weather', 'park', 'movie', 'present'],
    });
    expect(errorsOf('validate-output.schema.json', output)).toEqual([]);
    expect(errorsOf('validate-output.schema.json', JSON.parse(JSON.stringify(output)))).toEqual([]);
  });

  it('describes the output for a plan with warnings only', () => {
    const text = readFileSync(join(INVALID, 'W_MULTIPLE_WRITERS.json'), 'utf8');
    const output = toValidateJson(compile(text));
    expect(output.ok).toBe(true);
    expect(output.diagnostics.length).toBeGreaterThan(0);
    expect(errorsOf('validate-output.schema.json', output)).toEqual([]);
  });

  it.each(readdirSync(INVALID).filter((f) => /^E_[A-Z_]+\.json$/.test(f)))(
    'describes the output for the invalid plan %s',
    (file) => {
      const fixture = loadInvalidExpectations()[file]!;
      const result = compile(readFileSync(join(INVALID, file), 'utf8'), {
        ...(fixture.tools && { tools: readJson<{ tools: Tool[] }>(join(INVALID, fixture.tools)).tools }),
        ...(fixture.input && { input: readJson<JsonObject>(join(INVALID, fixture.input)) }),
        ...(fixture.limits && { limits: fixture.limits }),
      });
      const output = toValidateJson(result);
      expect(output.ok).toBe(false);
      expect(output.order).toEqual([]);
      expect(errorsOf('validate-output.schema.json', output)).toEqual([]);
    },
  );

  it("matches what the CLI's validate --json prints, for every fixture", () => {
    const texts = [
      ...exampleNames().map((name) => loadExample(name).text),
      ...readdirSync(INVALID)
        .filter((f) => /^[A-Z_]+\.json$/.test(f))
        .map((f) => readFileSync(join(INVALID, f), 'utf8')),
    ];
    for (const text of texts) {
      const result = compile(text);
      expect(cliValidateJson(result)).toEqual(toValidateJson(result));
      expect(errorsOf('validate-output.schema.json', cliValidateJson(result))).toEqual([]);
    }
  });

  it('rejects outputs that contradict themselves or SPEC 11', () => {
    const valid = toValidateJson(compile('[{"_tool": "a", "x": "†state.nope"}]'));
    const validate = validator('validate-output.schema.json');
    expect(validate(valid)).toBe(true);
    expect(validate({ ...valid, ok: true })).toBe(false); // ok with an error in it
    expect(validate({ ...valid, order: ['0'] })).toBe(false); // an order for an invalid plan
    expect(validate({ ...valid, diagnostics: [{ ...valid.diagnostics[0], code: 'E_NOPE' }] })).toBe(false);
    expect(validate({ ...valid, diagnostics: [{ ...valid.diagnostics[0], line: 0 }] })).toBe(false);
    expect(validate({ ...valid, diagnostics: [{ ...valid.diagnostics[0], pointer: 'calls/0' }] })).toBe(
      false,
    );
    expect(validate({ ...valid, mode: 'hasty' })).toBe(false);
    expect(validate({ ...valid, extra: 1 })).toBe(false);
  });
});
