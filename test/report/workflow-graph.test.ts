/** A workflow call in `plan graph`: a node marked as a workflow (a subroutine in Mermaid, box3d in DOT). */
import { describe, expect, it } from 'vitest';
import { compile, type Tool, ToolRegistry } from '../../src/index.js';
import { toDot, toGraphJson, toMermaid } from '../../src/report/index.js';

const step: Tool = { name: 'step', execute: () => 1 };
const flow: Tool = { name: 'flow', plan: [{ _tool: 'step', _outputPath: '†state.x' }], output: '†state.x' };

describe('a workflow call in the graph', () => {
  const { plan } = compile(
    [
      { _id: 'w', _tool: 'flow', _outputPath: '†state.a' },
      { _id: 's', _tool: 'step', x: '†state.a' },
    ],
    { tools: new ToolRegistry([step, flow]) },
  );

  it('is marked in the JSON graph, and drawn as a subroutine', () => {
    expect(toGraphJson(plan!).nodes.map((n) => n.workflow ?? false)).toEqual([true, false]);
    expect(toMermaid(plan!)).toContain('n0[["w: flow (workflow)<br/>→ †state.a"]]');
    expect(toMermaid(plan!)).toContain('n1["s: step"]');
    expect(toDot(plan!)).toMatch(/n0 \[label="w: flow \(workflow\)[^"]*", shape=box3d\]/);
  });
});
