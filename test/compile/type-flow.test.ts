/** Type flow in compile: E_REF_TYPE and W_REF_TYPE, and schemaCompat's verdicts. */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import { schemaCompat } from '../../src/compile/schema-compat.js';
import type { Tool } from '../../src/tools/index.js';

const search: Tool = {
  name: 'search',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  outputSchema: {
    type: 'array',
    items: {
      type: 'object',
      properties: { title: { type: 'string' }, score: { type: 'number' } },
      required: ['title', 'score'],
    },
  },
};
const summarize: Tool = {
  name: 'summarize',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  },
  outputSchema: { type: 'string' },
};
const untyped: Tool = { name: 'untyped', inputSchema: { type: 'object' } };
const tools = [search, summarize, untyped];

function codes(plan: unknown, options: Parameters<typeof compile>[1] = {}) {
  return compile(plan, { tools, ...options }).diagnostics.map((d) => `${d.code} ${d.pointer}`);
}

describe('type flow', () => {
  it('rejects an array written by search read as summarize(text: string)', () => {
    const result = compile(
      [
        { _tool: 'search', q: 'x', _outputPath: '†state.r' },
        { _tool: 'summarize', text: '†state.r' },
      ],
      { tools },
    );
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toHaveLength(1);
    const d = result.diagnostics[0]!;
    expect(d.code).toBe('E_REF_TYPE');
    expect(d.pointer).toBe('/1/text');
    expect(d.call).toBe('1');
    expect(d.message).toContain('expects string');
    expect(d.message).toContain('array');
    expect(d.message).toContain('call "0"');
  });

  it('follows paths into the written value', () => {
    const plan = (path: string) => [
      { _tool: 'search', q: 'x', _outputPath: '†state.r' },
      { _tool: 'summarize', text: path },
    ];
    expect(codes(plan('†state.r[0].title'))).toEqual([]);
    expect(codes(plan('†state.r[0].score'))).toEqual(['E_REF_TYPE /1/text']);
    expect(codes(plan('†state.r[0]'))).toEqual(['E_REF_TYPE /1/text']);
    // Not described by the schema: unknown, nothing checked.
    expect(codes(plan('†state.r[0].other'))).toEqual([]);
  });

  it('checks nothing for a writer without outputSchema, or a [*] read', () => {
    expect(
      codes([
        { _tool: 'untyped', _outputPath: '†state.r' },
        { _tool: 'summarize', text: '†state.r' },
      ]),
    ).toEqual([]);
    expect(
      codes([
        { _tool: 'search', q: 'x', _outputPath: '†state.r' },
        { _tool: 'summarize', text: '†state.r[*].title' },
      ]),
    ).toEqual([]);
  });

  it('types the input, the initial state and the state schema', () => {
    const plan = [{ _tool: 'summarize', text: '†input.n' }];
    expect(codes(plan, { input: { n: 3 } })).toEqual(['E_REF_TYPE /0/text']);
    expect(codes(plan, { input: { n: 'three' } })).toEqual([]);
    expect(codes([{ _tool: 'summarize', text: '†state.n' }], { state: { n: [1] } })).toEqual([
      'E_REF_TYPE /0/text',
    ]);
    expect(
      codes([{ _tool: 'summarize', text: '†state.n' }], {
        stateSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      }),
    ).toEqual(['E_REF_TYPE /0/text']);
  });

  it('types forward references and eager _output literals', () => {
    expect(
      codes([
        { _tool: 'summarize', text: '†state.r' },
        { _tool: 'search', q: 'x', _outputPath: '†state.r' },
      ]),
    ).toEqual(['E_REF_TYPE /0/text']);
    const latent: Tool = { name: 'think', latent: true };
    const result = compile(
      [
        { _tool: 'think', _output: { n: 1 }, _outputPath: '†state.t' },
        { _tool: 'summarize', text: '†state.t.n' },
      ],
      { tools: [...tools, latent] },
    );
    expect(result.diagnostics.map((d) => d.code)).toEqual(['E_REF_TYPE']);
  });

  it('warns when only the error alternative or one side of || cannot fit', () => {
    // The last alternative also receives the error object {message, code}.
    expect(
      codes([
        { _tool: 'summarize', text: 'a', _outputPath: '†state.ok || †state.failed' },
        { _tool: 'summarize', text: '†state.failed' },
      ]),
    ).toEqual(['W_REF_TYPE /1/text']);
    // †state.s is missing when its writer takes the other branch: then the array arrives.
    expect(
      codes([
        { _tool: 'summarize', text: 'a', _outputPath: '†state.s || †state.t' },
        { _tool: 'search', q: 'x', _outputPath: '†state.r' },
        { _tool: 'summarize', text: '†state.s || †state.r' },
      ]),
    ).toEqual(['W_REF_TYPE /2/text']);
    // Written whole and unconditionally, †state.s hides what comes after it.
    expect(
      codes([
        { _tool: 'summarize', text: 'a', _outputPath: '†state.s' },
        { _tool: 'search', q: 'x', _outputPath: '†state.r' },
        { _tool: 'summarize', text: '†state.s || †state.r' },
      ]),
    ).toEqual([]);
    // && delivers its last value only.
    expect(
      codes([
        { _tool: 'summarize', text: 'a', _outputPath: '†state.s' },
        { _tool: 'search', q: 'x', _outputPath: '†state.r' },
        { _tool: 'summarize', text: '†state.r && †state.s' },
      ]),
    ).toEqual([]);
  });
});

describe('schemaCompat', () => {
  it('takes a schema that is neither a boolean nor an object as "may match", without throwing', () => {
    // Found by the mutation property test: a mutated schema value reached the WeakMap cache.
    for (const odd of [null, 'string', 3, ['x']] as unknown as Parameters<typeof schemaCompat>[0][]) {
      expect(schemaCompat(odd, { type: 'string' })).toBe('sometimes');
      expect(schemaCompat({ type: 'string' }, odd)).toBe('sometimes');
      expect(schemaCompat(odd, {})).toBe('always');
    }
  });

  it('judges types, values, unions and structure', () => {
    expect(schemaCompat({ type: 'string' }, { type: 'string' })).toBe('always');
    expect(schemaCompat({ type: 'array' }, { type: 'string' })).toBe('never');
    expect(schemaCompat({ type: 'integer' }, { type: 'number' })).toBe('always');
    expect(schemaCompat({ type: 'number' }, { type: 'integer' })).toBe('sometimes');
    expect(schemaCompat({ type: 'string' }, { type: 'string', minLength: 3 })).toBe('sometimes');
    expect(schemaCompat({ enum: ['a', 'b'] }, { enum: ['c'] })).toBe('never');
    expect(schemaCompat({ const: 'a' }, { type: 'string', enum: ['a', 'c'] })).toBe('always');
    expect(schemaCompat({ anyOf: [{ type: 'string' }, { type: 'null' }] }, { type: 'string' })).toBe(
      'sometimes',
    );
    expect(schemaCompat({ type: 'string' }, { anyOf: [{ type: 'number' }, { type: 'string' }] })).toBe(
      'always',
    );
    const obj = (t: string, required: string[]) => ({
      type: 'object',
      properties: { a: { type: t } },
      required,
    });
    expect(schemaCompat(obj('string', ['a']), obj('number', []))).toBe('never');
    expect(schemaCompat(obj('string', []), obj('number', []))).toBe('sometimes');
    expect(schemaCompat(obj('string', ['a']), obj('string', ['a']))).toBe('always');
    expect(
      schemaCompat(
        { type: 'array', items: { type: 'string' } },
        { type: 'array', items: { type: 'number' } },
      ),
    ).toBe('sometimes');
    expect(
      schemaCompat(
        { type: 'array', items: { type: 'string' }, minItems: 1 },
        { type: 'array', items: { type: 'number' } },
      ),
    ).toBe('never');
    expect(schemaCompat({ $ref: '#/x' }, { type: 'string' })).toBe('sometimes');
  });

  it('gives up with "sometimes" on schemas too big to walk, without recursion', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 50_000; i++) deep = { type: 'object', properties: { a: deep }, required: ['a'] };
    let other: Record<string, unknown> = { type: 'number' };
    for (let i = 0; i < 50_000; i++) other = { type: 'object', properties: { a: other } };
    expect(schemaCompat(deep, other)).toBe('sometimes');
  });
});
