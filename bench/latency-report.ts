/**
 * bench/latency-report: bench:latency's figures for one model pace: each method's end-to-end
 * time over the bound (median, p10, p90 over the plans), eager planmode's speed-ups (per-plan
 * ratios), and the targets, as table rows.
 */
import { METHODS, type Method, type MethodRun } from './latency-methods.js';
import { median, quantile } from './stats.js';
import { ms } from './table.js';

/** Eager planmode's targets: end-to-end over the bound, at the median and at p90. */
export const TARGETS = { median: 1.05, p90: 1.15 } as const;

/** One plan measured every way. */
export interface PlanMeasure {
  readonly id: string;
  readonly boundMs: number;
  /** The bound when no call starts before the whole reply has arrived. */
  readonly wholeReplyBoundMs: number;
  readonly runs: Readonly<Record<Method, MethodRun>>;
}

const LABELS: Record<Method, string> = {
  react: 'ReAct (one call per turn)',
  parallel: 'parallel function calling',
  lazy: 'planmode lazy (whole plan, then run)',
  eager: 'planmode eager',
};

const spread = (values: readonly number[]) => ({
  median: median(values),
  p10: quantile(values, 0.1),
  p90: quantile(values, 0.9),
});

const x = (value: number) => `${value.toFixed(2)}x`;

/** method | median | p10 | p90 of end-to-end / bound, and the medians of the times themselves. */
export function ratioRows(measures: readonly PlanMeasure[]): string[][] {
  const rows = METHODS.map((method) => {
    const ratios = spread(measures.map((m) => m.runs[method].endToEndMs / m.boundMs));
    return [
      LABELS[method],
      x(ratios.median),
      x(ratios.p10),
      x(ratios.p90),
      ms(median(measures.map((m) => m.runs[method].endToEndMs))),
      ms(median(measures.map((m) => m.runs[method].firstCallMs))),
    ];
  });
  const whole = spread(measures.map((m) => m.wholeReplyBoundMs / m.boundMs));
  rows.push([
    'bound, no call before the reply ends',
    x(whole.median),
    x(whole.p10),
    x(whole.p90),
    ms(median(measures.map((m) => m.wholeReplyBoundMs))),
    '',
  ]);
  rows.push(['bound', x(1), x(1), x(1), ms(median(measures.map((m) => m.boundMs))), '']);
  return rows;
}

/** Eager planmode's speed-up over each other method: that method's time / eager's, per plan. */
export function speedUpRows(measures: readonly PlanMeasure[]): string[][] {
  return (['react', 'parallel', 'lazy'] as const).map((method) => {
    const ratios = spread(measures.map((m) => m.runs[method].endToEndMs / m.runs.eager.endToEndMs));
    return [`over ${LABELS[method]}`, x(ratios.median), x(ratios.p10), x(ratios.p90)];
  });
}

/** The targets, each `ok` or `MISSED`. */
export function targetRows(measures: readonly PlanMeasure[]): string[][] {
  const eager = spread(measures.map((m) => m.runs.eager.endToEndMs / m.boundMs));
  const row = (at: 'median' | 'p90') => [
    `eager <= ${TARGETS[at]}x bound at ${at}`,
    x(eager[at]),
    eager[at] <= TARGETS[at] ? 'ok' : 'MISSED',
  ];
  return [row('median'), row('p90')];
}
