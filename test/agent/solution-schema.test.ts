import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { solutionSchema } from '../../src/agent/plan-loop/solution-schema.js';
import type { Tool } from '../../src/index.js';

const tools: Tool[] = [
  {
    name: 'getWeather',
    description: 'Weather for a city',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
    },
  },
  {
    name: 'summarize',
    latent: true,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    outputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' },
  },
];

function validator(outputSchema?: Record<string, unknown>) {
  const schema = solutionSchema(tools, outputSchema ? { outputSchema } : {});
  return new Ajv({ strict: false }).compile(schema as object);
}

describe('solutionSchema', () => {
  const valid = validator();

  it('accepts calls that name a tool with its arguments, literal or referenced', () => {
    expect(
      valid({
        calls: [
          { _tool: 'getWeather', city: '†input.city', days: 2, _outputPath: '†state.w' },
          { _tool: 'summarize', text: '†state.w', _output: 'Sunny', _outputPath: '†state.s' },
        ],
        output: null,
      }),
    ).toBe(true);
  });

  it("rejects an unknown tool, a wrong argument type, a missing required argument and a key the tool's schema forbids", () => {
    const one = (call: Record<string, unknown>) => valid({ calls: [call], output: null });
    expect(one({ _tool: 'nope' })).toBe(false);
    expect(one({ _tool: 'getWeather', city: 3 })).toBe(false);
    expect(one({ _tool: 'getWeather', days: 1 })).toBe(false);
    expect(one({ _tool: 'getWeather', city: 'Oslo', unit: 'C' })).toBe(false);
    expect(one({ _tool: 'getWeather', city: 'Oslo', days: 'state.x' })).toBe(false);
    expect(one({ _tool: 'getWeather', city: 'Oslo', _outputPath: 'state.x' })).toBe(false);
  });

  it('requires both calls and output, and output follows the given schema or is null', () => {
    const typed = validator({
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
    });
    expect(typed({ calls: [], output: { answer: 'yes' } })).toBe(true);
    expect(typed({ calls: [], output: null })).toBe(true);
    expect(typed({ calls: [], output: { answer: 1 } })).toBe(false);
    expect(typed({ calls: [] })).toBe(false);
    expect(typed({ output: null })).toBe(false);
  });

  it("offers _output only for latent tools, with the tool's output schema", () => {
    expect(valid({ calls: [{ _tool: 'summarize', _output: 4 }], output: null })).toBe(false);
    const schema = JSON.stringify(solutionSchema(tools));
    expect(schema).not.toContain('$schema');
  });
});
