/**
 * bench/gold-makespan-report: the figures of bench/gold-makespan over a corpus (how many plans ran
 * within the makespan target, the speed-up and parallelism distributions), as table rows.
 */
import type { GoldMeasure, GoldOutcome } from './gold-makespan-core.js';
import { median, quantile } from './stats.js';
import { ms } from './table.js';

/** A planmode makespan at most this many times its critical path counts as on target. */
export const MAX_MAKESPAN_RATIO = 1.05;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** What one measured plan contributes to the figures. */
export interface PlanFigures {
  readonly id: string;
  /** Sequential makespan / planmode makespan. */
  readonly speedUp: number;
  /** Planmode makespan / critical path. */
  readonly ratio: number;
  readonly planmodeMs: number;
  readonly criticalPathMs: number;
  readonly sequentialMs: number;
  /** The sum of the latencies drawn in the sequential run: what the loop cannot beat. */
  readonly sequentialDrawnMs: number;
  readonly calls: number;
  readonly widest: number;
  readonly depth: number;
  /** The most any call's measured time passed its drawn latency, in either run (timer lateness). */
  readonly lateMs: number;
}

/**
 * @throws {Error} when the two runs of a plan drew different latencies in all (they make the
 * same calls with the same arguments against the same seed, so the sums must be equal).
 */
export function figuresOf(measure: GoldMeasure): PlanFigures {
  const { planmode, sequential } = measure;
  const planmodeDrawn = sum(planmode.drawnMs);
  const sequentialDrawn = sum(sequential.drawnMs);
  if (planmodeDrawn !== sequentialDrawn)
    throw new Error(`${measure.id}: the two runs drew ${planmodeDrawn} and ${sequentialDrawn} ms in all`);
  let lateMs = 0;
  for (const timed of [planmode, sequential])
    for (let i = 0; i < timed.drawnMs.length; i++)
      lateMs = Math.max(lateMs, timed.measuredMs[i]! - timed.drawnMs[i]!);
  return {
    id: measure.id,
    speedUp: sequential.makespanMs / planmode.makespanMs,
    ratio: planmode.makespanMs / measure.criticalPathMs,
    planmodeMs: planmode.makespanMs,
    criticalPathMs: measure.criticalPathMs,
    sequentialMs: sequential.makespanMs,
    sequentialDrawnMs: sequentialDrawn,
    calls: measure.calls,
    widest: measure.widest,
    depth: measure.depth,
    lateMs,
  };
}

/** The corpus's figures: the target check, the distributions, and the plans left out. */
export interface GoldReport {
  readonly figures: readonly PlanFigures[];
  readonly left: readonly Extract<GoldOutcome, { ok: false }>[];
  readonly withinTarget: number;
  readonly worst: PlanFigures | undefined;
}

export function reportOf(outcomes: readonly GoldOutcome[]): GoldReport {
  const figures: PlanFigures[] = [];
  const left: Extract<GoldOutcome, { ok: false }>[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) figures.push(figuresOf(outcome));
    else left.push(outcome);
  }
  let worst: PlanFigures | undefined;
  for (const f of figures) if (!worst || f.ratio > worst.ratio) worst = f;
  return {
    figures,
    left,
    withinTarget: figures.filter((f) => f.ratio <= MAX_MAKESPAN_RATIO).length,
    worst,
  };
}

const times = (value: number) => `${value.toFixed(2)}x`;
const whole = (value: number) => String(value);

/** The distributions: a row per measure with its median, p10, p90, min and max. */
export function distributionRows(figures: readonly PlanFigures[]): string[][] {
  const measures: [string, (f: PlanFigures) => number, (v: number) => string][] = [
    ['speed-up (sequential / planmode)', (f) => f.speedUp, times],
    ['planmode makespan / critical path', (f) => f.ratio, (v) => `${v.toFixed(3)}x`],
    ['planmode makespan, ms', (f) => f.planmodeMs, ms],
    ['critical path, ms', (f) => f.criticalPathMs, ms],
    ['sequential makespan, ms', (f) => f.sequentialMs, ms],
    ['calls per plan', (f) => f.calls, whole],
    ['widest level (calls at once)', (f) => f.widest, whole],
    ['levels (longest chain, calls)', (f) => f.depth, whole],
  ];
  if (figures.length === 0) return [];
  return measures.map(([name, of, show]) => {
    const values = figures.map(of);
    return [
      name,
      show(median(values)),
      show(quantile(values, 0.1)),
      show(quantile(values, 0.9)),
      show(Math.min(...values)),
      show(Math.max(...values)),
    ];
  });
}

/** The plans by their widest level: how many, and the median speed-up of each group. */
export function parallelismRows(figures: readonly PlanFigures[]): string[][] {
  const groups = new Map<number, PlanFigures[]>();
  for (const f of figures) {
    const group = groups.get(f.widest);
    if (group) group.push(f);
    else groups.set(f.widest, [f]);
  }
  return [...groups.keys()]
    .sort((a, b) => a - b)
    .map((width) => {
      const group = groups.get(width)!;
      return [
        String(width),
        String(group.length),
        `${((100 * group.length) / figures.length).toFixed(1)}%`,
        String(median(group.map((f) => f.calls))),
        times(median(group.map((f) => f.speedUp))),
        times(Math.max(...group.map((f) => f.speedUp))),
      ];
    });
}
