/** Writers held to the state schema at compile time: E_STATE_TYPE and W_STATE_TYPE. */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import type { JsonObject } from '../../src/language/index.js';
import type { Tool } from '../../src/tools/index.js';
import { doc, positionInString } from './helpers.js';

const schema: JsonObject = {
  type: 'object',
  properties: {
    age: { type: 'integer' },
    name: { type: 'string' },
    anything: {},
    tags: { type: 'array', items: { type: 'string' } },
    user: { $ref: '#/$defs/user' },
    nickname: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  $defs: { user: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
};

const tools: Tool[] = [
  { name: 'getName', outputSchema: { type: 'string' } },
  { name: 'getAge', outputSchema: { type: 'integer' } },
  {
    name: 'getUser',
    outputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
  { name: 'nameOrAge', outputSchema: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
  { name: 'nameOrNothing', outputSchema: { type: ['string', 'null'] } },
  { name: 'untyped' },
  { name: 'think', latent: true },
];

function check(plan: unknown[], options: Parameters<typeof compile>[1] = {}) {
  return compile(
    doc([
      { type: 'state', schema },
      { type: 'plan', plan },
    ]),
    { tools, ...options },
  );
}

function codes(plan: unknown[], options: Parameters<typeof compile>[1] = {}): string[] {
  // Pointers inside the plan message (`/1/plan`).
  return check(plan, options).diagnostics.map((d) => `${d.code} ${d.pointer.replace(/^\/1\/plan/, '')}`);
}

describe('E_STATE_TYPE: a writer whose outputSchema contradicts the state schema', () => {
  it('is an error at the path in _outputPath, saying what the tool returns and what the schema declares', () => {
    const text = doc([
      { type: 'state', schema },
      { type: 'plan', plan: [{ _tool: 'getName', _outputPath: '†state.age' }] },
    ]);
    const result = compile(text, { tools });
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toHaveLength(1);
    const d = result.diagnostics[0]!;
    expect(d).toMatchObject({
      severity: 'error',
      code: 'E_STATE_TYPE',
      pointer: '/1/plan/0/_outputPath',
      call: '0',
    });
    expect(d.message).toBe(
      'tool "getName" returns string, but the state schema declares integer at †state.age',
    );
    expect(d.hint).toMatch(/outputSchema or the state schema, or write the result elsewhere/);
    expect({ line: d.line, column: d.column }).toEqual(positionInString(text, '†state.age', 0));
  });

  it('passes what fits, and checks nothing it cannot tell', () => {
    expect(codes([{ _tool: 'getName', _outputPath: '†state.name' }])).toEqual([]);
    // integer is a kind of number; a place the schema declares with {} takes anything.
    expect(codes([{ _tool: 'getAge', _outputPath: '†state.anything' }])).toEqual([]);
    // A place the schema does not describe (additional properties allowed), a tool without outputSchema.
    expect(codes([{ _tool: 'getName', _outputPath: '†state.elsewhere' }])).toEqual([]);
    expect(codes([{ _tool: 'untyped', _outputPath: '†state.age' }])).toEqual([]);
    // Without tools there is no outputSchema to judge.
    expect(
      check([{ _tool: 'getName', _outputPath: '†state.age' }], { tools: undefined }).diagnostics,
    ).toEqual([]);
  });

  it('follows the schema down to the place written, through $ref and into items', () => {
    expect(codes([{ _tool: 'getAge', _outputPath: '†state.user' }])).toEqual(['E_STATE_TYPE /0/_outputPath']);
    expect(codes([{ _tool: 'getUser', _outputPath: '†state.user' }])).toEqual([]);
    expect(codes([{ _tool: 'getAge', _outputPath: '†state.user.id' }])).toEqual([
      'E_STATE_TYPE /0/_outputPath',
    ]);
    expect(codes([{ _tool: 'getAge', _outputPath: '†state.tags[0]' }])).toEqual([
      'E_STATE_TYPE /0/_outputPath',
    ]);
    expect(codes([{ _tool: 'getName', _outputPath: '†state.tags[0]' }])).toEqual([]);
    // A union in the schema: one alternative that fits is enough.
    expect(codes([{ _tool: 'getName', _outputPath: '†state.nickname' }])).toEqual([]);
    expect(codes([{ _tool: 'getAge', _outputPath: '†state.nickname' }])).toEqual([
      'E_STATE_TYPE /0/_outputPath',
    ]);
  });

  it('judges every && path and the first || alternative; another alternative gets a value only by the tool choosing it', () => {
    expect(codes([{ _tool: 'getName', _outputPath: '†state.name && †state.age' }])).toEqual([
      'E_STATE_TYPE /0/_outputPath',
    ]);
    expect(codes([{ _tool: 'getName', _outputPath: '†state.age || †state.name' }])).toEqual([
      'E_STATE_TYPE /0/_outputPath',
    ]);
    expect(codes([{ _tool: 'getName', _outputPath: '†state.name || †state.age' }])).toEqual([]);
  });

  it('an eager latent _output breaking the schema is an error (the value is known), at the alternative it goes to', () => {
    const result = check([{ _tool: 'think', _output: 'seven', _outputPath: '†state.age' }]);
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        'E_STATE_TYPE',
        'the _output of call "0" is "seven", but the state schema declares integer at †state.age',
      ],
    ]);
    expect(codes([{ _tool: 'think', _output: 7, _outputPath: '†state.age' }])).toEqual([]);
    expect(codes([{ _tool: 'think', _output: { id: 3 }, _outputPath: '†state.user' }])).toEqual([
      'E_STATE_TYPE /0/_outputPath',
    ]);
    // A branch value goes to the alternative it names.
    const branched = { '†branch': 1, value: 'seven' };
    expect(codes([{ _tool: 'think', _output: branched, _outputPath: '†state.name || †state.age' }])).toEqual([
      'E_STATE_TYPE /0/_outputPath',
    ]);
    expect(codes([{ _tool: 'think', _output: branched, _outputPath: '†state.age || †state.name' }])).toEqual(
      [],
    );
  });

  it('is off with checkTypes: false, as the type flow is', () => {
    expect(codes([{ _tool: 'getName', _outputPath: '†state.age' }], { checkTypes: false })).toEqual([]);
  });
});

describe('W_STATE_TYPE: some forms of the outputSchema never fit', () => {
  it('an anyOf branch, or one type of a list, that the schema never allows is a warning; the plan compiles', () => {
    const result = check([{ _tool: 'nameOrAge', _outputPath: '†state.name' }]);
    expect(result.ok).toBe(true);
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.message])).toEqual([
      [
        'warning',
        'W_STATE_TYPE',
        'tool "nameOrAge" may return integer (one of the forms of its outputSchema), which the state schema does not allow at †state.name (it declares string)',
      ],
    ]);
    expect(result.diagnostics[0]!.hint).toMatch(/INVALID_OUTPUT/);
    expect(codes([{ _tool: 'nameOrNothing', _outputPath: '†state.name' }])).toEqual([
      'W_STATE_TYPE /0/_outputPath',
    ]);
    expect(codes([{ _tool: 'nameOrNothing', _outputPath: '†state.nickname' }])).toEqual([]);
  });

  it('when no form fits, it is E_STATE_TYPE', () => {
    expect(codes([{ _tool: 'nameOrAge', _outputPath: '†state.tags' }])).toEqual([
      'E_STATE_TYPE /0/_outputPath',
    ]);
  });
});
