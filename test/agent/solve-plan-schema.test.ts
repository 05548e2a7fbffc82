/** solve() asks for solutions in the plan schema of exactly the tools it offers. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import { planSchema, type Tool } from '../../src/index.js';

const tools: Tool[] = [
  {
    name: 'lookup',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    execute: () => ({ found: true }),
  },
  {
    name: 'summarize',
    latent: true,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    outputSchema: { type: 'string' },
  },
];

async function formatOf(mode: 'eager' | 'lazy') {
  const provider = new ScriptedProvider({ turns: [{ text: JSON.stringify({ calls: [], output: 'done' }) }] });
  const result = await new PlanAgent({ provider, tools }).solve({ id: 'a' }, { mode });
  expect(result.status).toBe('done');
  return provider.requests[0]!.responseFormat!;
}

describe('solve() and planSchema', () => {
  it('sends the solution-shaped plan schema of the offered tools, for the mode', async () => {
    for (const mode of ['eager', 'lazy'] as const) {
      const format = await formatOf(mode);
      expect(format.name).toBe('solution');
      expect(format.schema).toEqual(planSchema(tools, { shape: 'solution', mode }));
    }
  });

  it('so an answer naming a tool that does not exist, or a bad output path, does not fit it', async () => {
    const validate = new Ajv2020({ strict: false }).compile((await formatOf('eager')).schema as object);
    const call = { _tool: 'lookup', id: '†input.id', _outputPath: '†state.r' };
    expect(validate({ calls: [call], output: null })).toBe(true);
    expect(validate({ calls: [{ ...call, _tool: 'lookUp' }], output: null })).toBe(false);
    expect(validate({ calls: [{ ...call, _outputPath: 'state.r' }], output: null })).toBe(false);
    const lazy = new Ajv2020({ strict: false }).compile((await formatOf('lazy')).schema as object);
    expect(lazy({ calls: [{ _tool: 'summarize', text: 'x', _output: 'y' }], output: null })).toBe(false);
  });
});
