/**
 * `plan run` and workflows: the listing a person approves shows each workflow's calls under the
 * call that runs it; a call inside a workflow says where it is when it is asked about (and when
 * --yes approves it); the events of a sub-run go to --events with their parent, not to the views.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatCallQuestion, formatPlanListing } from '../../src/cli/approvals/approval-prompt.js';
import { approvedByYesLine } from '../../src/cli/approvals/approval-lines.js';
import { compile } from '../../src/compile/index.js';
import type { Tool } from '../../src/tools/tool.js';
import { tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const tools: Tool[] = [
  { name: 'fetchPage', execute: () => 'page' },
  { name: 'publish', needsApproval: true, execute: () => 'ok' },
  {
    name: 'digest',
    plan: [{ _id: 'get', _tool: 'fetchPage', url: '†input.url', _outputPath: '†state.page' }],
    output: '†state.page',
  },
  {
    name: 'report',
    plan: [
      { _id: 'each', _tool: 'digest', _forEach: '†input.urls', url: '†item', _outputPath: '†state.pages' },
      { _id: 'out', _tool: 'publish', text: '†state.pages', _outputPath: '†state.done' },
    ],
    output: '†state.done',
  },
];

describe('the listing of a lazy plan at the prompt', () => {
  it("shows each workflow's calls under its first call, nested, and points later calls there", () => {
    const compiled = compile(
      {
        type: 'plan',
        mode: 'lazy',
        plan: [
          { _id: 'r1', _tool: 'report', urls: ['a'], _outputPath: '†state.r1' },
          { _id: 'r2', _tool: 'report', urls: ['b'], _outputPath: '†state.r2' },
        ],
      },
      { tools },
    );
    expect(formatPlanListing(compiled.plan!, { file: 'plan.json', color: false })).toBe(
      // report has an effect (publish): r2 follows r1 in program order.
      'plan.json: lazy plan, 2 calls, 1 edge\n' +
        '  r1  report  {"urls":["a"]}  → †state.r1\n' +
        '    ↳ each  digest  {"url":"†item"}  → †state.pages  [for each †input.urls]\n' +
        '      ↳ get  fetchPage  {"url":"†input.url"}  → †state.page\n' +
        '    ↳ out  publish  {"text":"†state.pages"}  → †state.done  [needs approval]\n' +
        '  r2  report  {"urls":["b"]}  → †state.r2\n' +
        '    ↳ (workflow report: its calls are listed under r1)\n',
    );
  });
});

describe('the question for a call', () => {
  it('inside a workflow says where it is: the chain of workflow calls, with the element', () => {
    const question = formatCallQuestion(
      {
        call: 'get',
        tool: 'fetchPage',
        args: { url: 'a' },
        parent: [
          { call: 'r1', tool: 'report' },
          { call: 'each', tool: 'digest', element: 1 },
        ],
      },
      false,
    );
    expect(question).toBe('Run get (fetchPage) in r1 (report) › each[1] (digest) with {"url":"a"}? [y/N] ');
  });

  it('of a _forEach call shows every element’s arguments, once for the whole call', () => {
    const question = formatCallQuestion(
      {
        call: 'all',
        tool: 'publish',
        args: { _forEach: ['a', 'b'], text: '†item' },
        elements: [{ text: 'a' }, { text: 'b' }],
      },
      false,
    );
    expect(question).toBe('Run all (publish) for each of 2 elements: [{"text":"a"},{"text":"b"}]? [y/N] ');
  });

  it('approved by --yes, says where it is too', () => {
    const line = approvedByYesLine({
      kind: 'call',
      call: 'out',
      tool: 'publish',
      args: { text: 'x' },
      reason: "tool 'publish' needs approval",
      definition: tools[1]!,
      parent: [{ call: 'r1', tool: 'report' }],
    });
    expect(line).toBe('approved by --yes: call out publish in r1 (report) {"text":"x"}\n');
  });
});

const TOOLS_MODULE = `
export const tools = [
  { name: 'fetchPage', execute: (args) => 'page ' + args.url },
  { name: 'publish', needsApproval: true, execute: () => 'ok' },
  {
    name: 'digest',
    plan: [{ _id: 'get', _tool: 'fetchPage', url: '†input.url', _outputPath: '†state.page' }],
    output: '†state.page',
  },
  {
    name: 'report',
    plan: [
      { _id: 'each', _tool: 'digest', _forEach: '†input.urls', url: '†item', _outputPath: '†state.pages' },
      { _id: 'out', _tool: 'publish', text: '†state.pages', _outputPath: '†state.done' },
    ],
    output: '†state.done',
  },
];
`;

const { dir, cleanup } = tempDir({
  'tools.mjs': TOOLS_MODULE,
  // The outer plan has a call "get" too: the views follow this plan's calls, not the workflow's.
  'plan.json': [
    { _id: 'r1', _tool: 'report', urls: ['a', 'b'], _outputPath: '†state.r1' },
    { _id: 'get', _tool: 'fetchPage', url: 'z', _outputPath: '†state.z' },
  ],
});
afterAll(cleanup);

describe('plan run with workflows', () => {
  it('--yes names where an inner call is; --events writes inner events with parent, the view shows the plan’s own', async () => {
    const r = await planInProcess([
      'run',
      join(dir, 'plan.json'),
      '--tools',
      join(dir, 'tools.mjs'),
      '--yes',
      '--events',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'approved by --yes: call out publish in r1 (report) {"text":["page a","page b"]}\n',
    );
    const events = r.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { type: string; call?: string; parent?: unknown });
    const innerGets = events.filter(
      (e) => e.type === 'call:end' && e.call === 'get' && e.parent !== undefined,
    );
    expect(innerGets.map((e) => e.parent)).toEqual(
      expect.arrayContaining([
        [
          { call: 'r1', tool: 'report' },
          { call: 'each', tool: 'digest', element: 0 },
        ],
        [
          { call: 'r1', tool: 'report' },
          { call: 'each', tool: 'digest', element: 1 },
        ],
      ]),
    );
    // The plain view's lines (stderr) are the plan's own calls: one start of "get", the outer one.
    expect(r.stderr.match(/^call:start get /gm)).toHaveLength(1);
    expect(r.stderr.match(/^run:start /gm)).toHaveLength(1);
  });
});
