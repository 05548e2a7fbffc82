/** The dry run runs a JSONPath selection on the sampled value, as the run does on the real one. */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/simulate/index.js';
import type { Tool } from '../../src/tools/tool.js';

const search: Tool = {
  name: 'search',
  outputSchema: {
    type: 'array',
    minItems: 2,
    items: {
      type: 'object',
      properties: { price: { type: 'number', minimum: 500, maximum: 900 } },
      required: ['price'],
      additionalProperties: false,
    },
  },
};
const pick: Tool = {
  name: 'pick',
  inputSchema: {
    type: 'object',
    properties: { list: { type: 'array', minItems: 1 } },
    required: ['list'],
  },
};
const one: Tool = {
  name: 'one',
  inputSchema: { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] },
};

describe('simulate: selections', () => {
  it('samples what the selection selects from the sample', () => {
    const simulation = simulate(
      [
        { _id: 'search', _tool: 'search', _outputPath: '†state.results' },
        // No sampled price is under 300: the filter selects [], which `minItems: 1` refuses.
        { _id: 'cheap', _tool: 'pick', list: '†state.results[?(@.price < 300)]' },
        { _id: 'dear', _tool: 'pick', list: '†state.results[?(@.price >= 500)]' },
        { _id: 'last', _tool: 'one', price: '†state.results[-1].price' },
        { _id: 'head', _tool: 'pick', list: '†state.results[0:1]' },
      ],
      { tools: [search, pick, one] },
    );
    const scenario = simulation.scenarios[0]!;
    expect(scenario.run).toEqual(['search', 'cheap', 'dear', 'last', 'head']);
    expect(scenario.argumentErrors).toHaveLength(1);
    expect(simulation.diagnostics.map((d) => [d.code, d.call])).toEqual([['E_SIM_ARGS', 'cheap']]);
  });
});
