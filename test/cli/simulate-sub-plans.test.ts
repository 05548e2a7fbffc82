/** `plan simulate` over workflow calls and `_forEach`: the text lines, and `--json` against its schema. */
import { afterAll, describe, expect, it } from 'vitest';
import { errorsOf } from '../schemas/ajv.js';
import { tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const { dir, cleanup } = tempDir({
  'tools.json': {
    tools: [
      {
        name: 'search',
        estimatedMs: 1,
        outputSchema: {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
        },
      },
      {
        name: 'fetch',
        estimatedMs: 10,
        inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
        outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
      {
        name: 'page',
        inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
        outputSchema: { type: 'object' },
        plan: [{ _id: 'get', _tool: 'fetch', url: '†input.url', _outputPath: '†state.p' }],
        output: { text: '†state.p.text' },
      },
      {
        name: 'need',
        inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      },
    ],
  },
  'plan.json': [
    { _id: 'search', _tool: 'search', _outputPath: '†state.results' },
    {
      _id: 'pages',
      _tool: 'page',
      _forEach: '†state.results',
      url: '†item.url',
      _outputPath: '†state.pages',
    },
    { _id: 'one', _tool: 'page', url: 'https://example.com', _outputPath: '†state.one' },
    { _id: 'use', _tool: 'need', n: '†state.one.text' },
  ],
});
afterAll(cleanup);

const run = (args: string[]) => planInProcess(['simulate', ...args], '', { cwd: dir });

describe('plan simulate: workflows and _forEach', () => {
  it("prints each workflow call's sub-plan and each _forEach call's elements, and the error they lead to", async () => {
    const r = await run(['plan.json', '--tools', 'tools.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('  #1  pages=[]');
    expect(r.stderr).toMatch(/error E_SIM_ARGS: argument \/n of call "use" \(tool "need"\) must be integer/);
    expect(r.stderr).toContain('  for-each pages: 2 elements sampled, 16 at once (weight 10)\n');
    expect(r.stderr).toContain('  workflow pages (page): runs 1 of 1 call, critical path get (weight 10)\n');
    expect(r.stderr).toContain('  workflow one (page): runs 1 of 1 call, critical path get (weight 10)\n');
  });

  it('--json has workflows, forEach and emptyForEach, valid against the schema', async () => {
    const r = await run(['plan.json', '--tools', 'tools.json', '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(errorsOf('simulate-output.schema.json', out)).toEqual([]);
    expect(out.forEach).toEqual({ pages: { elements: 2, lanes: 16, weight: 10 } });
    expect(out.workflows.one).toMatchObject({ workflow: 'page', calls: 1, criticalPath: ['get'] });
    expect(out.scenarios.map((s: { emptyForEach: string[] }) => s.emptyForEach)).toEqual([[], ['pages']]);
    expect(out.criticalPath).toEqual(['search', 'pages']);
    expect(out.criticalPathWeight).toBe(11);
  });
});
