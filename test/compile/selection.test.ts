/** JSONPath selections in the compile: a selection reads the path before it, and its type. */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import { REFERENCE_PATTERN } from '../../src/compile/plan-schema/plan-schema.js';
import { parseString } from '../../src/language/index.js';
import type { Tool } from '../../src/tools/index.js';
import { codes, compileOk, depsOf } from './helpers.js';

const search: Tool = {
  name: 'search',
  outputSchema: {
    type: 'array',
    items: {
      type: 'object',
      properties: { title: { type: 'string' }, price: { type: 'number' } },
      required: ['title', 'price'],
    },
  },
};
const summarize: Tool = {
  name: 'summarize',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  outputSchema: { type: 'string' },
};
const titles: Tool = {
  name: 'titles',
  inputSchema: {
    type: 'object',
    properties: { list: { type: 'array', items: { type: 'string' } } },
    required: ['list'],
  },
};
const tools = [search, summarize, titles];

function plan(reader: Record<string, unknown>) {
  return [
    { _tool: 'search', _outputPath: '†state.results' },
    { ...reader, _outputPath: '†state.out' },
  ];
}

describe('selections in the compile', () => {
  it.each([
    '†state.results[?(@.price < 300)]',
    '†state.results[0:3]',
    '†state.results[-1]',
    '†state.results[0,2]',
    '†state..title',
    '†state.results..title',
  ])('%s reads the path before the selection: the edge is to its writer', (ref) => {
    const compiled = compileOk(plan({ _tool: 'untyped', x: ref }));
    expect(depsOf(compiled, 1)).toEqual([0]);
  });

  it('a filter, a slice and a union keep the element type, as an array', () => {
    for (const ref of [
      '†state.results[?(@.price < 300)].title',
      '†state.results[0:2].title',
      '†state.results[0,2].title',
    ]) {
      expect(codes(compile(plan({ _tool: 'titles', list: ref }), { tools }).diagnostics), ref).toEqual([]);
      expect(codes(compile(plan({ _tool: 'summarize', text: ref }), { tools }).diagnostics), ref).toEqual([
        'E_REF_TYPE',
      ]);
    }
    // Typed as [*] is: the same verdicts for every parameter.
    for (const text of [
      '†state.results[?(@.price < 3)].price',
      '†state.results[0:1]',
      '†state.results[1,2].title',
    ]) {
      const star = text.replace(/\[[^\]]*\]/, '[*]').replace('[?(@.price < 3)]', '[*]');
      for (const reader of ['titles', 'summarize']) {
        const key = reader === 'titles' ? 'list' : 'text';
        const of = (ref: string) =>
          compile(plan({ _tool: reader, [key]: ref }), { tools }).diagnostics.map((d) => d.code);
        expect(of(text), `${text} into ${reader}`).toEqual(of(star));
      }
    }
  });

  it('[-1] is one element: its type is the element type', () => {
    expect(
      codes(compile(plan({ _tool: 'summarize', text: '†state.results[-1].title' }), { tools }).diagnostics),
    ).toEqual([]);
    expect(
      codes(compile(plan({ _tool: 'summarize', text: '†state.results[-1].price' }), { tools }).diagnostics),
    ).toEqual(['E_REF_TYPE']);
    expect(
      codes(compile(plan({ _tool: 'titles', list: '†state.results[-1].title' }), { tools }).diagnostics),
    ).toEqual(['E_REF_TYPE']);
  });

  it('a recursive descent is an array of values of unknown type', () => {
    expect(
      codes(compile(plan({ _tool: 'titles', list: '†state.results..title' }), { tools }).diagnostics),
    ).toEqual([]);
    expect(
      codes(compile(plan({ _tool: 'summarize', text: '†state.results..title' }), { tools }).diagnostics),
    ).toEqual(['E_REF_TYPE']);
  });

  it('a selection over the initial state is typed by its value', () => {
    const state = {
      flights: [
        { id: 'a', price: 100 },
        { id: 'b', price: 500 },
      ],
    };
    const ok = compile([{ _tool: 'titles', list: '†state.flights[?(@.price < 300)].id' }], { tools, state });
    expect(codes(ok.diagnostics)).toEqual([]);
    const bad = compile([{ _tool: 'summarize', text: '†state.flights[-1].price' }], { tools, state });
    expect(codes(bad.diagnostics)).toEqual(['E_REF_TYPE']);
  });

  it('an _outputPath or _onError cannot select', () => {
    const result = compile([{ _tool: 'search', _outputPath: '†state.results[0:2]' }]);
    expect(codes(result.diagnostics)).toEqual(['E_OUTPUT_PATH']);
    expect(result.diagnostics[0]!.message).toContain('cannot use [0:2]');
    const onError = compile([
      { _tool: 'search', _outputPath: '†state.a || †state.b', _onError: '†state.b[-1]' },
    ]);
    expect(codes(onError.diagnostics)).toEqual(['E_ON_ERROR']);
  });

  it('a bad selection is E_REF_SELECTION at its character, with a hint', () => {
    const text = JSON.stringify([{ _tool: 'search', q: '†state.results[?(process.exit(1))]' }]);
    const [d] = compile(text).diagnostics;
    expect(d!.code).toBe('E_REF_SELECTION');
    expect(d!.column).toBe(text.indexOf('process') + 1);
    expect(d!.hint).toContain('@.key');
  });

  it.each([
    '†state.flights[?(@.price < 300)]',
    '†state.a[0:3]',
    '†state.a[-2:]',
    '†state.a[-1].x',
    '†state.a[0,2]',
    '†state.doc..title',
    '†state.a[1:2:0]',
    '†state.a[-0]',
    '†state.a[?(@.x > 1)',
    '†state.a[0, 2]',
  ])('the plan schema given to models agrees with the compiler on %s', (text) => {
    expect(new RegExp(REFERENCE_PATTERN, 'u').test(text)).toBe(parseString(text).kind !== 'error');
  });
});
