/**
 * What a layout of the report's graph is: each call's box placed, each edge's line and label.
 * layout.ts computes it and label-placement.ts refines its labels; the shapes live here, below
 * both, so that neither imports the other for a type.
 */
import type { Direction, Point } from './edge-geometry.js';

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
  /** The line's points, first at `from`, last at `to`. */
  readonly points: readonly Point[];
  /** True: a curve from the first point to the last (see edge-geometry.ts); false: a polyline. */
  readonly curved: boolean;
  /** Where the label's center goes. */
  readonly labelX: number;
  readonly labelY: number;
  /** False when no spot clear of every edge was found: the label is left out of the picture. */
  readonly labelShown?: boolean;
}

export interface GraphLayout {
  readonly engine: 'dagre' | 'layered';
  readonly direction: Direction;
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
  /**
   * A folded layout's band count (layout-fold.ts): its levels continue in this many bands, side
   * by side (top to bottom) or one below another (left to right). Absent when not folded.
   */
  readonly bands?: number;
}

/**
 * A layout turned a quarter: x and y exchanged, and each box's sides. A layout made the other
 * way round with swapped boxes, then turned, is the layout in `direction`.
 */
export function turnedQuarter(turned: GraphLayout, direction: Direction): GraphLayout {
  const swap = (p: Point): Point => ({ x: p.y, y: p.x });
  return {
    ...turned,
    direction,
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
