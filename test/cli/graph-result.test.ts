/**
 * A run drawn: `plan run --json` gives each workflow call's sub-run (`workflow: {status, calls}`),
 * and `plan graph --result` colours every call by how it ended, the calls inside workflows too;
 * the library's toGraphJson/toDot/toMermaid do the same with a RunResult.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, type Tool } from '../../src/index.js';
import { toDot, toGraphJson, toMermaid } from '../../src/report/index.js';
import { expectUsageError, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const TOOLS_MODULE = `
export const tools = [
  { name: 'fetch', annotations: { readOnlyHint: true }, execute: (args) => 'page ' + args.url },
  { name: 'broken', annotations: { readOnlyHint: true }, execute: () => { throw new Error('down'); } },
  {
    name: 'digest',
    plan: [
      { _id: 'get', _tool: 'fetch', url: '†input.url', _outputPath: '†state.page' },
      { _id: 'extra', _tool: 'broken', _outputPath: '†state.extra || †state.failed', _onError: '†state.failed' },
    ],
    output: '†state.page',
  },
];
`;

const PLAN = [
  { _id: 'd', _tool: 'digest', url: 'a', _outputPath: '†state.d' },
  { _id: 'f', _tool: 'fetch', url: 'b', _outputPath: '†state.f' },
];

const { dir, cleanup } = tempDir({ 'tools.mjs': TOOLS_MODULE, 'plan.json': PLAN });
afterAll(cleanup);
const plan = (args: string[]) => planInProcess(args, '', { cwd: dir });

describe('plan graph --result', () => {
  it('colours each call by the status plan run --json gave it, inside the workflow too', async () => {
    const ran = await plan(['run', 'plan.json', '--tools', 'tools.mjs', '--json']);
    expect(ran.code).toBe(0);
    const json = JSON.parse(ran.stdout);
    expect(json.calls[0].workflow).toMatchObject({
      status: 'succeeded',
      calls: [
        { id: 'get', status: 'succeeded' },
        { id: 'extra', status: 'failed', handled: true },
      ],
    });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'run.json'), ran.stdout);

    const graph = await plan([
      'graph',
      'plan.json',
      '--tools',
      'tools.mjs',
      '--result',
      'run.json',
      '--json',
    ]);
    expect(graph.code).toBe(0);
    const nodes = JSON.parse(graph.stdout).nodes;
    expect(nodes.map((n: { id: string; status?: string }) => [n.id, n.status])).toEqual([
      ['d', 'succeeded'],
      ['f', 'succeeded'],
    ]);
    expect(
      nodes[0].workflowGraph.nodes.map((n: { id: string; status?: string }) => [n.id, n.status]),
    ).toEqual([
      ['get', 'succeeded'],
      ['extra', 'failed'],
    ]);

    const dot = await plan([
      'graph',
      'plan.json',
      '--tools',
      'tools.mjs',
      '--result',
      'run.json',
      '--format',
      'dot',
    ]);
    // The inner call handled its failure: the report's colour for a handled failure.
    expect(dot.stdout).toMatch(/n0_1 \[label="extra: broken[^\]]*fillcolor="#fde2b8"/);
    expect(dot.stdout).toMatch(/n0_0 \[label="get: fetch[^\]]*fillcolor="#c8ecd0"/);
    const mermaid = await plan(['graph', 'plan.json', '--tools', 'tools.mjs', '--result', 'run.json']);
    expect(mermaid.stdout).toContain('class n0,n1,n0_0 succeeded');
    expect(mermaid.stdout).toContain('class n0_1 handled');
  });

  it('a result of another plan is exit 2, saying which call differs', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      join(dir, 'other.json'),
      JSON.stringify({
        calls: [
          { id: 'x', status: 'succeeded' },
          { id: 'f', status: 'failed' },
        ],
      }),
    );
    const r = await plan(['graph', 'plan.json', '--tools', 'tools.mjs', '--result', 'other.json']);
    expectUsageError(
      r,
      /--result 'other.json' is not a run of this plan: its call 1 is "x", and the plan's "d"/,
    );
  });
});

describe('the library: a RunResult draws its workflow calls’ insides', () => {
  it('toGraphJson, toDot and toMermaid colour the inner calls from the call’s report', async () => {
    const tools: Tool[] = [
      { name: 'fetch', annotations: { readOnlyHint: true }, execute: (args) => `page ${String(args.url)}` },
      {
        name: 'digest',
        plan: [{ _id: 'get', _tool: 'fetch', url: '†input.url', _outputPath: '†state.page' }],
        output: '†state.page',
      },
    ];
    const { compile } = await import('../../src/index.js');
    const compiled = compile(PLAN.slice(0, 1), { tools });
    const result = await run(compiled.plan!, { tools: compiled.plan!.tools! });
    expect(result.calls[0]!.workflow?.calls.map((c) => [c.id, c.status])).toEqual([['get', 'succeeded']]);
    const json = toGraphJson(compiled.plan!, { result });
    expect(json.nodes[0]!.workflowGraph!.nodes[0]!.status).toBe('succeeded');
    expect(toDot(compiled.plan!, { result })).toMatch(/n0_0 \[label="get: fetch[^\]]*fillcolor="#c8ecd0"/);
    expect(toMermaid(compiled.plan!, { result })).toContain('class n0,n0_0 succeeded');
  });
});
