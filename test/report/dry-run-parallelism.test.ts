/**
 * A dry-run report gives one figure for how many calls run at once, in its header and under
 * its Steps panel: the simulation's widest step. The panel draws every scenario's calls
 * together, so the three exclusive alternatives of one branch share a step there; that is not
 * three calls at once, and the page does not say it is.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import { renderReport } from '../../src/report/index.js';
import { simulate } from '../../src/simulate/index.js';
import { defineTool } from '../../src/tools/index.js';

const tools = ['pick', 'a', 'b', 'c', 'join'].map((name) =>
  defineTool({ name, inputSchema: { type: 'object' }, execute: () => null }),
);
const PLAN = [
  { _id: 'pick', _tool: 'pick', _outputPath: '†state.x || †state.y || †state.z' },
  { _id: 'a', _tool: 'a', v: '†state.x', _outputPath: '†state.out' },
  { _id: 'b', _tool: 'b', v: '†state.y', _outputPath: '†state.out' },
  { _id: 'c', _tool: 'c', v: '†state.z', _outputPath: '†state.out' },
  { _id: 'join', _tool: 'join', v: '†state.out' },
];

function dryRunPage(): { header: string; note: string; maxParallelism: number } {
  const compiled = compile(PLAN, { tools });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
  const simulation = simulate(compiled.plan, { tools });
  const html = renderReport({ plan: compiled.plan, simulation });
  const header = /<p class="summary">(Critical path[^<]*)<\/p>/.exec(html)![1]!;
  const note = /<h2>Steps<\/h2><span class="note">([^<]*)<\/span>/.exec(html)![1]!;
  return { header, note, maxParallelism: simulation.maxParallelism };
}

describe('a dry-run report on parallelism', () => {
  it('says the same number in its header and under its Steps panel', () => {
    const { header, note, maxParallelism } = dryRunPage();
    expect(maxParallelism).toBe(1);
    expect(header).toContain('widest step: 1 call at once at most (pick)');
    expect(note).toContain('no scenario runs more than 1 at once');
    expect(note).toContain('up to 3 share a step across scenarios');
    expect(note).not.toMatch(/\b3 at most at once/);
  });
});
