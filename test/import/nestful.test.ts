/**
 * The NESTFUL reader on small hand-written samples: what each construct of the data becomes,
 * what it warns about, and rows that are not samples.
 */
import { describe, expect, it } from 'vitest';
import { importPlans } from '../../src/import/index.js';
import { compile, ToolRegistry, toolsFromManifest } from '../../src/index.js';

const SPEC = JSON.stringify(
  [
    {
      name: 'Distance',
      description: 'Distance between two cities',
      query_parameters: {
        from: { type: 'String', required: true },
        to: { type: 'str', required: true },
        unit: { type: 'Enum', allowed_values: ['km', 'mi'], required: false },
        when: { type: 'Date (yyyy-mm-dd)', required: false },
      },
      output_parameters: {
        distance: { type: 'Number' },
        route: { type: 'Array' },
        'Exchange Rate': { type: 'float' },
      },
    },
    {
      name: 'Fare',
      parameters: {
        km: { type: 'number', required: true },
        tags: { type: 'array', items: { type: 'string' } },
      },
      output_parameters: { price: { type: 'number' } },
    },
  ],
  null,
  2,
);

/** Imports `samples` as a NESTFUL data file over SPEC. */
function importSamples(samples: unknown): ReturnType<typeof importPlans> {
  return importPlans('nestful', JSON.stringify(samples, null, 2), { spec: SPEC });
}

function callsOf(document: readonly unknown[]): Record<string, unknown>[] {
  return (document.at(-1) as { plan: Record<string, unknown>[] }).plan;
}

describe('importPlans nestful', () => {
  it('maps labels, whole and field references, var_result and the task', () => {
    const result = importSamples([
      {
        input: 'How far and how much?',
        output: [
          { name: 'Distance', arguments: { from: 'Paris', to: 'Lyon' }, label: 'var1' },
          { name: 'Fare', arguments: { km: '$var1.distance$' }, label: '$var2' },
          { name: 'var_result', arguments: { distance: '$var1.distance$', fare: '$var2$' } },
        ],
      },
    ]);
    expect(result.errors).toEqual([]);
    const [sample] = result.samples;
    expect(sample!.id).toBe('nestful-1');
    expect(sample!.task).toBe('How far and how much?');
    expect(sample!.line).toBe(2);
    expect(sample!.warnings.filter((w) => w.code !== 'W_IMPORT_TYPE')).toEqual([]);
    expect(sample!.plan[0]).toEqual({ type: 'input', task: 'How far and how much?' });
    expect(callsOf(sample!.plan)).toEqual([
      { _id: 'var1', _tool: 'Distance', from: 'Paris', to: 'Lyon', _outputPath: '†state.var1' },
      { _id: 'var2', _tool: 'Fare', km: '†state.var1.distance', _outputPath: '†state.var2' },
      {
        _tool: 'var_result',
        distance: '†state.var1.distance',
        fare: '†state.var2',
        _outputPath: '†state.result',
      },
    ]);
    const compiled = compile(sample!.plan, {
      tools: new ToolRegistry(toolsFromManifest(sample!.tools, 'tools.json')),
    });
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(compiled.plan!.mode).toBe('lazy');
  });

  it("maps the spec's types, required parameters and closed, required outputs", () => {
    const { samples } = importSamples([
      { input: 'x', output: [{ name: 'Fare', arguments: { km: 3 }, label: 'var1' }] },
    ]);
    const tools = samples[0]!.tools.tools;
    expect(tools.map((t) => t.name)).toEqual(['Distance', 'Fare']);
    expect(tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: {
        from: { type: 'string' },
        to: { type: 'string' },
        unit: { enum: ['km', 'mi'] },
        when: {},
      },
      required: ['from', 'to'],
    });
    expect(tools[0]!.outputSchema).toEqual({
      type: 'object',
      properties: {
        distance: { type: 'number' },
        route: { type: 'array' },
        'Exchange Rate': { type: 'number' },
      },
      required: ['distance', 'route', 'Exchange Rate'],
      additionalProperties: false,
    });
    expect(tools[1]!.inputSchema).toEqual({
      type: 'object',
      properties: { km: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['km'],
    });
  });

  it('warns about a type name it cannot map only in samples that call that API', () => {
    const { samples } = importSamples([
      { input: 'a', output: [{ name: 'Distance', arguments: { from: 'a', to: 'b' }, label: 'var1' }] },
      { input: 'b', output: [{ name: 'Fare', arguments: { km: 1 }, label: 'var1' }] },
    ]);
    expect(samples[0]!.warnings.map((w) => [w.code, w.file, w.line])).toEqual([['W_IMPORT_TYPE', 'spec', 2]]);
    expect(samples[0]!.warnings[0]!.message).toContain('"Date (yyyy-mm-dd)"');
    expect(samples[1]!.warnings).toEqual([]);
  });

  it('brackets keys that are not plain names, and keeps indices', () => {
    const { samples } = importSamples([
      {
        input: 'x',
        output: [
          { name: 'Distance', arguments: { from: 'a', to: 'b' }, label: 'var1' },
          {
            name: 'Fare',
            arguments: { km: '$var1.Exchange Rate$', tags: ['$var1.route[0].name$'] },
            label: 'var2',
          },
        ],
      },
    ]);
    expect(callsOf(samples[0]!.plan)[1]).toMatchObject({
      km: '†state.var1["Exchange Rate"]',
      tags: ['†state.var1.route[0].name'],
    });
  });

  it('keeps an embedded reference as text, warns, and orders the call after its producer', () => {
    const { samples } = importSamples([
      {
        input: 'x',
        output: [
          { name: 'Distance', arguments: { from: 'a', to: 'b' }, label: 'var1' },
          { name: 'Fare', arguments: { km: '5 * $var1.Exchange Rate$' }, label: 'var2' },
        ],
      },
    ]);
    const sample = samples[0]!;
    expect(callsOf(sample.plan)[1]).toEqual({
      _id: 'var2',
      _tool: 'Fare',
      km: '5 * $var1.Exchange Rate$',
      _after: ['var1'],
      _outputPath: '†state.var2',
    });
    expect(sample.warnings.map((w) => w.code)).toContain('W_IMPORT_EMBEDDED_REFERENCE');
  });

  it('warns about malformed references and labels no call has', () => {
    const { samples } = importSamples([
      {
        input: 'x',
        output: [
          { name: 'Distance', arguments: { from: 'var1.distance$', to: '$var9.distance$' }, label: 'var1' },
        ],
      },
    ]);
    const sample = samples[0]!;
    expect(sample.warnings.map((w) => w.code).filter((c) => c !== 'W_IMPORT_TYPE')).toEqual([
      'W_IMPORT_MALFORMED_REFERENCE',
      'W_IMPORT_UNKNOWN_REFERENCE',
    ]);
    // The malformed one stays text; the unknown label stays a reference the compiler names.
    expect(callsOf(sample.plan)[0]).toMatchObject({ from: 'var1.distance$', to: '†state.var9.distance' });
    const compiled = compile(sample.plan, {
      tools: new ToolRegistry(toolsFromManifest(sample.tools, 'tools.json')),
    });
    expect(compiled.diagnostics.map((d) => d.code)).toContain('E_UNRESOLVED');
  });

  it('leaves out arguments named like planmode meta keys, with a warning', () => {
    const { samples } = importSamples([
      { input: 'x', output: [{ name: 'Fare', arguments: { km: 1, _tool: 'evil' }, label: 'var1' }] },
    ]);
    expect(callsOf(samples[0]!.plan)[0]).toEqual({
      _id: 'var1',
      _tool: 'Fare',
      km: 1,
      _outputPath: '†state.var1',
    });
    expect(samples[0]!.warnings.map((w) => w.code)).toEqual(['W_IMPORT_UNSUPPORTED']);
  });

  it('reports a malformed row with its line and imports the others', () => {
    const rows = [
      { input: 'ok', output: [{ name: 'Fare', arguments: { km: 1 }, label: 'var1' }] },
      { input: 'no output' },
      { input: 'bad call', output: [{ arguments: {} }] },
      'not a sample',
      { input: 'ok too', output: [] },
    ];
    const text = JSON.stringify(rows, null, 2);
    const result = importPlans('nestful', text, { spec: SPEC });
    // Where each row starts in the text: its first line.
    const lineOf = (marker: string): number => text.slice(0, text.indexOf(marker)).split('\n').length;
    expect(result.samples.map((s) => s.id)).toEqual(['nestful-1', 'nestful-5']);
    expect(result.errors.map((e) => [e.code, e.line, e.sample])).toEqual([
      ['E_IMPORT_ROW', lineOf('"no output"') - 1, 'nestful-2'],
      ['E_IMPORT_ROW', lineOf('"bad call"') - 1, 'nestful-3'],
      ['E_IMPORT_ROW', lineOf('"not a sample"'), 'nestful-4'],
    ]);
    expect(result.errors[1]!.message).toBe(
      'sample 3: call 0 needs a non-empty string "name"; it is left out',
    );
  });

  it('needs the spec, and says where a file is not JSON', () => {
    expect(importPlans('nestful', '[]').errors).toMatchObject([{ code: 'E_IMPORT_FILE', file: 'spec' }]);
    const broken = importPlans('nestful', '[\n  {"input": 1,}\n]', { spec: SPEC });
    expect(broken.errors).toMatchObject([{ code: 'E_IMPORT_FILE', file: 'data', line: 2 }]);
    expect(importPlans('nestful', '{}', { spec: SPEC }).errors[0]!.message).toBe(
      'the data must be a JSON array of samples, got an object',
    );
    expect(importPlans('nestful', '[]', { spec: '[{"name": 1}]' }).errors).toMatchObject([
      { code: 'E_IMPORT_ROW', file: 'spec', line: 1 },
    ]);
  });

  it('keeps the first of two different definitions of an API, and ignores an identical copy', () => {
    const spec = JSON.stringify([
      { name: 'A', output_parameters: { x: { type: 'int' } } },
      { name: 'A', output_parameters: { x: { type: 'int' } } },
      { name: 'A', output_parameters: { y: { type: 'int' } } },
    ]);
    const result = importPlans(
      'nestful',
      JSON.stringify([{ input: 'x', output: [{ name: 'A', label: 'var1' }] }]),
      {
        spec,
      },
    );
    expect(result.errors.map((e) => [e.code, e.file, e.message])).toEqual([
      [
        'E_IMPORT_ROW',
        'spec',
        'the spec defines the API "A" again, differently; the first definition is kept',
      ],
    ]);
    expect(result.samples[0]!.tools.tools[0]!.outputSchema).toMatchObject({
      properties: { x: { type: 'integer' } },
    });
  });

  it('bounds hostile data: deep arguments, deep spec schemas, sample counts, sizes', () => {
    // Built as text: JSON.stringify itself recurses.
    const deep = `${'['.repeat(100_000)}"$var1.distance$"${']'.repeat(100_000)}`;
    const deepRow = importPlans(
      'nestful',
      `[{"input": "x", "output": [{"name": "Fare", "arguments": {"km": ${deep}}}]}]`,
      {
        spec: SPEC,
      },
    );
    expect(deepRow.errors[0]!.message).toContain('nested more than 64 levels deep');
    const nested = (depth: number): string =>
      `${'{"type": "array", "items": '.repeat(depth)}{"type": "string"}${'}'.repeat(depth)}`;
    const specWith = (depth: number) =>
      importPlans('nestful', JSON.stringify([{ input: 'x', output: [{ name: 'D', arguments: {} }] }]), {
        spec: `[{"name": "D", "query_parameters": {"p": ${nested(depth)}}}]`,
      });
    // Past the converter's depth: that level is left untyped, and said.
    expect(specWith(40).samples[0]!.warnings.map((w) => w.message)).toEqual([
      'the API "D" gives input.p' +
        '.items'.repeat(32) +
        ' the type "nested past 32 levels", which has no JSON Schema type: it is left untyped',
    ]);
    // Past what any JSON value may be: the API is not read at all.
    expect(specWith(10_000).errors.map((e) => [e.code, e.file])).toEqual([['E_IMPORT_ROW', 'spec']]);
    expect(specWith(10_000).errors[0]!.message).toMatch(/^the API "D" cannot be read: .*; it is left out$/);
    const many = importPlans('nestful', JSON.stringify(Array.from({ length: 5 }, () => ({ output: [] }))), {
      spec: '[]',
      maxSamples: 2,
    });
    expect(many.samples).toHaveLength(2);
    expect(many.errors[0]!.message).toBe(
      'more than 2 samples (maxSamples): the sample at line 1 and the 2 after it are not imported',
    );
    expect(importPlans('nestful', '[]', { spec: '[]', maxBytes: 1 }).errors[0]!.message).toBe(
      'the data file is over 1 bytes (maxBytes)',
    );
  });

  it('refuses options that cannot be used, with the bad value', () => {
    expect(() => importPlans('nestful', '[]', { idPrefix: '../x' })).toThrow(/idPrefix .* got \.\.\/x/);
    expect(() => importPlans('csv' as never, '')).toThrow(/format .* got csv/);
    expect(() => importPlans('nestful', '[]', { mode: 'fast' as never })).toThrow(/mode/);
  });
});
