/** A dry run's sample of an array schema without `items` holds elements, so `[0]` reads run. */
import { describe, expect, it } from 'vitest';
import { withArrayItems } from '../../src/simulate/array-items.js';
import { simulate } from '../../src/simulate/index.js';

describe('arrays without items in a dry run', () => {
  it('run the readers of their first element', () => {
    const tools = [
      {
        name: 'search',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { movies: { type: 'array' } }, required: ['movies'] },
      },
      { name: 'use', inputSchema: { type: 'object' } },
    ];
    const simulation = simulate(
      [
        { _id: 'a', _tool: 'search', _outputPath: '†state.a' },
        { _id: 'b', _tool: 'use', x: '†state.a.movies[0]' },
      ],
      { tools },
    );
    expect(simulation.scenarios.map((s) => s.skipped)).toEqual([[]]);
    expect((simulation.samples.a!.value as { movies: unknown[] }).movies.length).toBeGreaterThan(0);
  });

  it('copies only a schema that has such an array', () => {
    const typed = { type: 'array', items: { type: 'string' } };
    expect(withArrayItems(typed)).toBe(typed);
    const open = {
      anyOf: [{ type: ['array', 'null'] }],
      properties: { x: { type: 'array', prefixItems: [] } },
    };
    expect(withArrayItems(open)).toEqual({
      anyOf: [{ type: ['array', 'null'], items: {} }],
      properties: { x: { type: 'array', prefixItems: [] } },
    });
    expect(open.anyOf[0]).not.toHaveProperty('items');
  });
});
