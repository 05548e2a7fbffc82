/**
 * Positions for the report's graph, left to right or top to bottom, computed in Node so the page
 * needs no layout code. Small graphs go through `@dagrejs/dagre` (crossing reduction, edge routing, edge-label
 * placement). dagre's cost grows with edges times the ranks they span: a 1,000-call plan takes
 * it seconds to a minute, so above `dagreLimit` a plain layered layout takes over: a call's
 * column is its level in the plan's graph, rows are ordered by a few barycenter sweeps.
 * Either way every edge runs the graph's direction (right, or down).
 *
 * `auto` picks the direction that fits a report's column: a chain runs down (a long row of
 * calls would need sideways scrolling at a readable size), a fan-out runs right (a long row of
 * siblings would). See {@link chooseDirection}.
 */
import dagre from '@dagrejs/dagre';
import type { CompiledPlan } from '../../compile/types.js';
import type { Direction, Point } from './edge-geometry.js';
import { labelOffset, placeEdgeLabels } from './label-placement.js';
import type { Box, GraphLayout, PlacedEdge, PlacedNode } from './placed-graph.js';
import { MAX_DEFAULT_ZOOM, MIN_DEFAULT_ZOOM, TYPICAL_COLUMN_WIDTH } from './zoom.js';

export type { Box, GraphLayout, PlacedEdge, PlacedNode };

export interface LayoutOptions {
  /** Size of each call's box, by call index. */
  readonly boxes: readonly Box[];
  /** Size of each edge's label, by call index then dependency index. */
  readonly labelSize: (to: number, dependency: number) => Box;
  /** `auto`: dagre up to `dagreLimit` calls plus edges, the layered layout above. */
  readonly engine: 'auto' | 'dagre' | 'layered';
  readonly dagreLimit: number;
  /** `LR` left to right, `TB` top to bottom, `auto` whichever fits a report's column better. */
  readonly direction: Direction | 'auto';
}

const MARGIN = 16;
const RANK_GAP = 72;
const NODE_GAP = 14;

export function layoutGraph(plan: CompiledPlan, options: LayoutOptions): GraphLayout {
  const useDagre =
    options.engine === 'dagre' ||
    (options.engine === 'auto' && plan.calls.length + plan.edgeCount <= options.dagreLimit);
  const layout = (direction: Direction) =>
    useDagre ? dagreLayout(plan, options, direction) : layeredLayout(plan, options, direction);
  const chosen =
    options.direction === 'auto' ? chooseDirection(layout('LR'), layout('TB')) : layout(options.direction);
  const sizes: Box[] = [];
  plan.calls.forEach((call, i) => call.dependencies.forEach((_, k) => sizes.push(options.labelSize(i, k))));
  return placeEdgeLabels(chosen, sizes, MARGIN);
}

/**
 * The layout a reader scrolls least in, shown at the page's default zoom (the column's width,
 * within the zoom limits): first the one that needs less sideways scrolling, then the one
 * that is shorter on screen.
 */
export function chooseDirection(lr: GraphLayout, tb: GraphLayout): GraphLayout {
  const onScreen = (l: GraphLayout) => {
    const zoom = Math.min(MAX_DEFAULT_ZOOM, Math.max(MIN_DEFAULT_ZOOM, TYPICAL_COLUMN_WIDTH / l.width));
    return { sideways: Math.max(0, l.width * zoom - TYPICAL_COLUMN_WIDTH), height: l.height * zoom };
  };
  const a = onScreen(lr);
  const b = onScreen(tb);
  if (Math.abs(a.sideways - b.sideways) > 1) return a.sideways < b.sideways ? lr : tb;
  return a.height <= b.height ? lr : tb;
}

function dagreLayout(plan: CompiledPlan, options: LayoutOptions, direction: Direction): GraphLayout {
  // Named by index: call ids are arbitrary text, and a multigraph keeps one edge per dependency.
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({
    rankdir: direction,
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
      // Room for the label on either side of the edge, which runs through the middle.
      const label = options.labelSize(i, k);
      const beside = labelOffset(direction, label) * 2;
      const room =
        direction === 'LR'
          ? { width: label.w, height: label.h + beside }
          : { width: label.w + beside, height: label.h };
      g.setEdge(String(d.from), String(i), { ...room, labelpos: 'c' }, String(k));
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
      const label = options.labelSize(i, k);
      const points = e?.points
        ? straightUnderLabel(e.points, { x: e.x ?? 0, y: e.y ?? 0 }, label, direction)
        : [nodes[d.from]!, nodes[i]!];
      edges.push({
        from: d.from,
        to: i,
        points,
        curved: points.length < 3,
        labelX: e?.x ?? 0,
        labelY: e?.y ?? 0,
      });
    });
  });
  const graph = g.graph();
  return { engine: 'dagre', direction, width: graph.width ?? 0, height: graph.height ?? 0, nodes, edges };
}

/**
 * dagre routes an edge through one point in the middle of its label's room, so neighbouring
 * edges bend right beside the label. Running the edge straight along the whole room instead
 * (which dagre keeps clear) leaves the label, placed beside that stretch, clear of them.
 */
function straightUnderLabel(points: readonly Point[], at: Point, label: Box, direction: Direction): Point[] {
  let k = -1;
  let best = Infinity;
  points.forEach((p, j) => {
    const d = Math.abs(p.x - at.x) + Math.abs(p.y - at.y);
    if (d < best) {
      best = d;
      k = j;
    }
  });
  if (k <= 0 || k >= points.length - 1 || best > 1) return [...points];
  const half = direction === 'LR' ? { x: label.w / 2, y: 0 } : { x: 0, y: label.h / 2 };
  return [
    ...points.slice(0, k),
    { x: at.x - half.x, y: at.y - half.y },
    { x: at.x + half.x, y: at.y + half.y },
    ...points.slice(k + 1),
  ];
}

/**
 * Columns by level (so every edge points right), rows ordered by the mean row of each call's
 * dependencies, then of its dependents, then of its dependencies again: three linear sweeps
 * that remove most crossings of plans built in layers. Top to bottom is the same layout turned
 * a quarter: laid out left to right with each box's sides swapped, then x and y exchanged.
 */
function layeredLayout(plan: CompiledPlan, options: LayoutOptions, direction: Direction): GraphLayout {
  if (direction === 'LR') return layeredLeftToRight(plan, options.boxes);
  const turned = layeredLeftToRight(
    plan,
    options.boxes.map((b) => ({ w: b.h, h: b.w })),
  );
  const swap = (p: Point): Point => ({ x: p.y, y: p.x });
  return {
    engine: 'layered',
    direction: 'TB',
    width: turned.height,
    height: turned.width,
    nodes: turned.nodes.map((n) => ({ x: n.y, y: n.x, w: n.h, h: n.w })),
    edges: turned.edges.map((e) => ({
      ...e,
      points: e.points.map(swap),
      labelX: e.labelY,
      labelY: e.labelX,
    })),
  };
}

function layeredLeftToRight(plan: CompiledPlan, boxes: readonly Box[]): GraphLayout {
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
    const width = Math.max(...column.map((c) => boxes[c]!.w));
    let y = MARGIN;
    for (const c of column) {
      const box = boxes[c]!;
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
        curved: true,
        labelX,
        labelY: start.y + (end.y - start.y) * t,
      });
    }),
  );
  return {
    engine: 'layered',
    direction: 'LR',
    width: Math.max(x - RANK_GAP * 2 + MARGIN, MARGIN * 2),
    height: Math.max(height, MARGIN * 2),
    nodes,
    edges,
  };
}
