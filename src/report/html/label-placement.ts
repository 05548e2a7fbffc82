/**
 * Edge labels off the lines. A label centered on its edge is struck through by it, and one
 * placed by the layout engine alone can sit on another edge where edges bunch. So each label
 * tries positions beside its own edge (beside the engine's spot first, then along the edge,
 * then tucked against either end) and takes the first whose box, padded, meets no drawn edge,
 * no call's box and no label placed before it. When none is free (edges crowd, as in a wide
 * fan-out of the layered layout) the label is left out of the picture rather than drawn
 * across lines: the call's details list every path it reads.
 *
 * Lookups go through a grid of cells, so the cost grows with the graph, not with its square.
 */
import { type Direction, edgePolyline, type Point, pointAlong } from './edge-geometry.js';
import type { Box, GraphLayout, PlacedEdge } from './placed-graph.js';

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
 * every label lies inside it with `margin` to spare. With `keepSize` (a layout sized to fit a
 * screen), a spot outside the layout's box is not clear either: the box stays as it is.
 */
export function placeEdgeLabels(
  layout: GraphLayout,
  sizes: readonly Box[],
  margin: number,
  keepSize = false,
): GraphLayout {
  const lines = layout.edges.map((e) => edgePolyline(e.points, e.curved, layout.direction));
  // Flat coordinates filed by index: a 1,000-call graph has tens of thousands of pieces.
  const ends: number[] = [];
  const segments = new Grid();
  for (const line of lines) {
    for (let k = 1; k < line.length; k++) {
      const a = line[k - 1]!;
      const b = line[k]!;
      const i = ends.push(a.x, a.y, b.x, b.y) / 4 - 1;
      segments.add(rectOf(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)), i);
    }
  }
  const rects: Rect[] = [];
  const boxes = new Grid();
  const addBox = (r: Rect) => boxes.add(r, rects.push(r) - 1);
  for (const n of layout.nodes) addBox(rectOf(n.x - n.w / 2, n.y - n.h / 2, n.x + n.w / 2, n.y + n.h / 2));
  const isClear = (r: Rect): boolean =>
    (!keepSize || (r.x0 >= 0 && r.y0 >= 0 && r.x1 <= layout.width && r.y1 <= layout.height)) &&
    !segments.some(r, (i) =>
      segmentMeets(ends[i * 4]!, ends[i * 4 + 1]!, ends[i * 4 + 2]!, ends[i * 4 + 3]!, r),
    ) &&
    !boxes.some(r, (i) => {
      const box = rects[i]!;
      return box.x0 < r.x1 && r.x0 < box.x1 && box.y0 < r.y1 && r.y0 < box.y1;
    });

  const placed: (Point | null)[] = layout.edges.map((edge, k) => {
    const size = sizes[k]!;
    for (const at of candidates(edge, lines[k]!, layout.direction, size)) {
      if (isClear(around(at, size, PAD))) {
        addBox(around(at, size, 0));
        return at;
      }
    }
    return null;
  });

  // Labels beside an edge on the rim can stick out: shift and grow so all stays in view.
  let minX = margin;
  let minY = margin;
  let maxX = layout.width - margin;
  let maxY = layout.height - margin;
  placed.forEach((p, k) => {
    if (!p) return;
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
    edges: layout.edges.map((e, k) => {
      const at = placed[k] ?? { x: e.labelX, y: e.labelY };
      return {
        ...e,
        points: e.points.map(move),
        labelX: at.x + dx,
        labelY: at.y + dy,
        labelShown: placed[k] !== null,
      };
    }),
  };
}

/**
 * Beside the engine's spot, then beside points along the edge, then against either end (where
 * an edge leaves or enters a box along the graph's direction, so it runs straight a while);
 * the near side first, then farther out.
 */
function* candidates(
  edge: PlacedEdge,
  line: readonly Point[],
  direction: Direction,
  size: Box,
): Generator<Point> {
  const off = labelOffset(direction, size);
  const first = line[0]!;
  const last = line[line.length - 1]!;
  const tuck = (direction === 'LR' ? size.w : size.h) / 2 + GAP;
  const ends =
    direction === 'LR'
      ? [
          { x: last.x - tuck, y: last.y },
          { x: first.x + tuck, y: first.y },
        ]
      : [
          { x: last.x, y: last.y - tuck },
          { x: first.x, y: first.y + tuck },
        ];
  // Lazily: most labels take the first spot, and walking the edge for the others costs.
  function* anchors(): Generator<Point> {
    yield { x: edge.labelX, y: edge.labelY };
    for (const t of ALONG) yield pointAlong(line, t);
    yield* ends;
  }
  for (const reach of [1, 2]) {
    for (const a of anchors()) {
      for (const side of [1, -1]) {
        yield direction === 'LR'
          ? { x: a.x, y: a.y + side * off * reach }
          : { x: a.x + side * off * reach, y: a.y };
      }
    }
  }
}

/** A label's box centered at `at`, grown by `pad` on every side. */
function around(at: Point, size: Box, pad: number): Rect {
  return rectOf(
    at.x - size.w / 2 - pad,
    at.y - size.h / 2 - pad,
    at.x + size.w / 2 + pad,
    at.y + size.h / 2 + pad,
  );
}

/** Liang-Barsky: whether the segment from `a` to `b` has a point inside `r`. */
export function segmentMeetsRect(a: Point, b: Point, r: Rect): boolean {
  return segmentMeets(a.x, a.y, b.x, b.y, r);
}

function segmentMeets(x1: number, y1: number, x2: number, y2: number, r: Rect): boolean {
  if (Math.max(x1, x2) < r.x0 || Math.min(x1, x2) > r.x1) return false;
  if (Math.max(y1, y2) < r.y0 || Math.min(y1, y2) > r.y1) return false;
  let t0 = 0;
  let t1 = 1;
  // Each side of the box in turn: p is the segment's motion across it, q the room before it.
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
    return true;
  };
  const dx = x2 - x1;
  const dy = y2 - y1;
  return clip(-dx, x1 - r.x0) && clip(dx, r.x1 - x1) && clip(-dy, y1 - r.y0) && clip(dy, r.y1 - y1);
}

function rectOf(x0: number, y0: number, x1: number, y1: number): Rect {
  return { x0, y0, x1, y1 };
}

/** Item numbers filed under every cell their bounding rectangle covers. */
class Grid {
  readonly #cells = new Map<number, number[]>();

  add(r: Rect, item: number): void {
    this.#each(r, (key) => {
      const list = this.#cells.get(key);
      if (list) list.push(item);
      else this.#cells.set(key, [item]);
      return false;
    });
  }

  /** Whether `test` holds for some item filed under a cell `r` covers. */
  some(r: Rect, test: (item: number) => boolean): boolean {
    return this.#each(r, (key) => this.#cells.get(key)?.some(test) ?? false);
  }

  /** Visits `r`'s cells (as numbers: a column and row of up to 2^20 cells each) until `visit` says stop. */
  #each(r: Rect, visit: (key: number) => boolean): boolean {
    const col0 = Math.floor(r.x0 / CELL);
    const col1 = Math.floor(r.x1 / CELL);
    const row0 = Math.floor(r.y0 / CELL);
    const row1 = Math.floor(r.y1 / CELL);
    for (let col = col0; col <= col1; col++)
      for (let row = row0; row <= row1; row++)
        if (visit((col + 2 ** 19) * 2 ** 20 + (row + 2 ** 19))) return true;
    return false;
  }
}
