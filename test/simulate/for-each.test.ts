/** The dry run of a `_forEach` call: it writes an array of its elements' results. */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/simulate/index.js';
import type { Tool } from '../../src/tools/tool.js';

const search: Tool = {
  name: 'search',
  outputSchema: {
    type: 'array',
    items: {
      type: 'object',
      properties: { url: { type: 'string' } },
      required: ['url'],
      additionalProperties: false,
    },
  },
};
const fetchPage: Tool = {
  name: 'fetch',
  inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const summarize: Tool = {
  name: 'summarize',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  outputSchema: { type: 'string' },
};
const TOOLS = [search, fetchPage, summarize];

describe('simulate: _forEach', () => {
  it('samples a _forEach call as an array of its tool output, so readers of an element run', () => {
    const simulation = simulate(
      [
        { _id: 'search', _tool: 'search', _outputPath: '†state.results' },
        {
          _id: 'pages',
          _tool: 'fetch',
          _forEach: '†state.results',
          url: '†item.url',
          _outputPath: '†state.pages',
        },
        { _id: 'first', _tool: 'summarize', text: '†state.pages[0].text', _outputPath: '†state.summary' },
      ],
      { tools: TOOLS },
    );
    expect(simulation.diagnostics).toEqual([]);
    const pages = simulation.samples['pages']!;
    expect(pages.source).toBe('schema');
    expect(Array.isArray(pages.value)).toBe(true);
    expect((pages.value as { text: unknown }[])[0]!.text).toEqual(expect.any(String));
    expect(simulation.scenarios[0]!.run).toEqual(['search', 'pages', 'first']);
    expect(simulation.scenarios[0]!.skipped).toEqual([]);
    expect(simulation.scenarios[0]!.argumentErrors).toEqual([]);
    // The same tool without _forEach still samples one output.
    expect(Array.isArray(simulation.samples['search']!.value)).toBe(true);
  });
});
