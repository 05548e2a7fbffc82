/**
 * The graph as one SVG string: a group per call (box, id, tool, output path with its
 * alternatives) and a path plus a label per edge. Every text is escaped; positions come from
 * layout.ts, so the page draws nothing itself.
 */
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import { escapeHtml } from './escape.js';
import { type Direction, edgePathData, round } from './edge-geometry.js';
import { type Box, type GraphLayout, layoutGraph } from './layout.js';
import type { ReportStatus } from './status.js';
import { EDGE_LABEL_FONT_PX, fitsFirstScreen, NODE_FONT_PX } from './zoom.js';
import { edgeLabel } from '../edge-label.js';

/**
 * Monospace metrics the boxes are sized with, a little over DejaVu Sans Mono's 0.6 em advance
 * (the widest of the page's monospace fonts), so text never outgrows its box or label room.
 */
const CHAR_W = NODE_FONT_PX * 0.61;
const LINE_H = 16;
const PAD_X = 10;

/**
 * How much of a call's text a box shows. A small plan that the regular boxes keep from being
 * seen whole on the first screen gets compact ones (shorter lines, less air); an id, tool or
 * path longer than a line loses its middle, where names that differ at their end keep it.
 */
interface BoxText {
  /** An id's or tool's line. */
  readonly maxChars: number;
  /** The output line's paths share about this many characters, each keeping `minPath`. */
  readonly pathChars: number;
  readonly minPath: number;
  readonly padY: number;
}
const REGULAR: BoxText = { maxChars: 34, pathChars: 44, minPath: 16, padY: 7 };
const COMPACT: BoxText = { maxChars: 20, pathChars: 21, minPath: 8, padY: 3 };
/** Plans past this many calls get regular boxes only (layout.ts folds none past 100 either). */
const COMPACT_LIMIT = 100;
const LABEL_MAX_CHARS = 28;
const LABEL_CHAR_W = EDGE_LABEL_FONT_PX * 0.62;
/** A label's box: the glyphs' height (ascent plus descent, about 1.17 em) and a little air. */
const LABEL_H = 14;
/** From a label's middle to its baseline: half the glyph box less the descent, about 0.35 em. */
const LABEL_BASELINE = 4;

export interface GraphSvgInput {
  readonly plan: CompiledPlan;
  /** Each call's drawing status, by index. */
  readonly statuses: readonly (ReportStatus | 'static')[];
  /** Each call's output alternative written (run) or null. */
  readonly branches: readonly (number | null)[];
  /** Indices of calls on the critical path, in order. */
  readonly criticalPath: readonly number[];
  readonly engine: 'auto' | 'dagre' | 'layered';
  readonly dagreLimit: number;
  readonly direction: Direction | 'auto';
  /**
   * Lines drawn under a call's tool, by index (a `_forEach` call's source and element counts,
   * a workflow call's hint); none when absent.
   * @default []
   */
  readonly notes?: readonly (readonly string[] | undefined)[];
  /**
   * Names this picture apart from others on the page: its SVG's id is `<svgId>` and its
   * arrowhead's `<svgId>-arrow`; a node carries its index as `data-i` only in the page's main
   * graph (`graph-svg`), as `data-wi` elsewhere.
   * @default 'graph-svg'
   */
  readonly svgId?: string;
  /** Extra attributes (already escaped) of a call's node group, by index. @default none */
  readonly nodeAttributes?: (i: number) => string;
}

export interface GraphSvg {
  readonly svg: string;
  readonly layout: GraphLayout;
  /** Edge labels left out because no spot clear of the edges was found. */
  readonly hiddenLabels: number;
}

export function renderGraphSvg(input: GraphSvgInput): GraphSvg {
  const { plan } = input;
  const svgId = input.svgId ?? 'graph-svg';
  const indexAttribute = svgId === 'graph-svg' ? 'data-i' : 'data-wi';
  let sized = sizeAndLayOut(input, REGULAR);
  if (
    !fitsFirstScreen(sized.layout) &&
    input.direction === 'auto' &&
    input.engine === 'auto' &&
    plan.calls.length <= COMPACT_LIMIT
  ) {
    const compact = sizeAndLayOut(input, COMPACT);
    if (fitsFirstScreen(compact.layout)) sized = compact;
  }
  const { text, lines, notes, labels, layout } = sized;

  const onPath = new Set<string>();
  for (let k = 1; k < input.criticalPath.length; k++)
    onPath.add(`${input.criticalPath[k - 1]}>${input.criticalPath[k]}`);
  const cpNodes = new Set(input.criticalPath);

  const out: string[] = [];
  const w = Math.ceil(layout.width);
  const h = Math.ceil(layout.height);
  out.push(
    `<svg id="${svgId}" xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" data-w="${w}" data-h="${h}" data-direction="${layout.direction}" role="img" aria-label="dependency graph, ${layout.direction === 'LR' ? 'left to right' : 'top to bottom'}">`,
    `<defs><marker id="${svgId}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>`,
    '<g class="edges">',
  );
  const labelMarkup: string[] = [];
  let hidden = 0;
  let e = 0;
  for (const [to, call] of plan.calls.entries()) {
    for (const [k, d] of call.dependencies.entries()) {
      const placed = layout.edges[e++]!;
      const classes = ['e', d.kind];
      if (d.reason !== undefined) classes.push(d.reason);
      if (onPath.has(`${d.from}>${to}`)) classes.push('cp');
      if (input.statuses[to] === 'skipped') classes.push('untaken');
      out.push(
        `<path class="${classes.join(' ')}" data-from="${d.from}" data-to="${to}" d="${edgePathData(placed.points, placed.curved, layout.direction)}" marker-end="url(#${svgId}-arrow)"/>`,
      );
      if (placed.labelShown === false) {
        hidden++;
        continue;
      }
      labelMarkup.push(
        `<text class="el" data-from="${d.from}" data-to="${to}" x="${round(placed.labelX)}" y="${round(placed.labelY + LABEL_BASELINE)}">${escapeHtml(labels[to]![k]!)}</text>`,
      );
    }
  }
  out.push('</g><g class="edge-labels">', ...labelMarkup, '</g><g class="nodes">');
  for (const [i, call] of plan.calls.entries()) {
    const node = layout.nodes[i]!;
    const l = lines[i]!;
    const classes = ['n', `s-${input.statuses[i]}`];
    if (cpNodes.has(i)) classes.push('cp');
    const x0 = -node.w / 2;
    const y0 = -node.h / 2;
    const shape = isBranch(call)
      ? `<polygon class="shape" points="${hexagon(node.w, node.h)}"/>`
      : `<rect class="shape" x="${round(x0)}" y="${round(y0)}" width="${node.w}" height="${node.h}" rx="4"/>`;
    const tx = round(x0 + PAD_X + (isBranch(call) ? 6 : 0));
    const ty = y0 + text.padY + 12;
    out.push(
      `<g class="${classes.join(' ')}" ${indexAttribute}="${i}"${input.nodeAttributes?.(i) ?? ''} transform="translate(${round(node.x)},${round(node.y)})">`,
      shape,
      `<text x="${tx}" y="${round(ty)}" class="nid">${escapeHtml(l.id)}</text>`,
      `<text x="${tx}" y="${round(ty + LINE_H)}" class="ntool">${escapeHtml(l.tool)}</text>`,
    );
    const noted = notes[i]!;
    for (const [k, note] of noted.entries())
      out.push(
        `<text x="${tx}" y="${round(ty + LINE_H * (2 + k))}" class="nnote">${escapeHtml(note)}</text>`,
      );
    if (l.output) {
      out.push(
        `<text x="${tx}" y="${round(ty + LINE_H * (2 + noted.length))}" class="nout">${outputMarkup(l.output, input.branches[i] ?? null)}</text>`,
      );
    }
    out.push('</g>');
  }
  out.push('</g></svg>');
  return { svg: out.join(''), layout, hiddenLabels: hidden };
}

interface NodeLines {
  readonly id: string;
  readonly tool: string;
  /** The written paths, each clipped, with the operator between them; null when the call writes nothing. */
  readonly output: { readonly op: '||' | '&&' | null; readonly paths: readonly string[] } | null;
}

/** Each call's lines and box, each edge's label, and the layout they make. */
function sizeAndLayOut(input: GraphSvgInput, text: BoxText) {
  const { plan } = input;
  const notes = plan.calls.map((_, i) => (input.notes?.[i] ?? []).map((n) => clip(n, text.maxChars + 10)));
  const lines = plan.calls.map((call) => nodeLines(call, text));
  const boxes: Box[] = lines.map((l, i) => {
    const noted = notes[i]!;
    let chars = Math.max(l.id.length, l.tool.length, l.output ? outputChars(l.output) : 0);
    for (const n of noted) chars = Math.max(chars, n.length);
    const branch = isBranch(plan.calls[i]!) ? 12 : 0;
    return {
      w: Math.ceil(Math.max(60, chars * CHAR_W) + PAD_X * 2 + branch),
      h: LINE_H * ((l.output ? 3 : 2) + noted.length) + text.padY * 2,
    };
  });
  const labels = plan.calls.map((call) =>
    call.dependencies.map((d) => clip(edgeLabel(call, d), LABEL_MAX_CHARS)),
  );
  const layout = layoutGraph(plan, {
    boxes,
    engine: input.engine,
    dagreLimit: input.dagreLimit,
    direction: input.direction,
    labelSize: (to, k) => ({ w: Math.ceil(columns(labels[to]![k]!) * LABEL_CHAR_W + 4), h: LABEL_H }),
  });
  return { text, lines, notes, labels, layout };
}

function nodeLines(call: CompiledCall, text: BoxText): NodeLines {
  const output = call.outputPath;
  let paths: string[] = [];
  if (output) {
    const room = Math.max(text.minPath, Math.floor(text.pathChars / output.refs.length) - 3);
    paths = output.refs.map((ref) => clipMiddle(ref.text, room));
  }
  return {
    id: clipMiddle(call.id, text.maxChars),
    tool: clipMiddle(call.tool, text.maxChars),
    output: output ? { op: output.op, paths } : null,
  };
}

function outputChars(output: NonNullable<NodeLines['output']>): number {
  return 2 + output.paths.reduce((n, p) => n + p.length, 0) + (output.paths.length - 1) * 4;
}

/** `→ a || b`, the alternative written (when known) marked. */
function outputMarkup(output: NonNullable<NodeLines['output']>, branch: number | null): string {
  const sep = output.op ? ` ${output.op} ` : '';
  const parts = output.paths.map((p, k) => {
    const cls = output.op === '||' && output.paths.length > 1 ? (branch === k ? 'alt taken' : 'alt') : 'alt';
    return `<tspan class="${cls}">${escapeHtml(p)}</tspan>`;
  });
  return `→ ${parts.join(escapeHtml(sep))}`;
}

export function isBranch(call: CompiledCall): boolean {
  return call.outputPath?.op === '||' && call.outputPath.paths.length > 1;
}

function hexagon(w: number, h: number): string {
  const x = w / 2;
  const y = h / 2;
  const c = 9;
  return [
    [-x + c, -y],
    [x - c, -y],
    [x, 0],
    [x - c, y],
    [-x + c, y],
    [-x, 0],
  ]
    .map(([px, py]) => `${round(px!)},${round(py!)}`)
    .join(' ');
}

/** Monospace cells a text takes: two for the wide characters of East Asian scripts. */
function columns(text: string): number {
  let n = 0;
  for (const c of text)
    n +=
      (c.codePointAt(0) ?? 0) >= 0x1100 &&
      /[\p{scx=Han}\p{scx=Hangul}\p{scx=Hiragana}\p{scx=Katakana}\uFF00-\uFF60]/u.test(c)
        ? 2
        : 1;
  return n;
}

export function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

/** The text's head and tail around a `…` (names of a series differ at their end), at most `max` long. */
export function clipMiddle(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, ' ')];
  if (chars.length <= max) return chars.join('');
  const head = Math.ceil((max - 1) * 0.55);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (max - 1 - head)).join('')}`;
}
