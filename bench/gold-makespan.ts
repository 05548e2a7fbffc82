/**
 * bench/gold-makespan: the NesTools gold plans (test/corpora/nestools, imported with
 * `importPlans('nestools', ...)`), each run by planmode against mock tools that answer from
 * their `outputSchema` after a latency drawn per call (uniform 50-500 ms, seeded), and run
 * beside it one call at a time against the same mocks. Per plan: planmode's makespan, its
 * critical path (the compiled graph's longest chain, weighted by the latencies its calls drew)
 * and the sequential makespan. Prints how many plans finished within 1.05x of their critical
 * path and the worst ratio, the speed-up (sequential / planmode) and parallelism distributions.
 *
 *     npm run bench:gold -- [--rows N] [--seed N] [--concurrency N]
 *
 * `--rows`: the first N rows of the file (default: all); `--seed`: the mocks' seed (default 1);
 * `--concurrency`: plans run at once, in batches (default 10). Each plan is timed on its own, but
 * many at once on a busy machine can make every makespan longer (one plan's mock answering, a
 * few ms of CPU, delays the timers of the others), which is why the 1.05x target is a result
 * printed here rather than a test.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { type ImportedSample, importPlans } from '../src/import/index.js';
import {
  type GoldOutcome,
  type GoldRunOptions,
  measureGoldPlan,
  prepareGoldPlan,
} from './gold-makespan-core.js';
import { distributionRows, MAX_MAKESPAN_RATIO, parallelismRows, reportOf } from './gold-makespan-report.js';
import { printTable } from './table.js';
import { benchCommandLine } from './command-line.js';

/** The checkout this script was built in: dist/bench/ is two levels below it. */
const HERE = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const CORPUS = 'test/corpora/nestools/test_data.part1.jsonl';
const LATENCY = { minMs: 50, maxMs: 500 } as const;

const USAGE = 'usage: npm run bench:gold -- [--rows N] [--seed N] [--concurrency N]';

const { fail, wholeNumber } = benchCommandLine('bench:gold', USAGE);

/** The flags, or the usage line and exit 2 for any other (no stack trace for a typo). */
function flags(): { values: { rows?: string; seed: string; concurrency: string } } {
  try {
    return parseArgs({
      options: {
        rows: { type: 'string' },
        seed: { type: 'string', default: '1' },
        concurrency: { type: 'string', default: '10' },
      },
    });
  } catch (e) {
    return fail((e as Error).message);
  }
}

/**
 * Every sample measured, `width` at a time: a batch's plans are compiled and their registries
 * built first, then all of its runs start together, so no plan's setup delays another's timers.
 * A warm-up measure of the first sample goes before, uncounted, so the first batch does not pay
 * for the JIT.
 */
async function measureAll(
  samples: readonly ImportedSample[],
  width: number,
  options: GoldRunOptions,
): Promise<{ outcomes: GoldOutcome[]; load: RunPhaseLoad }> {
  if (samples.length > 0) await measureGoldPlan(samples[0]!, options);
  const outcomes: GoldOutcome[] = [];
  // One monitor per batch: a monitor enabled again would count the pause between batches as
  // one long delay.
  let delayP99Ms = 0;
  let delayMaxMs = 0;
  let wallMs = 0;
  let cpuMicros = 0;
  for (let at = 0; at < samples.length; at += width) {
    const prepared = samples.slice(at, at + width).map((sample) => prepareGoldPlan(sample, options));
    // The setup's garbage collected now (with --expose-gc), not in the middle of the runs.
    globalThis.gc?.();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const monitor = monitorEventLoopDelay({ resolution: 10 });
    monitor.enable();
    outcomes.push(...(await Promise.all(prepared.map((p) => (p.ok ? p.measure() : p)))));
    monitor.disable();
    if (monitor.count > 0) {
      delayP99Ms = Math.max(delayP99Ms, monitor.percentile(99) / 1e6);
      delayMaxMs = Math.max(delayMaxMs, monitor.max / 1e6);
    }
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
    wallMs += performance.now() - started;
    console.error(`bench:gold: ${outcomes.length}/${samples.length} plans`);
  }
  const load = {
    wallMs,
    cpuMs: cpuMicros / 1000,
    delayP99Ms,
    delayMaxMs,
  };
  return { outcomes, load };
}

/** How busy the process was while the plans ran (setup left out). */
interface RunPhaseLoad {
  readonly wallMs: number;
  /** CPU time this process used meanwhile (user + system). */
  readonly cpuMs: number;
  /** Event-loop delay (how late the loop got to a ready callback): the worst batch's p99, and the worst. */
  readonly delayP99Ms: number;
  readonly delayMaxMs: number;
}

/** The first `rows` lines of the corpus (all of them when undefined), imported. */
function samplesOf(rows: number | undefined): {
  samples: readonly ImportedSample[];
  read: number;
  errors: number;
} {
  const lines = readFileSync(resolve(HERE, CORPUS), 'utf8').split('\n');
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const kept = rows === undefined ? lines : lines.slice(0, rows);
  const imported = importPlans('nestools', kept.join('\n'));
  return { samples: imported.samples, read: kept.length, errors: imported.errors.length };
}

async function main(): Promise<void> {
  const { values } = flags();
  const rows = values.rows === undefined ? undefined : wholeNumber('rows', values.rows, 1);
  const options: GoldRunOptions = { seed: wholeNumber('seed', values.seed, 0), latency: LATENCY };
  const width = wholeNumber('concurrency', values.concurrency, 1);
  const { samples, read, errors } = samplesOf(rows);

  const started = performance.now();
  const { outcomes, load } = await measureAll(samples, width, options);
  const wallS = (performance.now() - started) / 1000;
  const report = reportOf(outcomes);
  const { figures, worst } = report;

  console.log(
    `bench/gold-makespan: ${CORPUS}, ${read} rows (${samples.length} imported, ${errors} row errors); ` +
      `mocks seeded ${options.seed}, each call waits ${LATENCY.minMs}-${LATENCY.maxMs} ms (drawn per call); ` +
      `batches of ${width} plan${width === 1 ? '' : 's'} run at once, ${wallS.toFixed(1)} s in all; node ${process.version}\n` +
      'planmode = run (default concurrency); sequential = the same run with concurrency 1 beside it, same mocks and latencies; ' +
      "critical path = the compiled graph's longest chain weighted by the latencies its calls drew\n",
  );
  printTable(
    [
      'plans measured',
      `within ${MAX_MAKESPAN_RATIO}x of critical path`,
      'worst makespan / critical path',
      'left out',
    ],
    [
      [
        String(figures.length),
        `${report.withinTarget} (${figures.length ? ((100 * report.withinTarget) / figures.length).toFixed(1) : '0'}%) ` +
          (report.withinTarget === figures.length ? 'met' : 'MISSED'),
        worst
          ? `${worst.ratio.toFixed(3)}x (${worst.id}: ${worst.planmodeMs.toFixed(1)} ms, critical path ${worst.criticalPathMs} ms)`
          : '—',
        String(report.left.length),
      ],
    ],
  );
  console.log('');
  printTable(['over the plans', 'median', 'p10', 'p90', 'min', 'max'], distributionRows(figures));
  console.log('');
  printTable(
    ['widest level', 'plans', 'share', 'median calls', 'median speed-up', 'best speed-up'],
    parallelismRows(figures),
  );
  const late = Math.max(0, ...figures.map((f) => f.lateMs));
  console.log(
    `\nwhile the plans ran: ${(load.wallMs / 1000).toFixed(1)} s, of which this process used ` +
      `${(load.cpuMs / 1000).toFixed(1)} s of CPU; event-loop delay p99 (worst batch) ${load.delayP99Ms.toFixed(1)} ms, ` +
      `worst ${load.delayMaxMs.toFixed(1)} ms; the latest call took ${late.toFixed(1)} ms more than the latency it drew; ` +
      `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
  for (const left of report.left) console.log(`left out: ${left.id} (${left.stage}): ${left.reason}`);
}

await main();
