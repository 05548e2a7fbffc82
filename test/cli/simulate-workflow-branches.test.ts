/**
 * `plan simulate` over a workflow that branches: each scenario names the choice made inside the
 * workflow call, on the terminal (`w/f=1`), in `--json` (`workflowChoices`, valid against the
 * schema) and on the report's scenario buttons (`w/f→1`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errorsOf } from '../schemas/ajv.js';
import { tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const { dir, cleanup } = tempDir({
  'tools.json': {
    tools: [
      { name: 'flip', outputSchema: { type: 'number' } },
      { name: 'fast', estimatedMs: 1, outputSchema: { type: 'string', minLength: 1 } },
      { name: 'slow', estimatedMs: 50, outputSchema: { type: 'integer' } },
      {
        name: 'need',
        inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      },
      {
        name: 'choose',
        plan: [
          { _id: 'f', _tool: 'flip', _outputPath: '†state.a || †state.b' },
          { _id: 'p', _tool: 'fast', x: '†state.a', _outputPath: '†state.r' },
          { _id: 'q', _tool: 'slow', x: '†state.b', _outputPath: '†state.r' },
        ],
        output: '†state.r',
      },
    ],
  },
  'plan.json': [
    { _id: 'w', _tool: 'choose', _outputPath: '†state.w' },
    { _id: 'use', _tool: 'need', n: '†state.w' },
  ],
});
afterAll(cleanup);

const run = (args: string[]) => planInProcess(['simulate', ...args], '', { cwd: dir });

describe('plan simulate: choices inside a workflow call', () => {
  it('names them on the terminal, with the calls down to them', async () => {
    const r = await run(['plan.json', '--tools', 'tools.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('dry run: 2 scenarios, 1 branch group\n');
    expect(r.stderr).toMatch(/ {2}#0 {2}w\/f=0 +runs 2, skips none {2}1 argument error\n/);
    expect(r.stderr).toMatch(/ {2}#1 {2}w\/f=1 +runs 2, skips none\n/);
    expect(r.stderr).toContain('critical path: w -> use (weight 52)');
  });

  it('--json lists workflowChoices, valid against the schema', async () => {
    const r = await run(['plan.json', '--tools', 'tools.json', '--json']);
    const out = JSON.parse(r.stdout);
    expect(errorsOf('simulate-output.schema.json', out)).toEqual([]);
    expect(out.scenarios.map((s: { workflowChoices: unknown }) => s.workflowChoices)).toEqual([
      [{ within: ['w'], call: 'f', choice: 0, varies: false }],
      [{ within: ['w'], call: 'f', choice: 1, varies: true }],
    ]);
    expect(out.branchGroups).toEqual([['w']]);
  });

  it("the report's scenario buttons name them", async () => {
    const r = await run(['plan.json', '--tools', 'tools.json', '--report', 'dry.html']);
    expect(r.code).toBe(1);
    const html = readFileSync(join(dir, 'dry.html'), 'utf8');
    expect(html).toContain('data-sc="1">#1 w/f→1: 2 run, 0 skipped</button>');
  });
});
