/**
 * `_forEach`, `†item` and `†index` in the plan schemas: schemas/plan.schema.json (for editors
 * and validators) and planSchema() (what a model is given to write) admit a for-each plan and
 * refuse what the compiler refuses, where a schema can say it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import { planSchema, type Tool } from '../../src/index.js';
import { strictModeViolations } from '../compile/strict-mode-rules.js';
import { errorsOf, validator } from './ajv.js';

/** The docs' for-each example (docs/plan-language.md, For-each). */
const FOR_EACH_PLAN = [
  { _tool: 'search', query: 'parks in Paris', _outputPath: '†state.results' },
  {
    _tool: 'fetchPage',
    url: '†item.url',
    position: '†index',
    _forEach: '†state.results',
    _outputPath: '†state.pages',
  },
  { _tool: 'summarize', pages: '†state.pages', _outputPath: '†state.summary' },
];

/** Argument strings in a `_forEach` call: the schema agrees with the compiler. */
const ELEMENT_STRINGS = [
  '†item',
  '†index',
  '†item.url',
  '†item.tags[0]',
  '†item.tags[*]',
  '†item[*].a',
  '†item["a b"]',
  '†item.a-b.$c',
  '†state.a || †input.b',
  '†item.',
  '†item ',
  '†item.a ',
  '†index ',
  '†index.a',
  '†index[0]',
  '†itemx',
  '†items',
  '†item || †state.a',
  '†state.a && †item',
  '†item.__proto__',
  '†item["constructor"]',
  '†item.a.prototype',
  '†item[01]',
];

/** `_forEach` values: a read of the state or the input, never the element itself. */
const FOR_EACH_VALUES: unknown[] = [
  '†state.results',
  '†input.urls',
  '†input.xs[*].a',
  '†state.a || †state.b',
  '†state.a && †input.b',
  '†item',
  '†index',
  '†item.xs',
  '††state.results',
  'state.results',
  '†state.results ',
  '†state.__proto__',
  '†sate.results',
  3,
  ['†state.results'],
  null,
];

// The arrays the plans loop over are there from the start, so only the rule under test decides.
const STATE = { results: [{ url: 'https://a.example' }], xs: [{ id: 1 }], a: [], b: [] };
const compiles = (calls: unknown[]) => compile(calls as never, { state: STATE }).ok;

describe('schemas/plan.schema.json and _forEach', () => {
  const valid = validator('plan.schema.json');

  it('accepts the for-each plan of the docs, as every document shape', () => {
    expect(compiles(FOR_EACH_PLAN)).toBe(true);
    expect(errorsOf('plan.schema.json', FOR_EACH_PLAN)).toEqual([]);
    expect(errorsOf('plan.schema.json', { type: 'plan', mode: 'lazy', plan: FOR_EACH_PLAN })).toEqual([]);
    expect(errorsOf('plan.schema.json', { calls: FOR_EACH_PLAN, output: null })).toEqual([]);
  });

  it('accepts †item deep inside the arguments of a _forEach call', () => {
    const call = { _tool: 't', _forEach: '†state.xs', filter: { any: [{ id: '†item.id' }, '†index'] } };
    expect(compiles([call])).toBe(true);
    expect(valid([call])).toBe(true);
  });

  it.each(ELEMENT_STRINGS)('reads %j in a _forEach call as the compiler does', (text) => {
    const calls = [{ _tool: 't', _forEach: '†input.xs', x: text }];
    expect(valid(calls)).toBe(compiles(calls));
  });

  it.each(['†item', '†index', '†item.url'])('refuses %j in a call without _forEach, as the compiler does', (text) => {
    for (const x of [text, { nested: [text] }]) {
      const calls = [{ _tool: 't', x }];
      expect(compiles(calls)).toBe(false);
      expect(valid(calls)).toBe(false);
    }
  });

  it.each(FOR_EACH_VALUES)('accepts _forEach %j exactly when the compiler does', (value) => {
    const calls = [{ _tool: 't', _forEach: value, x: 1 }];
    expect(valid(calls)).toBe(compiles(calls));
  });

  it('refuses †item in _outputPath, as the compiler does', () => {
    const calls = [{ _tool: 't', _forEach: '†input.xs', _outputPath: '†item' }];
    expect(compiles(calls)).toBe(false);
    expect(valid(calls)).toBe(false);
  });
});

describe('planSchema() and _forEach', () => {
  const ajv = () => new Ajv2020({ strict: false, allErrors: true, logger: false });
  const tools: Tool[] = [
    {
      name: 'search',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
    {
      name: 'fetchPage',
      inputSchema: {
        type: 'object',
        properties: { url: { type: 'string' }, position: { type: 'integer' } },
        required: ['url'],
        additionalProperties: false,
      },
    },
    { name: 'summarize', inputSchema: { type: 'object', properties: { pages: { type: 'array' } } } },
    { name: 'guess', latent: true, outputSchema: { type: 'string' } },
  ];

  it('offers _forEach on every call, and admits the for-each plan of the docs', () => {
    const schema = planSchema(tools, { mode: 'lazy' });
    expect(JSON.stringify(schema)).toContain('"_forEach"');
    const validate = ajv().compile(schema);
    expect(validate(FOR_EACH_PLAN), ajv().errorsText(validate.errors)).toBe(true);
  });

  it('refuses what the compiler refuses: a loop reference outside a _forEach call, or in _forEach', () => {
    const validate = ajv().compile(planSchema(tools, { mode: 'lazy' }));
    const fetch = { _tool: 'fetchPage', url: '†item.url', _forEach: '†state.results' };
    const cases: [string, Record<string, unknown>][] = [
      ['†item without _forEach', { _tool: 'fetchPage', url: '†item.url' }],
      ['†index nested without _forEach', { _tool: 'summarize', pages: ['†index'] }],
      ['_forEach naming †item', { ...fetch, _forEach: '†item' }],
      ['_forEach that is no reference', { ...fetch, _forEach: 'state.results' }],
      // (position is an integer: where the tool takes any string, the compiler alone reads it)
      ['†index with a path', { ...fetch, position: '†index.a' }],
      ['†item joined with ||', { ...fetch, position: '†item.n || †state.n' }],
      ['†item in _outputPath', { ...fetch, _outputPath: '†item' }],
    ];
    for (const [what, call] of cases) {
      expect(compiles([call]), what).toBe(false);
      expect(validate([call]), what).toBe(false);
    }
    expect(validate([{ ...fetch, position: '†index' }])).toBe(true);
  });

  it('offers _forEach in OpenAI strict form too, nullable like the other optional meta keys', () => {
    const schema = planSchema(tools, { mode: 'lazy', format: 'openai-strict' });
    expect(strictModeViolations(schema)).toEqual([]);
    const validate = ajv().compile(schema);
    const nulls = { _id: null, _outputPath: null, _onError: null, _forEach: null };
    const calls = [
      { ...nulls, _tool: 'search', query: 'parks', _outputPath: '†state.results' },
      { ...nulls, _tool: 'fetchPage', url: '†item.url', position: '†index', _forEach: '†state.results' },
    ];
    expect(validate({ calls }), ajv().errorsText(validate.errors)).toBe(true);
    expect(validate({ calls: [{ ...calls[1], _forEach: '†item' }] })).toBe(false);
  });
});
