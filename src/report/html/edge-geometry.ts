/**
 * The one definition of what an edge looks like: the SVG path drawn, and the same line as
 * points, so labels are placed against the geometry the reader sees.
 */

export type Direction = 'LR' | 'TB';

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Enough pieces that the chord strays well under a pixel from the curve at report sizes. */
const CURVE_PIECES = 16;

/**
 * A routed edge is a polyline through its points; an unrouted one (two points) is a cubic
 * curve leaving and entering along the direction of the graph.
 */
export function edgePathData(points: readonly Point[], curved: boolean, direction: Direction): string {
  if (!curved) return `M${points.map((p) => `${round(p.x)},${round(p.y)}`).join('L')}`;
  const [a, b, c, d] = curveControls(points, direction);
  return `M${round(a.x)},${round(a.y)}C${round(b.x)},${round(b.y)} ${round(c.x)},${round(c.y)} ${round(d.x)},${round(d.y)}`;
}

/** The drawn line as a polyline (a curve cut into short chords). */
export function edgePolyline(points: readonly Point[], curved: boolean, direction: Direction): Point[] {
  if (!curved) return [...points];
  const [a, b, c, d] = curveControls(points, direction);
  const out: Point[] = [];
  for (let k = 0; k <= CURVE_PIECES; k++) {
    const t = k / CURVE_PIECES;
    const u = 1 - t;
    const w0 = u * u * u;
    const w1 = 3 * u * u * t;
    const w2 = 3 * u * t * t;
    const w3 = t * t * t;
    out.push({
      x: w0 * a.x + w1 * b.x + w2 * c.x + w3 * d.x,
      y: w0 * a.y + w1 * b.y + w2 * c.y + w3 * d.y,
    });
  }
  return out;
}

/** The point at fraction `t` of a polyline's length. */
export function pointAlong(line: readonly Point[], t: number): Point {
  let total = 0;
  for (let k = 1; k < line.length; k++) total += distance(line[k - 1]!, line[k]!);
  let left = total * t;
  for (let k = 1; k < line.length; k++) {
    const a = line[k - 1]!;
    const b = line[k]!;
    const piece = distance(a, b);
    if (left <= piece && piece > 0) {
      const f = left / piece;
      return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
    }
    left -= piece;
  }
  return line[line.length - 1]!;
}

function curveControls(points: readonly Point[], direction: Direction): [Point, Point, Point, Point] {
  const a = points[0]!;
  const d = points[points.length - 1]!;
  if (direction === 'LR') {
    const dx = (d.x - a.x) / 2;
    return [a, { x: a.x + dx, y: a.y }, { x: d.x - dx, y: d.y }, d];
  }
  const dy = (d.y - a.y) / 2;
  return [a, { x: a.x, y: a.y + dy }, { x: d.x, y: d.y - dy }, d];
}

function distance(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

export function round(n: number): number {
  return Math.round(n * 10) / 10;
}
