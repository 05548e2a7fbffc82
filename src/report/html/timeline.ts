/**
 * The timeline as one SVG string. A run: each call that started is a bar from its start to its
 * end, in milliseconds from the run's start, packed into lanes (a call takes the first lane free
 * when it starts), so the number of lanes is the peak parallelism and overlapping bars are calls
 * that ran at once. A dry run has no times: the x axis is the step (the call's level in the
 * graph: it can start once the step before it ends), and a step's calls stack in lanes.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { RunResult } from '../../run/types.js';
import { escapeHtml } from './escape.js';
import { clip } from './graph-svg.js';
import type { ReportStatus } from './status.js';

const LEFT = 56;
const RIGHT = 16;
const TOP = 24;
const LANE_H = 18;
const BAR_H = 14;
/** Drawn at about its size in a 1,280 px window's column (880 px), so its text is not shrunk. */
const PLOT_W = 780;
const CHAR_W = 6.6;
/** An axis label's width per character, a little over the 10.5 px monospace advance. */
const AXIS_CHAR_W = 6.6;

export interface Timeline {
  readonly svg: string;
  /** Lanes used: for a run, the most calls that ran at once. */
  readonly lanes: number;
  /** Calls that never started (a run), by drawing status. */
  readonly notStarted: ReadonlyMap<ReportStatus, number>;
  /** Milliseconds from the run's start to its last end (a run), or the number of steps (a dry run). */
  readonly span: number;
}

interface Bar {
  readonly i: number;
  readonly start: number;
  readonly end: number;
}

export function runTimeline(
  result: RunResult,
  statuses: readonly ReportStatus[],
  criticalPath: ReadonlySet<number>,
): Timeline {
  const t0 = Date.parse(result.startedAt);
  const bars: Bar[] = [];
  const notStarted = new Map<ReportStatus, number>();
  let last = Math.max(0, Date.parse(result.endedAt) - t0);
  result.calls.forEach((call, i) => {
    const start = call.startedAt === null ? NaN : Date.parse(call.startedAt) - t0;
    if (Number.isNaN(start)) {
      notStarted.set(statuses[i]!, (notStarted.get(statuses[i]!) ?? 0) + 1);
      return;
    }
    const endText = call.endedAt === null ? NaN : Date.parse(call.endedAt) - t0;
    const end = Number.isNaN(endText) ? start : Math.max(start, endText);
    last = Math.max(last, end);
    bars.push({ i, start, end });
  });
  const span = Math.max(1, last);
  const scale = PLOT_W / span;
  return draw(bars, statuses, criticalPath, {
    x: (ms) => LEFT + ms * scale,
    ticks: ticks(span).map((ms) => ({ at: ms, text: formatMs(ms), anchor: ms === 0 ? 'start' : 'middle' })),
    span,
    notStarted,
    ids: result.calls.map((c) => c.id),
    label: 'run timeline: calls by start and end time, parallel calls in separate lanes',
  });
}

export function stepTimeline(
  plan: CompiledPlan,
  statuses: readonly ReportStatus[],
  criticalPath: ReadonlySet<number>,
): Timeline {
  const steps = plan.calls.length === 0 ? 1 : Math.max(...plan.levels) + 1;
  const bars: Bar[] = plan.calls.map((_, i) => ({ i, start: plan.levels[i]!, end: plan.levels[i]! + 1 }));
  const stepW = Math.max(24, Math.min(140, PLOT_W / steps));
  return draw(bars, statuses, criticalPath, {
    x: (step) => LEFT + step * stepW,
    ticks: Array.from({ length: steps + 1 }, (_, k) => k)
      .filter((k) => k === steps || k % Math.ceil(steps / 20) === 0)
      .map((k) => ({ at: k, text: k === steps ? '' : `step ${k + 1}`, anchor: 'start' })),
    span: steps,
    notStarted: new Map(),
    ids: plan.calls.map((c) => c.id),
    label: 'dry-run steps: each call at its level in the graph, calls of one step in separate lanes',
    gap: 2,
  });
}

interface DrawOptions {
  readonly x: (t: number) => number;
  /** Where each tick goes, its label, and how the label sits on it (`start`: just after it). */
  readonly ticks: readonly { at: number; text: string; anchor: 'start' | 'middle' }[];
  readonly span: number;
  readonly notStarted: Map<ReportStatus, number>;
  readonly label: string;
  /** Call ids by index, for the bar labels. */
  readonly ids: readonly string[];
  /** Pixels between a bar and the next one in its lane. */
  readonly gap?: number;
}

function draw(
  bars: Bar[],
  statuses: readonly ReportStatus[],
  criticalPath: ReadonlySet<number>,
  o: DrawOptions,
): Timeline {
  bars.sort((a, b) => a.start - b.start || a.i - b.i);
  // Interval partitioning: the first lane whose last bar has ended. Lanes stay few (the peak
  // parallelism), so a scan beats a heap here and keeps the lowest free lane.
  const laneEnds: number[] = [];
  const lanes = new Int32Array(bars.length);
  bars.forEach((bar, k) => {
    let lane = laneEnds.findIndex((end) => end <= bar.start);
    if (lane < 0) lane = laneEnds.push(bar.end) - 1;
    else laneEnds[lane] = bar.end;
    lanes[k] = lane;
  });
  const laneCount = Math.max(1, laneEnds.length);
  const width = Math.ceil(o.x(o.span) + RIGHT);
  const height = TOP + laneCount * LANE_H + 8;
  const out: string[] = [
    `<svg id="timeline-svg" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(o.label)}">`,
    '<g class="axis">',
  ];
  for (const tick of o.ticks) {
    const x = round(o.x(tick.at));
    out.push(`<line x1="${x}" x2="${x}" y1="${TOP - 6}" y2="${height}"/>`);
    if (tick.text) out.push(axisLabel(x, tick.text, tick.anchor, width));
  }
  for (let lane = 0; lane < laneCount; lane += Math.ceil(laneCount / 40)) {
    out.push(`<text class="lane" x="4" y="${TOP + lane * LANE_H + 12}">${lane + 1}</text>`);
  }
  out.push('</g><g class="bars">');
  const texts: string[] = [];
  bars.forEach((bar, k) => {
    const x = o.x(bar.start);
    const w = Math.max(2, o.x(bar.end) - x - (o.gap ?? 0));
    const y = TOP + lanes[k]! * LANE_H + (LANE_H - BAR_H) / 2;
    const cp = criticalPath.has(bar.i) ? ' cp' : '';
    out.push(
      `<rect class="bar s-${statuses[bar.i]}${cp}" data-i="${bar.i}" x="${round(x)}" y="${round(y)}" width="${round(w)}" height="${BAR_H}" rx="2"/>`,
    );
    const fits = Math.floor((w - 6) / CHAR_W);
    if (fits >= 5) {
      texts.push(
        `<text x="${round(x + 3)}" y="${round(y + 11)}">${escapeHtml(clip(o.ids[bar.i] ?? '', fits))}</text>`,
      );
    }
  });
  out.push('</g><g class="bar-labels">', ...texts, '</g></svg>');
  return { svg: out.join(''), lanes: laneEnds.length, notStarted: o.notStarted, span: o.span };
}

/**
 * A tick's label, kept inside the picture: one that would run past the right side ends at it
 * instead (the last tick of a run sits at the right end, where "160 ms" used to be cut).
 */
function axisLabel(x: number, text: string, anchor: 'start' | 'middle', width: number): string {
  const w = text.length * AXIS_CHAR_W;
  let at = anchor === 'start' ? x + 3 : x;
  let side: 'start' | 'middle' | 'end' = anchor;
  const right = anchor === 'start' ? at + w : at + w / 2;
  if (right > width - 2) {
    at = width - 2;
    side = 'end';
  } else if (anchor === 'middle' && at - w / 2 < 2) {
    at = 2;
    side = 'start';
  }
  return `<text x="${round(at)}" y="${TOP - 10}" text-anchor="${side}">${escapeHtml(text)}</text>`;
}

/** About ten round ticks: 1, 2 or 5 times a power of ten milliseconds apart. */
function ticks(span: number): number[] {
  const raw = span / 10;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let t = 0; t <= span + 1e-9; t += step) out.push(t);
  return out;
}

export function formatMs(ms: number): string {
  if (ms >= 1000) return `${+(ms / 1000).toFixed(2)} s`;
  return `${+ms.toFixed(ms < 10 ? 1 : 0)} ms`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
