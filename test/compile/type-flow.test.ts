/** Type flow in compile: E_REF_TYPE, W_REF_TYPE and W_REF_OPTIONAL, and schemaCompat's verdicts. */
import type { PlanInput } from '../../src/language/document.js';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import { schemaCompat } from '../../src/compile/check/schema-compat.js';
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
const join: Tool = {
  name: 'join',
  inputSchema: {
    type: 'object',
    properties: { parts: { type: 'array', items: { type: 'string' } } },
    required: ['parts'],
  },
};
const profile: Tool = {
  name: 'profile',
  inputSchema: { type: 'object' },
  outputSchema: {
    type: 'object',
    properties: { name: { type: 'string' }, nickname: { type: 'string' }, motto: { type: 'string' } },
    required: ['name'],
  },
};
const tools = [search, summarize, untyped, join, profile];

function codes(plan: PlanInput, options: Parameters<typeof compile>[1] = {}) {
  return compile(plan, { tools, ...options }).diagnostics.map((d) => `${d.code} ${d.pointer}`);
}

describe('type flow: || alternatives that can never be set', () => {
  it('judges only the alternatives that can be set: what arrives is what the others hold', () => {
    // The nickname is never in the input: what arrives is the age, which never fits a string.
    expect(
      codes([{ _tool: 'summarize', text: '†input.nickname || †input.age' }], { input: { age: 3 } }),
    ).toEqual(['E_REF_TYPE /0/text', 'W_UNRESOLVED_ALTERNATIVE /0/text']);
    expect(
      codes([{ _tool: 'summarize', text: '†input.nickname || †input.name' }], { input: { name: 'Ada' } }),
    ).toEqual(['W_UNRESOLVED_ALTERNATIVE /0/text']);
  });

  it('an alternative never set is no fallback: an optional property read beside it is W_REF_OPTIONAL', () => {
    const plan = [
      { _tool: 'profile', _outputPath: '†state.p' },
      { _tool: 'summarize', text: '†state.nick || †state.p.nickname' },
    ];
    expect(codes(plan)).toEqual(['W_REF_OPTIONAL /1/text', 'W_UNRESOLVED_ALTERNATIVE /1/text']);
  });
});

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

  it('checks nothing for a writer without outputSchema', () => {
    expect(
      codes([
        { _tool: 'untyped', _outputPath: '†state.r' },
        { _tool: 'summarize', text: '†state.r' },
      ]),
    ).toEqual([]);
  });

  it('types a [*] read as an array of what each element holds', () => {
    const plan = (path: string, tool = 'summarize', key = 'text') => [
      { _tool: 'search', q: 'x', _outputPath: '†state.r' },
      { _tool: tool, [key]: path },
    ];
    // An array, whatever the elements: never a string.
    expect(codes(plan('†state.r[*].title'))).toEqual(['E_REF_TYPE /1/text']);
    expect(codes(plan('†state.r[*]'))).toEqual(['E_REF_TYPE /1/text']);
    const d = compile(plan('†state.r[*].score'), { tools }).diagnostics[0]!;
    expect(d.message).toContain('array of number');
    // An array of strings fits an array-of-strings parameter; an array of numbers fits only
    // when it is empty, which a search may return: the run decides.
    expect(codes(plan('†state.r[*].title', 'join', 'parts'))).toEqual([]);
    expect(codes(plan('†state.r[*].score', 'join', 'parts'))).toEqual([]);
  });

  it('types a [*] read of a known value by selecting from it', () => {
    const plan = [{ _tool: 'join', parts: '†input.list[*].n' }];
    expect(codes(plan, { input: { list: [{ n: 'a' }, { n: 'b' }] } })).toEqual([]);
    expect(codes(plan, { input: { list: [{ n: 'a' }, { n: 1 }] } })).toEqual(['E_REF_TYPE /0/parts']);
    // Not an array there: nothing is selected, the call does not run; no type to check.
    expect(codes(plan, { input: { list: { n: 1 } } })).toEqual([]);
  });

  it('types a whole object that calls fill in below as an object', () => {
    expect(
      codes([
        { _tool: 'summarize', text: 'a', _outputPath: '†state.user.name' },
        { _tool: 'summarize', text: 'b', _outputPath: '†state.user.bio' },
        { _tool: 'summarize', text: '†state.user' },
      ]),
    ).toEqual(['E_REF_TYPE /2/text']);
    // An index below: the write makes an array.
    const d = compile(
      [
        { _tool: 'summarize', text: 'a', _outputPath: '†state.list[0]' },
        { _tool: 'summarize', text: '†state.list' },
      ],
      { tools },
    ).diagnostics[0]!;
    expect(d.message).toContain('is array');
    // The initial state's container there decides; a value that is not one is not followed.
    expect(
      codes(
        [
          { _tool: 'summarize', text: 'a', _outputPath: '†state.user.name' },
          { _tool: 'summarize', text: '†state.user' },
        ],
        { state: { user: 'someone' } },
      ),
    ).toEqual([]);
    // A value written whole, then changed below by another call: not followed.
    expect(
      codes([
        { _tool: 'summarize', text: 'a', _outputPath: '†state.user' },
        { _tool: 'summarize', text: 'b', _outputPath: '†state.user.name' },
        { _tool: 'summarize', text: '†state.user' },
      ]).filter((c) => !c.startsWith('W_MULTIPLE_WRITERS')),
    ).toEqual([]);
  });

  it('warns when a required argument reads a property the writer may leave out (W_REF_OPTIONAL)', () => {
    const plan = (path: string) => [
      { _tool: 'profile', _outputPath: '†state.p' },
      { _tool: 'summarize', text: path },
    ];
    const result = compile(plan('†state.p.nickname'), { tools });
    expect(result.ok).toBe(true);
    expect(result.diagnostics.map((d) => `${d.code} ${d.pointer}`)).toEqual(['W_REF_OPTIONAL /1/text']);
    expect(result.diagnostics[0]!.message).toContain("property 'nickname' is not required");
    // Required by the outputSchema: no warning.
    expect(codes(plan('†state.p.name'))).toEqual([]);
    // A fallback that is always there: no warning; one that may be missing too: still one.
    expect(codes(plan('†state.p.nickname || †state.p.name'))).toEqual([]);
    expect(codes(plan('†state.p.nickname || †state.p.motto'))).toEqual(['W_REF_OPTIONAL /1/text']);
    // `&&` needs every operand.
    expect(codes(plan('†state.p.nickname && †state.p.name'))).toEqual(['W_REF_OPTIONAL /1/text']);
    // A parameter that is not required: no warning.
    expect(
      codes([
        { _tool: 'profile', _outputPath: '†state.p' },
        { _tool: 'search', q: '†state.p.nickname' },
      ]),
    ).toEqual([]);
    // An index is not flagged: an empty result is an ordinary outcome.
    expect(
      codes([
        { _tool: 'search', q: 'x', _outputPath: '†state.r' },
        { _tool: 'summarize', text: '†state.r[0].title' },
      ]),
    ).toEqual([]);
  });

  it('checks a streamed call as soon as its reads are settled, and a forward reference at the end', () => {
    const forward = compile(
      [
        { _tool: 'summarize', text: '†state.r' },
        { _tool: 'search', q: 'x', _outputPath: '†state.r' },
      ],
      { tools },
    );
    expect(forward.diagnostics.map((d) => `${d.code} ${d.pointer}`)).toEqual(['E_REF_TYPE /0/text']);
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
    // Declared by the plan, the error alternative receives only the error object {message,
    // code}: reading it as a string is W_ERROR_AS_DATA (not W_REF_TYPE, nor E_REF_TYPE).
    expect(
      codes([
        {
          _tool: 'summarize',
          text: 'a',
          _outputPath: '†state.ok || †state.failed',
          _onError: '†state.failed',
        },
        { _tool: 'summarize', text: '†state.failed' },
      ]),
    ).toEqual(['W_ERROR_AS_DATA /1/text']);
    // Not declared, no alternative carries the error object: the summary (a string) fits.
    expect(
      codes([
        { _tool: 'summarize', text: 'a', _outputPath: '†state.ok || †state.failed' },
        { _tool: 'summarize', text: '†state.failed' },
      ]),
    ).toEqual([]);
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

  it('judges a known value part by part', () => {
    const numbers = { type: 'array', items: { type: 'number' } };
    expect(schemaCompat({ const: [1, 2] }, numbers)).toBe('always');
    expect(schemaCompat({ const: [1, 'x'] }, numbers)).toBe('never');
    expect(schemaCompat({ const: [] }, numbers)).toBe('always');
    const named = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    expect(schemaCompat({ const: { name: 'a', other: 1 } }, named)).toBe('always');
    expect(schemaCompat({ const: { name: 1 } }, named)).toBe('never');
    expect(schemaCompat({ const: { nick: 'a' } }, named)).toBe('never');
    // Parts B says nothing of are not judged; keywords it does not understand stay "may match".
    expect(schemaCompat({ const: { name: 'a' } }, { ...named, additionalProperties: false })).toBe(
      'sometimes',
    );
  });

  it('gives up with "sometimes" on schemas too big to walk, without recursion', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 50_000; i++) deep = { type: 'object', properties: { a: deep }, required: ['a'] };
    let other: Record<string, unknown> = { type: 'number' };
    for (let i = 0; i < 50_000; i++) other = { type: 'object', properties: { a: other } };
    expect(schemaCompat(deep, other)).toBe('sometimes');
  });
});
