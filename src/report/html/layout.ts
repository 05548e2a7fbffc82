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
 * siblings would). See {@link chooseDirection}. When that layout is not seen whole on the first
 * screen (zoom.ts) but the other direction is, the other is taken; when neither is, a small
 * plan's levels are folded to fill the screen (layout-fold.ts).
 */
import dagre from '@dagrejs/dagre';
import type { CompiledPlan } from '../../compile/types.js';
import type { Direction, Point } from './edge-geometry.js';
import { labelOffset, placeEdgeLabels } from './label-placement.js';
import { orderedLevels } from './level-order.js';
import {
  type Box,
  type GraphLayout,
  type PlacedEdge,
  type PlacedNode,
  turnedQuarter,
} from './placed-graph.js';
import { foldedLayout } from './layout-fold.js';
import {
  FIRST_SCREEN_BOX,
  fitsFirstScreen,
  MAX_DEFAULT_ZOOM,
  MIN_DEFAULT_ZOOM,
  TYPICAL_COLUMN_WIDTH,
} from './zoom.js';

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
  const sizes: Box[] = [];
  plan.calls.forEach((call, i) => call.dependencies.forEach((_, k) => sizes.push(options.labelSize(i, k))));
  const labelled = (layout: GraphLayout, keepSize = false) =>
    placeEdgeLabels(layout, sizes, MARGIN, keepSize);
  const layout = (direction: Direction) =>
    useDagre ? dagreLayout(plan, options, direction) : layeredLayout(plan, options, direction);
  if (options.direction !== 'auto') return labelled(layout(options.direction));
  const lr = layout('LR');
  const tb = layout('TB');
  const chosen = labelled(chooseDirection(lr, tb));
  if (fitsFirstScreen(chosen) || options.engine !== 'auto' || plan.calls.length > FOLD_LIMIT) return chosen;
  const other = labelled(chosen.direction === 'LR' ? tb : lr);
  if (fitsFirstScreen(other)) return other;
  return bestFold(plan, options, labelled) ?? chosen;
}

/** Plans past this many calls are not folded: their graph would not fit one screen anyway. */
const FOLD_LIMIT = 100;

/**
 * Folded top to bottom and left to right (layout-fold.ts), the one seen whole on the first
 * screen with the fewest edge labels left out, then the largest; null when neither fits.
 */
function bestFold(
  plan: CompiledPlan,
  options: LayoutOptions,
  labelled: (layout: GraphLayout, keepSize: boolean) => GraphLayout,
): GraphLayout | null {
  const levels = orderedLevels(plan);
  const room = { w: FIRST_SCREEN_BOX.w / MIN_DEFAULT_ZOOM, h: FIRST_SCREEN_BOX.h / MIN_DEFAULT_ZOOM };
  const hidden = (l: GraphLayout) => l.edges.filter((e) => e.labelShown === false).length;
  const scale = (l: GraphLayout) => Math.min(room.w / l.width, room.h / l.height);
  const folds = (['TB', 'LR'] as const)
    .map((direction) =>
      labelled(foldedLayout(plan, { boxes: options.boxes, levels, room, direction, margin: MARGIN }), true),
    )
    .filter(fitsFirstScreen)
    .sort((a, b) => hidden(a) - hidden(b) || scale(b) - scale(a));
  return folds[0] ?? null;
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
 * Columns by level (so every edge points right), rows in the order of level-order.ts. Top to bottom is the same layout turned
 * a quarter: laid out left to right with each box's sides swapped, then x and y exchanged.
 */
function layeredLayout(plan: CompiledPlan, options: LayoutOptions, direction: Direction): GraphLayout {
  if (direction === 'LR') return layeredLeftToRight(plan, options.boxes);
  const turned = layeredLeftToRight(
    plan,
    options.boxes.map((b) => ({ w: b.h, h: b.w })),
  );
  return turnedQuarter(turned, 'TB');
}

function layeredLeftToRight(plan: CompiledPlan, boxes: readonly Box[]): GraphLayout {
  const n = plan.calls.length;
  const columns = orderedLevels(plan);

  // Column widths from the widest box (and label) in each; rows stacked with their own heights.
  const nodes = new Array<PlacedNode>(n);
  let x = MARGIN;
  let height = 0;
  for (const column of columns) {
    if (column.length === 0) continue;
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
