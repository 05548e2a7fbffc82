/** A streamed plan is type-checked call by call: a call whose argument can never fit never starts. */
import { describe, expect, it } from 'vitest';
import { run, type Tool } from '../../src/index.js';

describe('type flow on a streamed plan', () => {
  it('refuses a call whose reference can never fit before it starts, and runs the rest', async () => {
    const started: string[] = [];
    const search: Tool = {
      name: 'search',
      outputSchema: { type: 'array', items: { type: 'string' } },
      execute: async () => {
        started.push('search');
        return ['a', 'b'];
      },
    };
    const summarize: Tool = {
      name: 'summarize',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: async (args) => {
        started.push(`summarize ${String(args.text)}`);
        return 'ok';
      },
    };
    async function* calls() {
      yield { _id: 's', _tool: 'search', _outputPath: '†state.r' };
      yield { _id: 'whole', _tool: 'summarize', text: '†state.r' };
      yield { _id: 'first', _tool: 'summarize', text: '†state.r[0]' };
    }
    const result = await run(calls(), { tools: [search, summarize] });
    const byId = Object.fromEntries(result.calls.map((c) => [c.id, c]));
    // Refused when it arrived: the tool never saw the array.
    expect(byId.whole!.status).toBe('failed');
    expect(byId.whole!.error?.message).toContain('expects string');
    expect(started).toEqual(['search', 'summarize a']);
    expect(result.diagnostics.map((d) => `${d.code} ${d.pointer}`)).toEqual(['E_REF_TYPE /1/text']);
  });
});
