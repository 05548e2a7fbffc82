/**
 * A lazy plan's approval shows what its workflows will call (PlanApprovalRequest.workflows):
 * a person approves what will actually run, not only the names of the workflows.
 */
import { describe, expect, it } from 'vitest';
import { type CompiledPlan, type PlanApprovalRequest, run, type Tool } from '../../src/index.js';

const fetchPage: Tool = { name: 'fetchPage', execute: (args) => `page ${String(args.url)}` };
const summarize: Tool = { name: 'summarize', execute: (args) => `summary of ${String(args.text)}` };
const publish: Tool = { name: 'publish', needsApproval: true, execute: () => 'published' };

/** fetch and summarize: a workflow of plain tools. */
const digest: Tool = {
  name: 'digest',
  plan: [
    { _id: 'get', _tool: 'fetchPage', url: '†input.url', _outputPath: '†state.page' },
    { _id: 'sum', _tool: 'summarize', text: '†state.page', _outputPath: '†state.summary' },
  ],
  output: '†state.summary',
};
/** digest per url, then publish: a workflow that calls a workflow under a _forEach. */
const report: Tool = {
  name: 'report',
  plan: [
    { _id: 'each', _tool: 'digest', _forEach: '†input.urls', url: '†item', _outputPath: '†state.digests' },
    { _id: 'out', _tool: 'publish', text: '†state.digests', _outputPath: '†state.done' },
  ],
  output: '†state.done',
};

const tools = [fetchPage, summarize, publish, digest, report];

async function planRequest(plan: unknown[]): Promise<PlanApprovalRequest<CompiledPlan>> {
  let asked: PlanApprovalRequest<CompiledPlan> | undefined;
  await run(
    { type: 'plan', mode: 'lazy', plan },
    {
      tools,
      approve: (request) => {
        if (request.kind === 'plan') asked = request as PlanApprovalRequest<CompiledPlan>;
        return false;
      },
    },
  );
  return asked!;
}

describe("a lazy plan's approval request", () => {
  it("lists each workflow's calls as written, nested workflows included, each workflow once", async () => {
    const request = await planRequest([
      { _id: 'r1', _tool: 'report', urls: ['a', 'b'], _outputPath: '†state.r1' },
      { _id: 'r2', _tool: 'report', urls: ['c'], _outputPath: '†state.r2' },
      { _id: 'd', _tool: 'digest', url: 'x', _outputPath: '†state.d' },
    ]);
    expect(request.workflows).toEqual({
      report: [
        {
          id: 'each',
          tool: 'digest',
          args: { url: '†item' },
          outputPath: '†state.digests',
          forEach: '†input.urls',
        },
        {
          id: 'out',
          tool: 'publish',
          args: { text: '†state.digests' },
          outputPath: '†state.done',
          needsApproval: true,
        },
      ],
      digest: [
        { id: 'get', tool: 'fetchPage', args: { url: '†input.url' }, outputPath: '†state.page' },
        { id: 'sum', tool: 'summarize', args: { text: '†state.page' }, outputPath: '†state.summary' },
      ],
    });
    // The fields a request had are as they were.
    expect(request).toMatchObject({ kind: 'plan', reason: 'a lazy plan runs only once approved' });
    expect(request.plan.calls.map((c) => c.id)).toEqual(['r1', 'r2', 'd']);
  });

  it('has no workflows field when the plan calls none', async () => {
    const request = await planRequest([{ _tool: 'fetchPage', url: 'a' }]);
    expect(request).not.toHaveProperty('workflows');
  });

  it('reaches a workflow called only from inside another', async () => {
    const request = await planRequest([{ _tool: 'report', urls: ['a'] }]);
    expect(Object.keys(request.workflows!).sort()).toEqual(['digest', 'report']);
  });
});
