/**
 * Edge labels off the lines. A label centered on its edge is struck through by it, and one
 * placed by the layout engine alone can sit on another edge where edges bunch. So each label
 * tries positions beside its own edge (beside the engine's spot first, then along the edge)
 * and takes the first whose box, padded, meets no drawn edge, no call's box and no label
 * placed before it. When none is free (a dense graph) it takes the one meeting the fewest.
 *
 * Lookups go through a grid of cells, so the cost grows with the graph, not with its square.
 */
import { type Direction, edgePolyline, type Point, pointAlong } from './edge-geometry.js';
import type { Box, GraphLayout, PlacedEdge } from './layout.js';

/** Space kept between a label and any line or box. */
const PAD = 2;
/** Distance from an edge to the near side of its label. */
const GAP = 3;
const CELL = 64;
/** Where along its edge a label may go, as fractions of the edge's length, best first. */
const ALONG = [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9];

interface Rect {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** How far a label's center sits from the point of the edge it belongs to. */
export function labelOffset(direction: Direction, size: Box): number {
  return (direction === 'LR' ? size.h : size.w) / 2 + GAP;
}

/**
 * The layout with every edge's `labelX`, `labelY` moved off the lines, grown or shifted so
 * every label lies inside it with `margin` to spare.
 */
export function placeEdgeLabels(layout: GraphLayout, sizes: readonly Box[], margin: number): GraphLayout {
  const lines = layout.edges.map((e) => edgePolyline(e.points, e.curved, layout.direction));
  const segments = new Grid<readonly [Point, Point]>();
  for (const line of lines) {
    for (let k = 1; k < line.length; k++) {
      const a = line[k - 1]!;
      const b = line[k]!;
      segments.add(rectOf(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)), [
        a,
        b,
      ]);
    }
  }
  const boxes = new Grid<Rect>();
  for (const n of layout.nodes) {
    const r = rectOf(n.x - n.w / 2, n.y - n.h / 2, n.x + n.w / 2, n.y + n.h / 2);
    boxes.add(r, r);
  }

  const placed: Point[] = layout.edges.map((edge, k) => {
    const size = sizes[k]!;
    let best: Point | null = null;
    let fewest = Infinity;
    for (const center of candidates(edge, lines[k]!, layout.direction, size)) {
      const r = rectOf(
        center.x - size.w / 2 - PAD,
        center.y - size.h / 2 - PAD,
        center.x + size.w / 2 + PAD,
        center.y + size.h / 2 + PAD,
      );
      const hits = countHits(r, segments, boxes, fewest);
      if (hits < fewest) {
        fewest = hits;
        best = center;
        if (hits === 0) break;
      }
    }
    const at = best ?? { x: edge.labelX, y: edge.labelY };
    const box = rectOf(at.x - size.w / 2, at.y - size.h / 2, at.x + size.w / 2, at.y + size.h / 2);
    boxes.add(box, box);
    return at;
  });

  // Labels beside an edge on the rim can stick out: shift and grow so all stays in view.
  let minX = margin;
  let minY = margin;
  let maxX = layout.width - margin;
  let maxY = layout.height - margin;
  placed.forEach((p, k) => {
    const s = sizes[k]!;
    minX = Math.min(minX, p.x - s.w / 2);
    minY = Math.min(minY, p.y - s.h / 2);
    maxX = Math.max(maxX, p.x + s.w / 2);
    maxY = Math.max(maxY, p.y + s.h / 2);
  });
  const dx = margin - minX;
  const dy = margin - minY;
  const move = (p: Point): Point => ({ x: p.x + dx, y: p.y + dy });
  return {
    ...layout,
    width: maxX - minX + margin * 2,
    height: maxY - minY + margin * 2,
    nodes: layout.nodes.map((n) => ({ ...n, x: n.x + dx, y: n.y + dy })),
    edges: layout.edges.map((e, k) => ({
      ...e,
      points: e.points.map(move),
      labelX: placed[k]!.x + dx,
      labelY: placed[k]!.y + dy,
    })),
  };
}

/** Beside the engine's spot, then beside points along the edge; the near side first, then farther out. */
function* candidates(
  edge: PlacedEdge,
  line: readonly Point[],
  direction: Direction,
  size: Box,
): Generator<Point> {
  const off = labelOffset(direction, size);
  const anchors = [{ x: edge.labelX, y: edge.labelY }, ...ALONG.map((t) => pointAlong(line, t))];
  for (const reach of [1, 2]) {
    for (const a of anchors) {
      for (const side of [1, -1]) {
        yield direction === 'LR'
          ? { x: a.x, y: a.y + side * off * reach }
          : { x: a.x + side * off * reach, y: a.y };
      }
    }
  }
}

/** Edges crossing `r` plus boxes overlapping it, counted no further than `limit`. */
function countHits(
  r: Rect,
  segments: Grid<readonly [Point, Point]>,
  boxes: Grid<Rect>,
  limit: number,
): number {
  let hits = 0;
  for (const [a, b] of segments.near(r)) {
    if (segmentMeetsRect(a, b, r) && ++hits >= limit) return hits;
  }
  for (const box of boxes.near(r)) {
    if (box.x0 < r.x1 && r.x0 < box.x1 && box.y0 < r.y1 && r.y0 < box.y1 && ++hits >= limit) return hits;
  }
  return hits;
}

/** Liang-Barsky: whether the segment from `a` to `b` has a point inside `r`. */
export function segmentMeetsRect(a: Point, b: Point, r: Rect): boolean {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let t0 = 0;
  let t1 = 1;
  const sides: [number, number][] = [
    [-dx, a.x - r.x0],
    [dx, r.x1 - a.x],
    [-dy, a.y - r.y0],
    [dy, r.y1 - a.y],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
  }
  return true;
}

function rectOf(x0: number, y0: number, x1: number, y1: number): Rect {
  return { x0, y0, x1, y1 };
}

/** Items filed under every cell their bounding rectangle covers. */
class Grid<T> {
  readonly #cells = new Map<string, T[]>();

  add(r: Rect, item: T): void {
    for (const key of this.#keys(r)) {
      const list = this.#cells.get(key);
      if (list) list.push(item);
      else this.#cells.set(key, [item]);
    }
  }

  /** Each item filed under a cell `r` covers, once. */
  *near(r: Rect): Generator<T> {
    const seen = new Set<T>();
    for (const key of this.#keys(r)) {
      for (const item of this.#cells.get(key) ?? []) {
        if (seen.has(item)) continue;
        seen.add(item);
        yield item;
      }
    }
  }

  *#keys(r: Rect): Generator<string> {
    for (let cx = Math.floor(r.x0 / CELL); cx <= Math.floor(r.x1 / CELL); cx++)
      for (let cy = Math.floor(r.y0 / CELL); cy <= Math.floor(r.y1 / CELL); cy++) yield `${cx},${cy}`;
  }
}
