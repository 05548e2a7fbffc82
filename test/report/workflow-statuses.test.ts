/**
 * The HTML report of a run: a workflow call opens onto a graph of its own sub-run, each inner
 * call in the class of how it ended (`s-succeeded`, `s-handled`, ...); two calls of one workflow
 * that ended differently get two graphs. A dry run's workflow graph stays uncoloured (`s-static`).
 */
import { describe, expect, it } from 'vitest';
import { compile, run, simulate, type Tool } from '../../src/index.js';
import { renderReport } from '../../src/report/index.js';

const tools: Tool[] = [
  { name: 'fetch', annotations: { readOnlyHint: true }, execute: (args) => `page ${String(args.url)}` },
  {
    name: 'check',
    annotations: { readOnlyHint: true },
    execute: (args) => {
      if (args.url === 'bad') throw new Error('refused');
      return 'ok';
    },
  },
  {
    name: 'digest',
    inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
    plan: [
      { _id: 'get', _tool: 'fetch', url: '†input.url', _outputPath: '†state.page' },
      {
        _id: 'vet',
        _tool: 'check',
        url: '†input.url',
        _outputPath: '†state.ok || †state.problem',
        _onError: '†state.problem',
      },
    ],
    output: '†state.page',
  },
];

/** The inner calls' classes in each workflow template, in template order. */
function templateClasses(html: string): string[][] {
  return [...html.matchAll(/<template id="wf-\d+">([\s\S]*?)<\/template>/g)].map((m) =>
    [...m[1]!.matchAll(/class="n (s-[a-z_]+)/g)].map((c) => c[1]!),
  );
}

describe('a workflow call in the report of a run', () => {
  it('opens onto its sub-run, each inner call coloured by its status, one graph per call', async () => {
    const compiled = compile(
      [
        { _id: 'good', _tool: 'digest', url: 'a', _outputPath: '†state.a' },
        { _id: 'bad', _tool: 'digest', url: 'bad', _outputPath: '†state.b' },
      ],
      { tools },
    );
    const plan = compiled.plan!;
    const result = await run(plan, { tools: plan.tools! });
    expect(result.status).toBe('succeeded');
    expect(templateClasses(renderReport({ plan, result }))).toEqual([
      ['s-succeeded', 's-succeeded'],
      ['s-succeeded', 's-handled'],
    ]);
  });

  it('a dry run draws the workflow once, uncoloured', () => {
    const compiled = compile(
      [
        { _id: 'good', _tool: 'digest', url: 'a', _outputPath: '†state.a' },
        { _id: 'bad', _tool: 'digest', url: 'bad', _outputPath: '†state.b' },
      ],
      { tools },
    );
    const simulation = simulate(compiled.plan!);
    expect(templateClasses(renderReport({ plan: compiled.plan!, simulation }))).toEqual([
      ['s-static', 's-static'],
    ]);
  });
});
