/**
 * `npm run bench:gold` computes what it prints from the latencies the mocks really waited: its
 * core, on the first three NesTools rows, under a fake clock (setTimeout and performance.now),
 * so every mock call takes exactly the latency it drew and the figures can be checked exactly,
 * with no wall-clock time in the test. Under that clock planmode's makespan is the critical
 * path, and the one-call-at-a-time loop's is the sum of the draws.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  criticalPathMs,
  type GoldMeasure,
  type GoldOutcome,
  levelsOf,
  measureGoldPlan,
} from '../../bench/gold-makespan-core.js';
import { distributionRows, figuresOf, parallelismRows, reportOf } from '../../bench/gold-makespan-report.js';
import { quantile } from '../../bench/stats.js';
import { compile } from '../../src/compile/index.js';
import { importPlans } from '../../src/import/index.js';

const CORPUS = resolve(import.meta.dirname, '../corpora/nestools/test_data.part1.jsonl');
const OPTIONS = { seed: 1, latency: { minMs: 50, maxMs: 500 } } as const;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The first `rows` rows of the corpus, imported. */
function firstRows(rows: number) {
  const text = readFileSync(CORPUS, 'utf8').split('\n').slice(0, rows).join('\n');
  return importPlans('nestools', text).samples;
}

/** `work` run to its end, the fake clock moved from timer to timer until it settles. */
async function onFakeClock<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  while (!settled) await vi.advanceTimersToNextTimerAsync();
  return done;
}

function measured(outcome: GoldOutcome): GoldMeasure {
  if (!outcome.ok) throw new Error(`${outcome.id} left out (${outcome.stage}): ${outcome.reason}`);
  return outcome;
}

describe('bench:gold core on a fake clock', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('makespans, critical paths, sums and levels of the first three NesTools plans', async () => {
    const samples = firstRows(3);
    expect(samples.map((s) => s.id)).toEqual(['nestools-1', 'nestools-2', 'nestools-3']);
    const measures: GoldMeasure[] = [];
    for (const sample of samples)
      measures.push(measured(await onFakeClock(measureGoldPlan(sample, OPTIONS))));

    // Row 1 is a chain (scan_isbn -> locate_book -> engage_ar_experience, which also reads the
    // first call); rows 2 and 3 are two and three calls that read nothing of each other.
    expect(measures.map((m) => [m.calls, m.depth, m.widest])).toEqual([
      [3, 3, 1],
      [2, 1, 2],
      [3, 1, 3],
    ]);
    for (const m of measures) {
      const { planmode, sequential } = m;
      // Every call waited what the bench says its mock drew: the draw it reads is the mock's own.
      expect(planmode.measuredMs).toEqual(planmode.drawnMs);
      expect(sequential.measuredMs).toEqual(sequential.drawnMs);
      for (const drawn of planmode.drawnMs) {
        expect(Number.isInteger(drawn)).toBe(true);
        expect(drawn).toBeGreaterThanOrEqual(50);
        expect(drawn).toBeLessThanOrEqual(500);
      }
      // The same calls with the same arguments against the same seed draw the same latencies.
      expect(sequential.drawnMs).toEqual(planmode.drawnMs);
      // One call at a time: the makespan is the sum of the draws.
      expect(sequential.makespanMs).toBe(sum(sequential.drawnMs));
      // All at once: the makespan is the critical path, never less.
      expect(m.criticalPathMs).toBeLessThanOrEqual(planmode.makespanMs);
      expect(planmode.makespanMs).toBe(m.criticalPathMs);
    }
    const [chain, two, three] = measures as [GoldMeasure, GoldMeasure, GoldMeasure];
    expect(chain.criticalPathMs).toBe(sum(chain.planmode.drawnMs));
    expect(two.criticalPathMs).toBe(Math.max(...two.planmode.drawnMs));
    expect(three.criticalPathMs).toBe(Math.max(...three.planmode.drawnMs));

    // The figures the bench prints are these numbers.
    const report = reportOf(measures);
    expect(report.withinTarget).toBe(3);
    expect(report.left).toEqual([]);
    expect(report.worst?.ratio).toBe(1);
    const figures = measures.map(figuresOf);
    expect(figures.map((f) => f.speedUp)).toEqual([
      1,
      sum(two.planmode.drawnMs) / Math.max(...two.planmode.drawnMs),
      sum(three.planmode.drawnMs) / Math.max(...three.planmode.drawnMs),
    ]);
    expect(figures.map((f) => f.lateMs)).toEqual([0, 0, 0]);
    const rows = distributionRows(figures);
    expect(rows.find((r) => r[0] === 'widest level (calls at once)')).toEqual([
      'widest level (calls at once)',
      '2',
      '1',
      '3',
      '1',
      '3',
    ]);
    expect(parallelismRows(figures).map((r) => r.slice(0, 2))).toEqual([
      ['1', '1'],
      ['2', '1'],
      ['3', '1'],
    ]);
  });

  it('a plan that does not compile is left out with its first error', async () => {
    const [sample] = firstRows(1);
    const broken = { ...sample!, tools: { tools: sample!.tools.tools.slice(1) } };
    const outcome = await onFakeClock(measureGoldPlan(broken, OPTIONS));
    expect(outcome).toMatchObject({ ok: false, id: 'nestools-1', stage: 'compile' });
    expect(reportOf([outcome]).left).toHaveLength(1);
  });
});

describe('critical path and levels over the compiled edges', () => {
  // a and b start at once; c reads both; d reads nothing but is ordered after c by _after.
  const plan = compile(
    [
      { _id: 'a', _tool: 't', _outputPath: '†state.a' },
      { _id: 'b', _tool: 't', _outputPath: '†state.b' },
      { _id: 'c', _tool: 't', x: '†state.a', y: '†state.b', _outputPath: '†state.c' },
      { _id: 'd', _tool: 't', _after: ['c'], _outputPath: '†state.d' },
    ],
    { tools: [{ name: 't', inputSchema: { type: 'object' } }] },
  ).plan!;

  it('weights each call by its own latency, order edges included', () => {
    expect(criticalPathMs(plan, [10, 30, 5, 7])).toBe(30 + 5 + 7);
    expect(criticalPathMs(plan, [40, 30, 5, 0])).toBe(45);
  });

  it('levels: the longest chain in calls and the widest level', () => {
    expect(levelsOf(plan)).toEqual({ depth: 3, widest: 2 });
  });

  it('quantiles by nearest rank', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect([0.1, 0.5, 0.9, 1].map((q) => quantile(values, q))).toEqual([1, 5, 9, 10]);
    expect(quantile([7], 0.1)).toBe(7);
  });
});
