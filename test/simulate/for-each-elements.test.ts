/** The dry run of `_forEach` calls: sampled element counts, the empty-array scenario, durations. */
import { describe, expect, it } from 'vitest';
import { simulate, type Tool } from '../../src/index.js';

/** A search whose sample always has `length` results. */
const search = (length: number): Tool => ({
  name: 'search',
  estimatedMs: 1,
  outputSchema: {
    type: 'array',
    minItems: length,
    maxItems: length,
    items: {
      type: 'object',
      properties: { url: { type: 'string' } },
      required: ['url'],
      additionalProperties: false,
    },
  },
});
const fetchPage: Tool = {
  name: 'fetch',
  estimatedMs: 10,
  inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const summarize: Tool = {
  name: 'summarize',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const PLAN = [
  { _id: 'search', _tool: 'search', _outputPath: '†state.results' },
  { _id: 'pages', _tool: 'fetch', _forEach: '†state.results', url: '†item.url', _outputPath: '†state.pages' },
  { _id: 'first', _tool: 'summarize', text: '†state.pages[0].text' },
];

describe('simulate: _forEach elements', () => {
  it("samples as many elements as the array's sample has, at most forEachSamples", () => {
    const three = simulate(PLAN, { tools: [search(3), fetchPage, summarize] });
    expect(three.samples['pages']!.value).toHaveLength(3);
    expect(three.forEach['pages']).toMatchObject({ elements: 3 });
    const two = simulate(PLAN, { tools: [search(2), fetchPage, summarize] });
    expect(two.samples['pages']!.value).toHaveLength(2);
    const capped = simulate(PLAN, { tools: [search(3), fetchPage, summarize], forEachSamples: 2 });
    expect(capped.forEach['pages']!.elements).toBe(2);
    expect(capped.samples['pages']!.value).toHaveLength(2);
  });

  it('an array whose sample is unknown gets forEachSamples elements', () => {
    const unknown: Tool = { name: 'search' };
    const simulation = simulate(PLAN, { tools: [unknown, fetchPage, summarize], forEachSamples: 2 });
    expect(simulation.forEach['pages']!.elements).toBe(2);
    expect(simulation.samples['pages']!.value).toHaveLength(2);
  });

  it('lists a scenario where the array is empty: the call writes [] and readers of an element are skipped', () => {
    const simulation = simulate(PLAN, { tools: [search(2), fetchPage, summarize] });
    expect(simulation.scenarios).toHaveLength(2);
    expect(simulation.scenarios[0]).toMatchObject({ emptyForEach: [], run: ['search', 'pages', 'first'] });
    expect(simulation.scenarios[1]).toMatchObject({
      emptyForEach: ['pages'],
      run: ['search', 'pages'],
      skipped: ['first'],
    });
  });

  it('a _forEach call takes ceil(elements / concurrency) times one element on the critical path', () => {
    const tools = [search(3), fetchPage, summarize];
    const wide = simulate(PLAN, { tools });
    expect(wide.forEach['pages']).toEqual({ elements: 3, lanes: 16, weight: 10 });
    expect(wide.criticalPath).toEqual(['search', 'pages', 'first']);
    expect(wide.criticalPathWeight).toBe(1 + 10 + 1);
    const two = simulate(PLAN, { tools, concurrency: 2 });
    expect(two.forEach['pages']).toEqual({ elements: 3, lanes: 2, weight: 20 });
    expect(two.criticalPathWeight).toBe(1 + 20 + 1);
  });

  it('over a workflow: each element walks the sub-plan with its †item, and the array is of their outputs', () => {
    const page: Tool = {
      name: 'page',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
      plan: [{ _id: 'get', _tool: 'fetch', url: '†input.url', _outputPath: '†state.p' }],
      output: { url: '†input.url', text: '†state.p.text' },
    };
    const simulation = simulate(
      [
        { _id: 'search', _tool: 'search', _outputPath: '†state.results' },
        {
          _id: 'pages',
          _tool: 'page',
          _forEach: '†state.results',
          url: '†item.url',
          _outputPath: '†state.pages',
        },
      ],
      { tools: [search(2), fetchPage, page], concurrency: 1 },
    );
    const results = simulation.samples['search']!.value as { url: string }[];
    expect(simulation.samples['pages']).toEqual({
      source: 'workflow',
      value: results.map((r) => ({ url: r.url, text: expect.any(String) })),
    });
    expect(simulation.workflows['pages']).toMatchObject({ workflow: 'page', run: ['get'] });
    // Two elements one at a time, each the sub-plan's 10.
    expect(simulation.forEach['pages']).toEqual({ elements: 2, lanes: 1, weight: 20 });
  });
});
