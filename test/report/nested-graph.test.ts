/**
 * `plan graph`'s pictures of a plan that composes: a `_forEach` call is one node saying what it
 * loops over (and, given a run, its element count and statuses); a workflow call opens onto its
 * own plan's graph, nested workflows inside, node names unique across the nesting.
 */
import { describe, expect, it } from 'vitest';
import { compile, run, type Tool, ToolRegistry } from '../../src/index.js';
import { toDot, toGraphJson, toMermaid } from '../../src/report/index.js';

const step: Tool = {
  name: 'step',
  execute: (args: { v?: unknown }) => {
    if (args.v === 2) throw new Error('two is refused');
    return 1;
  },
};
const inner: Tool = {
  name: 'inner',
  plan: [
    { _id: 'first', _tool: 'step', _outputPath: '†state.x' },
    { _id: 'second', _tool: 'step', v: '†state.x', _outputPath: '†state.y' },
  ],
  output: '†state.y',
};
const outer: Tool = {
  name: 'outer',
  plan: [
    { _id: 'a', _tool: 'step', _outputPath: '†state.x' },
    { _id: 'b', _tool: 'inner', _outputPath: '†state.z' },
  ],
  output: '†state.z',
};
const tools = new ToolRegistry([step, inner, outer]);
const input = { list: [1, 2, 3] };
const { plan } = compile(
  [
    { _id: 'w', _tool: 'outer', _outputPath: '†state.a' },
    { _id: 'each', _tool: 'step', _forEach: '†input.list', v: '†item', _outputPath: '†state.out' },
    { _id: 'w2', _tool: 'inner', x: '†state.a' },
  ],
  { tools, input },
);

describe('a for-each call in the graph', () => {
  it('is one node that says what it loops over', () => {
    expect(toMermaid(plan!)).toContain('n1["each: step<br/>for each †input.list<br/>→ †state.out"]');
    expect(toDot(plan!)).toContain(
      'n1 [label="each: step\\nfor each †input.list\\n→ †state.out", peripheries=2];',
    );
    expect(toGraphJson(plan!).nodes[1]!.forEach).toEqual({ source: '†input.list' });
  });

  it("with a run's result, says how many elements it had and how they ended", async () => {
    const result = await run(plan!, { tools, input, concurrency: 1 });
    expect(result.calls[1]!.status).toBe('failed');
    const summary = '3 elements: 1 succeeded, 1 failed, 1 not run';
    expect(toMermaid(plan!, { result })).toContain(`for each †input.list<br/>${summary}<br/>`);
    expect(toDot(plan!, { result })).toContain(`for each †input.list\\n${summary}\\n`);
    expect(toGraphJson(plan!, { result }).nodes[1]!.forEach).toEqual({
      source: '†input.list',
      elements: { count: 3, succeeded: 1, failed: 1, notRun: 1 },
    });
  });
});

describe('a workflow call in the graph', () => {
  it('opens onto its own plan in Mermaid: nested subgraphs, a runs edge into each', () => {
    const text = toMermaid(plan!);
    const at = (line: string) => {
      const k = text.split('\n').indexOf(line);
      expect(k, line).toBeGreaterThan(-1);
      return k;
    };
    const open = at('  subgraph s_n0["w: outer"]');
    const a = at('    n0_0["a: step<br/>→ †state.x"]');
    const nested = at('    subgraph s_n0_1["b: inner"]');
    const deep = at('      n0_1_1["second: step<br/>→ †state.y"]');
    at('      n0_1_0 -->|"†state.x"| n0_1_1');
    const close = at('  end');
    expect(open < a && a < nested && nested < deep && deep < close).toBe(true);
    at('  n0 -.->|"runs"| s_n0');
    at('  n0_1 -.->|"runs"| s_n0_1');
    // The same workflow called from the top is its own subgraph, with its own node names.
    at('  subgraph s_n2["w2: inner"]');
    at('    n2_0 -->|"†state.x"| n2_1');
    at('  n2 -.->|"runs"| s_n2');
  });

  it('opens onto its own plan in DOT: nested clusters, an edge into each clipped at its border', () => {
    const text = toDot(plan!);
    expect(text).toContain('  compound=true;');
    expect(text).toContain('  subgraph cluster_n0 {\n    label="w: outer";\n    style=dashed;\n');
    expect(text).toContain('    subgraph cluster_n0_1 {\n      label="b: inner";');
    expect(text).toContain('      n0_1_0 -> n0_1_1 [label="†state.x"];');
    expect(text).toContain('  n0 -> n0_0 [lhead=cluster_n0, label="runs", style=dotted];');
    expect(text).toContain('  n0_1 -> n0_1_0 [lhead=cluster_n0_1, label="runs", style=dotted];');
    expect(text).toContain('  n2 -> n2_0 [lhead=cluster_n2, label="runs", style=dotted];');
    // Every node name is declared once, across the nesting.
    const names = [...text.matchAll(/^\s*(n[\d_]+) \[label=/gm)].map((m) => m[1]);
    expect(names).toEqual(['n0', 'n1', 'n2', 'n0_0', 'n0_1', 'n0_1_0', 'n0_1_1', 'n2_0', 'n2_1']);
    expect(new Set(names).size).toBe(names.length);
  });

  it("carries its plan's graph in JSON, each inner node with the path of ids from the top", () => {
    const graph = toGraphJson(plan!);
    const w = graph.nodes[0]!;
    expect(w.workflowGraph?.order).toEqual(['a', 'b']);
    const b = w.workflowGraph!.nodes[1]!;
    expect(b).toMatchObject({ id: 'b', tool: 'inner', workflow: true, path: ['w', 'b'] });
    expect(b.workflowGraph!.nodes.map((n) => n.path)).toEqual([
      ['w', 'b', 'first'],
      ['w', 'b', 'second'],
    ]);
    expect(b.workflowGraph!.edges).toEqual([
      { from: 'first', to: 'second', kind: 'data', path: '†state.x', paths: ['†state.x'] },
    ]);
    expect(graph.nodes[0]!.path).toBeUndefined();
  });

  it('is drawn closed past the depth or the call budget', () => {
    expect(toMermaid(plan!, { workflowDepth: 0 })).not.toContain('subgraph');
    const one = toMermaid(plan!, { workflowDepth: 1 });
    expect(one).toContain('subgraph s_n0[');
    expect(one).not.toContain('subgraph s_n0_1[');
    // Two calls allowed: the outer workflow opens, nothing inside it or after it does.
    const budget = toGraphJson(plan!, { maxWorkflowCalls: 2 });
    expect(budget.nodes[0]!.workflowGraph).toBeDefined();
    expect(budget.nodes[0]!.workflowGraph!.nodes[1]!.workflowGraph).toBeUndefined();
    expect(budget.nodes[2]!.workflowGraph).toBeUndefined();
    expect(budget.nodes[2]!.workflow).toBe(true);
  });

  it('nests 32 workflows deep without recursion, as deep as asked', () => {
    const chain: Tool[] = [
      { name: 'w0', plan: [{ _tool: 'step', _outputPath: '†state.r' }], output: '†state.r' },
    ];
    for (let k = 1; k < 32; k++)
      chain.push({
        name: `w${k}`,
        plan: [{ _tool: `w${k - 1}`, _outputPath: '†state.r' }],
        output: '†state.r',
      });
    const deepTools = new ToolRegistry([step, ...chain]);
    const deep = compile([{ _id: 'top', _tool: 'w31' }], { tools: deepTools }).plan!;
    const text = toDot(deep, { workflowDepth: 32 });
    expect(text.match(/subgraph cluster_/g)).toHaveLength(32);
    expect(text).toContain(`n0${'_0'.repeat(32)} [label="0: step\\n→ †state.r"];`);
  });
});
