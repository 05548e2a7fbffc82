import { Graph } from '@dagrejs/graphlib';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import type { CompiledPlan } from '../../src/compile/types.js';
import { toDot, toGraphJson, toGraphlib, toMermaid } from '../../src/report/index.js';

function compiled(plan: unknown[]): CompiledPlan {
  const result = compile(plan);
  if (!result.plan) throw new Error(JSON.stringify(result.diagnostics));
  return result.plan;
}

/** fetch -> check (a branch) -> notify (the join), plus a second write of †state.user: an order edge. */
const branching = compiled([
  { _id: 'fetch', _tool: 'get_user', _outputPath: '†state.user' },
  { _id: 'check', _tool: 'check', name: '†state.user.name', _outputPath: '†state.ok || †state.err' },
  { _id: 'notify', _tool: 'notify', message: '†state.err', _outputPath: '†state.user' },
  { _id: 'fan', _tool: 'copy', _outputPath: '†state.a && †state.b' },
]);

/** Ids, tools and paths full of characters each format must escape. */
const awkward = compiled([
  { _id: 'say "hi"', _tool: 'a<b>&c', _outputPath: '†state["x\\"y"]' },
  { _id: 'back\\slash\nnewline', _tool: 't#1`|', v: '†state["x\\"y"]', _outputPath: '†state["a|b"]' },
  { _id: 'amp', _tool: '&lt;', w: '†state["a|b"]' },
]);

describe('toGraphJson', () => {
  it('lists nodes with id, tool, level and output alternatives', () => {
    const graph = toGraphJson(branching);
    expect(graph.mode).toBe('eager');
    expect(graph.nodes).toEqual([
      {
        id: 'fetch',
        index: 0,
        tool: 'get_user',
        level: 0,
        output: { text: '†state.user', op: null, paths: ['†state.user'] },
      },
      {
        id: 'check',
        index: 1,
        tool: 'check',
        level: 1,
        output: { text: '†state.ok || †state.err', op: '||', paths: ['†state.ok', '†state.err'] },
      },
      {
        id: 'notify',
        index: 2,
        tool: 'notify',
        level: 2,
        output: { text: '†state.user', op: null, paths: ['†state.user'] },
      },
      {
        id: 'fan',
        index: 3,
        tool: 'copy',
        level: 0,
        output: { text: '†state.a && †state.b', op: '&&', paths: ['†state.a', '†state.b'] },
      },
    ]);
  });

  it('gives edges from dependency to dependent with their kind and path', () => {
    const graph = toGraphJson(branching);
    expect(graph.edges).toEqual([
      { from: 'fetch', to: 'check', kind: 'data', path: '†state.user.name', paths: ['†state.user.name'] },
      { from: 'check', to: 'notify', kind: 'data', path: '†state.err', paths: ['†state.err'] },
      { from: 'fetch', to: 'notify', kind: 'order', path: '†state.user', paths: ['†state.user'] },
    ]);
    expect(graph.order).toEqual(['fetch', 'check', 'notify', 'fan']);
    expect(graph.criticalPath).toEqual(['fetch', 'check', 'notify']);
  });

  it('survives a JSON round trip unchanged', () => {
    const graph = toGraphJson(awkward);
    expect(JSON.parse(JSON.stringify(graph))).toEqual(graph);
    expect(graph.nodes[0]).toMatchObject({
      id: 'say "hi"',
      tool: 'a<b>&c',
      output: { paths: ['†state["x\\"y"]'] },
    });
  });
});

describe('toMermaid', () => {
  const text = toMermaid(branching);

  it('labels nodes with id, tool and output path, branches as hexagons', () => {
    expect(text).toMatch(/^%% planmode eager plan: 4 calls, 3 edges\nflowchart TD\n/);
    expect(text).toContain('  n0["fetch: get_user<br/>→ †state.user"]\n');
    expect(text).toContain('  n1{{"check: check<br/>→ †state.ok || †state.err"}}\n');
    expect(text).toContain('  n3["fan: copy<br/>→ †state.a && †state.b"]\n');
  });

  it('draws data edges solid and order edges dashed, labeled with their path', () => {
    expect(text).toContain('  n0 -->|"†state.user.name"| n1\n');
    expect(text).toContain('  n1 -->|"†state.err"| n2\n');
    expect(text).toContain('  n0 -.->|"†state.user"| n2\n');
  });

  it('escapes quotes, #, angle brackets, backticks, entities, pipes in edges and newlines', () => {
    const out = toMermaid(awkward);
    expect(out).toContain('n0["say #quot;hi#quot;: a#lt;b#gt;#38;c<br/>→ †state[#quot;x\\#quot;y#quot;]"]');
    expect(out).toContain('n1["back\\slash<br/>newline: t#35;1#96;|<br/>→ †state[#quot;a|b#quot;]"]');
    // `&lt;` (or `&c…`) would be decoded by the HTML renderer; `#38;` keeps the ampersand literal.
    expect(out).toContain('n2["amp: #38;lt;"]');
    expect(toMermaid(branching)).toContain('†state.a && †state.b');
    expect(out).toContain('n1 -->|"†state[#quot;a#124;b#quot;]"| n2');
    // Every node and edge is one line; no raw quote inside a label.
    for (const line of out.trimEnd().split('\n').slice(2)) {
      expect(line).toMatch(/^ {2}n\d+(\["[^"]*"\]|\{\{"[^"]*"\}\}| -(->|\.->)\|"[^"|]*"\| n\d+)$/);
    }
  });
});

describe('toDot', () => {
  const text = toDot(branching);

  it('writes a digraph with labeled nodes and edges', () => {
    expect(text).toMatch(
      /^\/\/ planmode eager plan: 4 calls, 3 edges\ndigraph plan \{\n {2}charset="UTF-8";\n/,
    );
    expect(text).toContain('  n0 [label="fetch: get_user\\n→ †state.user"];\n');
    expect(text).toContain('  n1 [label="check: check\\n→ †state.ok || †state.err", shape=hexagon];\n');
    expect(text).toContain('  n0 -> n1 [label="†state.user.name"];\n');
    expect(text).toContain('  n0 -> n2 [label="†state.user", style=dashed];\n');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('escapes backslashes, quotes and newlines', () => {
    const out = toDot(awkward);
    expect(out).toContain('n0 [label="say \\"hi\\": a<b>&c\\n→ †state[\\"x\\\\\\"y\\"]"];');
    expect(out).toContain('n1 [label="back\\\\slash\\nnewline: t#1`|\\n→ †state[\\"a|b\\"]"];');
    for (const line of out.split('\n')) {
      // Inside a label every quote is escaped: strip escapes, then at most the two delimiting quotes remain.
      const unescaped = line.replace(/\\\\|\\"/g, '');
      expect((unescaped.match(/"/g) ?? []).length % 2).toBe(0);
    }
  });
});

describe('toGraphlib', () => {
  it('builds a directed graphlib Graph with node and edge values, nodes named by index', () => {
    const graph = toGraphlib(branching);
    expect(graph).toBeInstanceOf(Graph);
    expect(graph.isDirected()).toBe(true);
    expect(graph.nodes()).toEqual(['0', '1', '2', '3']);
    expect(graph.node('1')).toEqual({ id: 'check', tool: 'check', index: 1 });
    expect(graph.edgeCount()).toBe(3);
    expect(graph.edge('0', '1')).toEqual({ kind: 'data', path: '†state.user.name' });
    expect(graph.edge('0', '2')).toEqual({ kind: 'order', path: '†state.user' });
    expect(graph.successors('0')?.sort()).toEqual(['1', '2']);
    expect(graph.sources().sort()).toEqual(['0', '3']);
  });

  it('is whole, and touches no prototype, when ids are names Object.prototype has', () => {
    const ids = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype'];
    const calls: unknown[] = [{ _id: ids[0], _tool: 't', _outputPath: '†state.a' }];
    for (const id of ids.slice(1)) calls.push({ _id: id, _tool: 't', x: '†state.a' });
    const plan = compile(calls, { tools: [{ name: 't', execute: () => 1 }] }).plan!;
    const graph = toGraphlib(plan);
    expect(graph.nodes().map((n) => graph.node(n).id)).toEqual(ids);
    expect(graph.successors('0')?.sort()).toEqual(['1', '2', '3', '4']);
    expect(graph.predecessors('1')).toEqual(['0']);
    // graphlib, given `__proto__` as a name, wrote its adjacency onto Object.prototype.
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>)['1']).toBeUndefined();
  });
});

describe('an edge that carries several paths', () => {
  // `use` reads two paths that `make` writes (one output, two reads): one dependency, two paths.
  const twoReads = compiled([
    { _id: 'make', _tool: 'make', _outputPath: '†state.user' },
    { _id: 'use', _tool: 'use', name: '†state.user.name', mail: '†state.user.mail' },
  ]);

  it('is one edge labeled with every path, in every format', () => {
    expect(twoReads.calls[1]!.dependencies).toHaveLength(1);
    const edge = toGraphJson(twoReads).edges[0]!;
    expect(edge).toMatchObject({ from: 'make', to: 'use', kind: 'data' });
    expect(edge.paths).toEqual(['†state.user.name', '†state.user.mail']);
    expect(toMermaid(twoReads)).toContain('|"†state.user.name, †state.user.mail"|');
    expect(toDot(twoReads)).toContain('[label="†state.user.name, †state.user.mail"]');
  });
});
