/**
 * A small plan's whole graph on one screen. A layered layout of a chain of 30 calls is 30
 * levels long and a fan-out of 30 is 30 calls wide: either way the reader scrolls, or zooms out
 * until the text cannot be read. Folding keeps the levels' order and the text's size and fills
 * the screen instead, the way text fills a page: a level wider than the screen wraps onto more
 * lines, and the lines, when taller than the screen, continue in a next band beside the first
 * (top to bottom), or below it (left to right), as a newspaper's columns do.
 *
 * Within a band every edge still runs the graph's direction (down, or right); an edge from one
 * band to a later one runs straight from its call's far side to the next band's near side, through
 * the gap between the bands. Laid out top to bottom; left to right is the same layout turned a
 * quarter (boxes' sides swapped, then x and y exchanged), as layout.ts turns the layered one.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { Direction } from './edge-geometry.js';
import {
  type Box,
  type GraphLayout,
  type PlacedEdge,
  type PlacedNode,
  turnedQuarter,
} from './placed-graph.js';

export interface FoldOptions {
  /** Size of each call's box, by call index. */
  readonly boxes: readonly Box[];
  /** The calls of each level, in order (level-order.ts). */
  readonly levels: readonly (readonly number[])[];
  /** The room to fill, in the layout's units. */
  readonly room: Box;
  /** `TB`: levels are lines down a band, bands side by side; `LR`: the same turned. */
  readonly direction: Direction;
  readonly margin: number;
}

/** Between two lines: room for an edge's arrow and, beside it, its label. */
const LINE_GAP = 40;
/** Between two calls of a line. */
const NODE_GAP = 14;
/** Between two bands: room for the edges that go on to the next band. */
const BAND_GAP = 28;
/** Widths tried for a line, as shares of the room's. */
const LINE_SHARES = [1, 1 / 2, 1 / 3];
/** Band counts tried beyond the fewest that fit the room's height. */
const EXTRA_BANDS = 4;

interface Line {
  readonly calls: readonly number[];
  readonly width: number;
  readonly height: number;
}

/**
 * The fold that shows the graph largest in `room`: lines as wide as the room, or a half or a
 * third of it; in the fewest bands the lines' height needs, and a few more (narrower, taller
 * bands can fit a wide room better); each scored by the scale at which the whole layout fits.
 */
export function foldedLayout(plan: CompiledPlan, options: FoldOptions): GraphLayout {
  if (options.direction === 'TB') return foldDown(plan, options.boxes, options);
  const turned = foldDown(
    plan,
    options.boxes.map((b) => ({ w: b.h, h: b.w })),
    { ...options, room: { w: options.room.h, h: options.room.w } },
  );
  return turnedQuarter(turned, 'LR');
}

function foldDown(
  plan: CompiledPlan,
  boxes: readonly Box[],
  options: Pick<FoldOptions, 'levels' | 'room' | 'margin'>,
): GraphLayout {
  const { margin, room } = options;
  let best: { bands: Line[][]; width: number; height: number; scale: number } | null = null;
  // Narrower lines make more of them, in more bands: a wide level can fit better that way.
  for (const share of LINE_SHARES) {
    const lines = options.levels.flatMap((level) => wrapLevel(level, boxes, (room.w - margin * 2) * share));
    const total = lines.reduce((h, l) => h + l.height, 0) + LINE_GAP * Math.max(0, lines.length - 1);
    const fewest = Math.max(1, Math.ceil(total / Math.max(1, room.h - margin * 2)));
    for (let count = fewest; count <= Math.min(lines.length, fewest + EXTRA_BANDS); count++) {
      const bands = splitIntoBands(lines, count);
      const width = bands.reduce((w, b) => w + bandWidth(b), 0) + BAND_GAP * (bands.length - 1) + margin * 2;
      const height = Math.max(...bands.map(bandHeight)) + margin * 2;
      const scale = Math.min(room.w / width, room.h / height);
      if (!best || scale > best.scale + 1e-9) best = { bands, width, height, scale };
    }
  }
  return place(plan, boxes, best!, margin);
}

/** A level's calls on as few lines as fit `width`, the calls spread evenly over them. */
function wrapLevel(level: readonly number[], boxes: readonly Box[], width: number): Line[] {
  let count = 1;
  let used = 0;
  for (const c of level) {
    const w = boxes[c]!.w;
    if (used > 0 && used + NODE_GAP + w > width) {
      count++;
      used = w;
    } else used += (used > 0 ? NODE_GAP : 0) + w;
  }
  const per = Math.ceil(level.length / count);
  const lines: Line[] = [];
  for (let k = 0; k < level.length; k += per) {
    const calls = level.slice(k, k + per);
    lines.push({
      calls,
      width: calls.reduce((w, c) => w + boxes[c]!.w, 0) + NODE_GAP * (calls.length - 1),
      height: Math.max(...calls.map((c) => boxes[c]!.h)),
    });
  }
  return lines;
}

/**
 * Consecutive lines into at most `count` bands, the tallest as short as can be: the least
 * height limit under which filling each band in turn needs no more bands (a binary search).
 */
function splitIntoBands(lines: readonly Line[], count: number): Line[][] {
  let low = Math.max(...lines.map((l) => l.height));
  let high = lines.reduce((h, l) => h + l.height, 0) + LINE_GAP * lines.length;
  for (let step = 0; step < 30 && high - low > 0.5; step++) {
    const mid = (low + high) / 2;
    if (fillBands(lines, mid).length <= count) high = mid;
    else low = mid;
  }
  return fillBands(lines, high);
}

/** Lines into bands in turn, each band as full as `limit` allows (a line taller than it alone). */
function fillBands(lines: readonly Line[], limit: number): Line[][] {
  const bands: Line[][] = [[]];
  let height = 0;
  for (const line of lines) {
    const band = bands[bands.length - 1]!;
    const grown = height + (band.length > 0 ? LINE_GAP : 0) + line.height;
    if (band.length > 0 && grown > limit + 1e-6) {
      bands.push([line]);
      height = line.height;
    } else {
      band.push(line);
      height = grown;
    }
  }
  return bands;
}

function bandWidth(band: readonly Line[]): number {
  return Math.max(...band.map((l) => l.width));
}

function bandHeight(band: readonly Line[]): number {
  return band.reduce((h, l) => h + l.height, 0) + LINE_GAP * (band.length - 1);
}

function place(
  plan: CompiledPlan,
  boxes: readonly Box[],
  fold: { bands: Line[][]; width: number; height: number },
  margin: number,
): GraphLayout {
  const nodes = new Array<PlacedNode>(plan.calls.length);
  const bandOf = new Int32Array(plan.calls.length);
  let left = margin;
  fold.bands.forEach((band, b) => {
    const width = bandWidth(band);
    let top = margin;
    for (const line of band) {
      let x = left + (width - line.width) / 2;
      for (const c of line.calls) {
        const box = boxes[c]!;
        nodes[c] = { x: x + box.w / 2, y: top + line.height / 2, w: box.w, h: box.h };
        bandOf[c] = b;
        x += box.w + NODE_GAP;
      }
      top += line.height + LINE_GAP;
    }
    left += width + BAND_GAP;
  });
  const edges: PlacedEdge[] = [];
  plan.calls.forEach((call, i) =>
    call.dependencies.forEach((d) => {
      const a = nodes[d.from]!;
      const b = nodes[i]!;
      const sameBand = bandOf[d.from] === bandOf[i];
      const points = sameBand
        ? [
            { x: a.x, y: a.y + a.h / 2 },
            { x: b.x, y: b.y - b.h / 2 },
          ]
        : [
            { x: a.x + a.w / 2, y: a.y },
            { x: b.x - b.w / 2, y: b.y },
          ];
      edges.push({
        from: d.from,
        to: i,
        points,
        curved: sameBand,
        labelX: (points[0]!.x + points[1]!.x) / 2,
        labelY: (points[0]!.y + points[1]!.y) / 2,
      });
    }),
  );
  return {
    engine: 'layered',
    direction: 'TB',
    width: fold.width,
    height: fold.height,
    nodes,
    edges,
    bands: fold.bands.length,
  };
}
