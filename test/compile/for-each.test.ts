/** `_forEach` at compile time: where †item/†index may be, the array's dependency and types through it. */
import { describe, expect, it } from 'vitest';
import { compile, type Tool } from '../../src/index.js';

const search: Tool = {
  name: 'search',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  outputSchema: {
    type: 'array',
    items: {
      type: 'object',
      properties: { name: { type: 'string' }, url: { type: 'string' }, rank: { type: 'number' } },
      required: ['name', 'url'],
      additionalProperties: false,
    },
  },
};
const fetchPage: Tool = {
  name: 'fetch',
  inputSchema: {
    type: 'object',
    properties: { url: { type: 'string' }, n: { type: 'integer' } },
    required: ['url'],
  },
  outputSchema: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
};
const summarize: Tool = {
  name: 'summarize',
  inputSchema: { type: 'object', properties: { text: { type: 'string' }, pages: { type: 'array' } } },
};
const latent: Tool = { name: 'judge', latent: true };
const tools = [search, fetchPage, summarize, latent];

const codes = (plan: unknown[], options: Parameters<typeof compile>[1] = { tools }) =>
  compile(plan, options).diagnostics.map((d) => `${d.code} ${d.pointer}`);

describe('_forEach at compile time', () => {
  it('compiles a loop over a produced array, depending on its producer', () => {
    const result = compile(
      [
        { _tool: 'search', q: 'parks', _outputPath: '†state.results' },
        {
          _tool: 'fetch',
          url: '†item.url',
          n: '†index',
          _forEach: '†state.results',
          _outputPath: '†state.pages',
        },
      ],
      { tools },
    );
    expect(result.diagnostics).toEqual([]);
    const call = result.plan!.calls[1]!;
    expect(call.dependencies.map((d) => [d.from, d.kind])).toEqual([[0, 'data']]);
    expect(call.forEach?.loopArguments.map((l) => [l.at, l.ref.root])).toEqual([
      ['/url', 'item'],
      ['/n', 'index'],
    ]);
  });

  it('rejects †item and †index outside a _forEach call, in _outputPath and in _forEach itself, with their place', () => {
    const result = compile(
      [
        { _tool: 'fetch', url: '†item.url', _outputPath: '†state.a' },
        { _tool: 'fetch', url: '†state.a.x', n: '†index', _forEach: '†item', _outputPath: '†item.x' },
      ],
      { tools },
    );
    const found = result.diagnostics.map((d) => `${d.code} ${d.pointer}`);
    expect(found).toContain('E_FOR_EACH_REF /0/url');
    expect(found).toContain('E_FOR_EACH_REF /1/_forEach');
    expect(found.some((d) => d.startsWith('E_FOR_EACH_REF /1/_outputPath'))).toBe(true);
    const first = result.diagnostics.find((d) => d.pointer === '/0/url')!;
    expect(first.line).toBeGreaterThan(0);
    expect(first.column).toBeGreaterThan(0);
    expect(first.hint).toContain('_forEach');
  });

  it('rejects a _forEach that is no reference, and one over a latent tool', () => {
    expect(codes([{ _tool: 'fetch', url: '†item', _forEach: [1, 2] }])).toEqual(['E_FOR_EACH /0/_forEach']);
    expect(
      codes([{ _tool: 'judge', x: '†item', _forEach: '†input.list' }], {
        tools,
        input: { list: [1] },
        mode: 'lazy',
      }),
    ).toEqual(['E_FOR_EACH /0/_forEach']);
  });

  it('types †item as the element type: †item.nmae is caught with the nearest name', () => {
    const result = compile(
      [
        { _tool: 'search', q: 'parks', _outputPath: '†state.results' },
        { _tool: 'fetch', url: '†item.nmae', _forEach: '†state.results', _outputPath: '†state.pages' },
      ],
      { tools },
    );
    const d = result.diagnostics.find((x) => x.code === 'E_UNRESOLVED')!;
    expect(d.pointer).toBe('/1/url');
    expect(d.hint).toContain('†item.name');
  });

  it('types †item from the input array too', () => {
    const found = codes([{ _tool: 'fetch', url: '†item.lnk', _forEach: '†input.links' }], {
      tools,
      input: { links: [{ link: 'a' }] },
    });
    expect(found).toEqual(['E_UNRESOLVED /0/url']);
  });

  it('catches an element value that can never fit the parameter', () => {
    const found = codes([
      { _tool: 'search', q: 'parks', _outputPath: '†state.results' },
      { _tool: 'fetch', url: '†item.rank', _forEach: '†state.results' },
    ]);
    expect(found).toEqual(['E_REF_TYPE /1/url']);
  });

  it('rejects a _forEach over something that is never an array', () => {
    const found = codes([
      { _tool: 'fetch', url: 'a', _outputPath: '†state.page' },
      { _tool: 'fetch', url: '†item', _forEach: '†state.page' },
    ]);
    expect(found).toEqual(['E_FOR_EACH_TYPE /1/_forEach']);
  });

  it('types the output as an array of the tool output for downstream readers', () => {
    const found = codes([
      { _tool: 'search', q: 'parks', _outputPath: '†state.results' },
      { _tool: 'fetch', url: '†item.url', _forEach: '†state.results', _outputPath: '†state.pages' },
      { _tool: 'summarize', pages: '†state.pages', text: '†state.pages' },
      { _tool: 'summarize', text: '†state.pages[0].text' },
      { _tool: 'summarize', text: '†state.pages[0].txt' },
    ]);
    expect(found).toEqual(['E_REF_TYPE /2/text', 'E_UNRESOLVED /4/text']);
  });
});
