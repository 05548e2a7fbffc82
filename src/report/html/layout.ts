/**
 * Left-to-right positions for the report's graph, computed in Node so the page needs no layout
 * code. Small graphs go through `@dagrejs/dagre` (crossing reduction, edge routing, edge-label
 * placement). dagre's cost grows with edges times the ranks they span: a 1,000-call plan takes
 * it seconds to a minute, so above `dagreLimit` a plain layered layout takes over: a call's
 * column is its level in the plan's graph, rows are ordered by a few barycenter sweeps.
 * Either way every edge runs from left to right.
 */
import dagre from '@dagrejs/dagre';
import type { CompiledPlan } from '../../compile/types.js';

export interface Box {
  readonly w: number;
  readonly h: number;
}

export interface PlacedNode {
  /** Center. */
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface PlacedEdge {
  /** Indices of the calls: `from` must end before `to` starts. */
  readonly from: number;
  readonly to: number;
  /** The polyline to draw, first point at `from`, last at `to`. */
  readonly points: readonly { x: number; y: number }[];
  /** Where the label's center goes. */
  readonly labelX: number;
  readonly labelY: number;
}

export interface GraphLayout {
  readonly engine: 'dagre' | 'layered';
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
}

export interface LayoutOptions {
  /** Size of each call's box, by call index. */
  readonly boxes: readonly Box[];
  /** Size of each edge's label, by call index then dependency index. */
  readonly labelSize: (to: number, dependency: number) => Box;
  /** `auto`: dagre up to `dagreLimit` calls plus edges, the layered layout above. */
  readonly engine: 'auto' | 'dagre' | 'layered';
  readonly dagreLimit: number;
}

const MARGIN = 16;
const RANK_GAP = 72;
const NODE_GAP = 14;

export function layoutGraph(plan: CompiledPlan, options: LayoutOptions): GraphLayout {
  const useDagre =
    options.engine === 'dagre' ||
    (options.engine === 'auto' && plan.calls.length + plan.edgeCount <= options.dagreLimit);
  return useDagre ? dagreLayout(plan, options) : layeredLayout(plan, options);
}

function dagreLayout(plan: CompiledPlan, options: LayoutOptions): GraphLayout {
  // Named by index: call ids are arbitrary text, and a multigraph keeps one edge per dependency.
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({
    rankdir: 'LR',
    nodesep: NODE_GAP,
    ranksep: RANK_GAP,
    edgesep: 8,
    marginx: MARGIN,
    marginy: MARGIN,
  });
  plan.calls.forEach((call, i) => {
    const box = options.boxes[i]!;
    g.setNode(String(i), { width: box.w, height: box.h });
    call.dependencies.forEach((d, k) => {
      const label = options.labelSize(i, k);
      g.setEdge(String(d.from), String(i), { width: label.w, height: label.h, labelpos: 'c' }, String(k));
    });
  });
  dagre.layout(g);
  const nodes = plan.calls.map((_, i) => {
    const n = g.node(String(i));
    return { x: n.x ?? 0, y: n.y ?? 0, w: options.boxes[i]!.w, h: options.boxes[i]!.h };
  });
  const edges: PlacedEdge[] = [];
  plan.calls.forEach((call, i) => {
    call.dependencies.forEach((d, k) => {
      const e = g.edge({ v: String(d.from), w: String(i), name: String(k) });
      const points = e?.points ?? [nodes[d.from]!, nodes[i]!];
      edges.push({ from: d.from, to: i, points, labelX: e?.x ?? 0, labelY: e?.y ?? 0 });
    });
  });
  const graph = g.graph();
  return { engine: 'dagre', width: graph.width ?? 0, height: graph.height ?? 0, nodes, edges };
}

/**
 * Columns by level (so every edge points right), rows ordered by the mean row of each call's
 * dependencies, then of its dependents, then of its dependencies again: three linear sweeps
 * that remove most crossings of plans built in layers.
 */
function layeredLayout(plan: CompiledPlan, options: LayoutOptions): GraphLayout {
  const n = plan.calls.length;
  const columns: number[][] = [];
  for (let i = 0; i < n; i++) (columns[plan.levels[i] ?? 0] ??= []).push(i);
  const row = new Float64Array(n);
  for (const column of columns) column?.forEach((c, r) => (row[c] = r));
  const dependents: number[][] = Array.from({ length: n }, () => []);
  plan.calls.forEach((call, i) => call.dependencies.forEach((d) => dependents[d.from]!.push(i)));
  const sweep = (neighbours: (i: number) => Iterable<number>, list: number[][]) => {
    for (const column of list) {
      if (!column) continue;
      const key = new Map<number, number>();
      for (const c of column) {
        let sum = 0;
        let count = 0;
        for (const o of neighbours(c)) {
          sum += row[o]!;
          count++;
        }
        key.set(c, count > 0 ? sum / count : row[c]!);
      }
      column.sort((a, b) => key.get(a)! - key.get(b)! || a - b);
      column.forEach((c, r) => (row[c] = r));
    }
  };
  const before = (i: number) => plan.calls[i]!.dependencies.map((d) => d.from);
  sweep(before, columns);
  sweep((i) => dependents[i]!, [...columns].reverse());
  sweep(before, columns);

  // Column widths from the widest box (and label) in each; rows stacked with their own heights.
  const nodes = new Array<PlacedNode>(n);
  let x = MARGIN;
  let height = 0;
  for (const column of columns) {
    if (!column) continue;
    const width = Math.max(...column.map((c) => options.boxes[c]!.w));
    let y = MARGIN;
    for (const c of column) {
      const box = options.boxes[c]!;
      nodes[c] = { x: x + width / 2, y: y + box.h / 2, w: box.w, h: box.h };
      y += box.h + NODE_GAP;
    }
    height = Math.max(height, y - NODE_GAP + MARGIN);
    x += width + RANK_GAP * 2;
  }
  const edges: PlacedEdge[] = [];
  plan.calls.forEach((call, i) =>
    call.dependencies.forEach((d) => {
      const a = nodes[d.from]!;
      const b = nodes[i]!;
      const start = { x: a.x + a.w / 2, y: a.y };
      const end = { x: b.x - b.w / 2, y: b.y };
      // The label sits just after the source's column, where edges have not yet crossed much.
      const labelX = start.x + RANK_GAP;
      const t = (labelX - start.x) / Math.max(1, end.x - start.x);
      edges.push({
        from: d.from,
        to: i,
        points: [start, end],
        labelX,
        labelY: start.y + (end.y - start.y) * t,
      });
    }),
  );
  return {
    engine: 'layered',
    width: Math.max(x - RANK_GAP * 2 + MARGIN, MARGIN * 2),
    height: Math.max(height, MARGIN * 2),
    nodes,
    edges,
  };
}
