/**
 * bench/latency: how long a task takes end to end while the model writes at a set pace. The
 * NesTools gold plans (test/corpora/nestools, imported with `importPlans('nestools', ...)`) are
 * played by a loopback Chat Completions server (latency-server.ts) that streams each reply after
 * a first-token delay, at a set rate in tokens per second (a token being 4 characters), and each
 * plan is carried out four ways through planmode's public API (latency-methods.ts): ReAct,
 * parallel function calling, lazy planmode and eager planmode. The tools are seeded mocks that
 * wait 50-500 ms per call (the same draw for a call in every method). Each time is divided by
 * the plan's bound (latency-timeline.ts): every call starting the moment its text has arrived
 * and what it reads has ended, then the final answer's turn.
 *
 *     npm run bench:latency -- [--plans N] [--seed N] [--rates 50,150] [--concurrency N]
 *                              [--first-token MS] [--chunk CHARS]
 *
 * `--plans`: how many gold plans of two calls or more, drawn by `--seed` (default 60, seed 1;
 * the seed also seeds the mocks); `--rates`: tokens per second, one table each (default 50,150);
 * `--concurrency`: plans played at once, in batches, each plan's four methods at once
 * (default 4); `--first-token`: ms before the first chunk (default 300); `--chunk`: characters
 * per chunk (default 4: one token per chunk, as OpenAI's API streams).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { importPlans } from '../src/import/index.js';
import { METHODS, type Method, type MethodRun, prepareMethod } from './latency-methods.js';
import { boundCalls, FINAL_SOLUTION, type PlayedPlan, preparePlan, sampleOf } from './latency-plans.js';
import { type PlanMeasure, ratioRows, speedUpRows, TARGETS, targetRows } from './latency-report.js';
import { type ModelServer, startModelServer } from './latency-server.js';
import { boundOf, type ModelPace, wholeReplyBoundOf } from './latency-timeline.js';
import { printTable } from './table.js';
import { benchCommandLine } from './command-line.js';

const HERE = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const CORPUS = 'test/corpora/nestools/test_data.part1.jsonl';
const LATENCY = { minMs: 50, maxMs: 500 } as const;
const USAGE =
  'usage: npm run bench:latency -- [--plans N] [--seed N] [--rates 50,150] [--concurrency N] [--first-token MS] [--chunk CHARS]';

const { fail, wholeNumber } = benchCommandLine('bench:latency', USAGE);

function flags() {
  try {
    return parseArgs({
      options: {
        plans: { type: 'string', default: '60' },
        seed: { type: 'string', default: '1' },
        rates: { type: 'string', default: '50,150' },
        concurrency: { type: 'string', default: '4' },
        'first-token': { type: 'string', default: '300' },
        chunk: { type: 'string', default: '4' },
      },
    }).values;
  } catch (e) {
    return fail((e as Error).message);
  }
}

/** What went wrong with a plan, for the lines after the tables. */
interface LeftOut {
  readonly id: string;
  readonly reason: string;
}

interface Load {
  wallMs: number;
  delayP99Ms: number;
  delayMaxMs: number;
}

/**
 * Every plan at one pace, `width` plans at a time: a batch's sessions, providers, mocks and
 * agents are made first, then all its runs start together (each plan's four methods at once),
 * so no setup delays another plan's timers.
 */
async function measureAll(
  plans: readonly PlayedPlan[],
  width: number,
  common: { server: ModelServer; pace: ModelPace; seed: number; tag: string },
): Promise<{ measures: PlanMeasure[]; left: LeftOut[]; load: Load }> {
  const measures: PlanMeasure[] = [];
  const left: LeftOut[] = [];
  const load: Load = { wallMs: 0, delayP99Ms: 0, delayMaxMs: 0 };
  for (let at = 0; at < plans.length; at += width) {
    const batch = plans.slice(at, at + width);
    const ready = await Promise.all(
      batch.map(async (plan) => {
        const runs = await Promise.all(
          METHODS.map((method) => prepareMethod(method, plan, { ...common, latency: LATENCY })),
        );
        return { plan, runs };
      }),
    );
    globalThis.gc?.();
    const monitor = monitorEventLoopDelay({ resolution: 10 });
    monitor.enable();
    const started = performance.now();
    const settled = await Promise.all(
      ready.map(async ({ plan, runs }) => {
        try {
          const results = await Promise.all(runs.map((timed) => timed()));
          const byMethod = Object.fromEntries(METHODS.map((m, i) => [m, results[i]!])) as Record<
            Method,
            MethodRun
          >;
          const shape = [
            boundCalls(plan),
            plan.order,
            plan.solution.length,
            FINAL_SOLUTION.length,
            common.pace,
          ] as const;
          const measure = {
            id: plan.id,
            boundMs: boundOf(...shape).totalMs,
            wholeReplyBoundMs: wholeReplyBoundOf(...shape).totalMs,
            runs: byMethod,
          };
          return { ok: true as const, measure };
        } catch (error) {
          return { ok: false as const, id: plan.id, reason: (error as Error).message };
        }
      }),
    );
    load.wallMs += performance.now() - started;
    monitor.disable();
    if (monitor.count > 0) {
      load.delayP99Ms = Math.max(load.delayP99Ms, monitor.percentile(99) / 1e6);
      load.delayMaxMs = Math.max(load.delayMaxMs, monitor.max / 1e6);
    }
    for (const s of settled)
      if (s.ok) measures.push(s.measure);
      else left.push({ id: s.id, reason: s.reason });
    console.error(
      `bench:latency: ${common.pace.tokensPerSecond} tok/s: ${at + batch.length}/${plans.length} plans`,
    );
  }
  return { measures, left, load };
}

async function main(): Promise<void> {
  const values = flags();
  const count = wholeNumber('plans', values.plans, 1);
  const seed = wholeNumber('seed', values.seed, 0);
  const width = wholeNumber('concurrency', values.concurrency, 1);
  const firstTokenMs = wholeNumber('first-token', values['first-token'], 0);
  const chunkChars = wholeNumber('chunk', values.chunk, 1);
  const rates = values.rates.split(',').map((rate) => wholeNumber('rates', rate.trim(), 1));

  const imported = importPlans('nestools', readFileSync(resolve(HERE, CORPUS), 'utf8'));
  const pool = imported.samples.filter((s) => {
    const plan = s.plan.find((m) => (m as { type?: string }).type === 'plan') as
      { plan?: unknown[] } | undefined;
    return (plan?.plan?.length ?? 0) >= 2;
  });
  const chosen = sampleOf(pool, count, seed);
  const plans: PlayedPlan[] = [];
  const unplayable: LeftOut[] = [];
  for (const sample of chosen) {
    const prepared = await preparePlan(sample, { seed, latency: LATENCY });
    if ('calls' in prepared) plans.push(prepared);
    else unplayable.push(prepared);
  }
  const calls = plans.map((p) => p.calls.length);
  const server = await startModelServer();
  const started = performance.now();
  try {
    // Uncounted: the JIT, the SDK's first load and the first connections, before any figure.
    if (plans.length > 0) {
      const pace = { firstTokenMs, tokensPerSecond: rates[0]!, chunkChars };
      await measureAll(plans.slice(0, 1), 1, { server, pace, seed, tag: 'warm-up' });
    }
    console.log(
      `bench/latency: ${CORPUS}: ${pool.length} of ${imported.samples.length} plans have two calls or more; ` +
        `${plans.length} drawn with seed ${seed} (${Math.min(...calls)}-${Math.max(...calls)} calls, ${calls.reduce((a, b) => a + b, 0)} in all)` +
        `${unplayable.length ? `, ${unplayable.length} left out before running` : ''}; ` +
        `mocks seeded ${seed}, each call waits ${LATENCY.minMs}-${LATENCY.maxMs} ms (drawn per call, the same in every method); ` +
        `model: first chunk ${firstTokenMs} ms after the request, then 4 characters a token, ${chunkChars} characters a chunk; ` +
        `${width} plans at once in batches, each plan's four methods at once; node ${process.version}\n` +
        'bound = each call starts when the chunk carrying its closing } has arrived and the calls it reads have ended, ' +
        "the plan ends with its last call (not before the reply), then the final answer's turn " +
        `(${FINAL_SOLUTION.length} characters), which every method pays`,
    );
    for (const tokensPerSecond of rates) {
      const pace: ModelPace = { firstTokenMs, tokensPerSecond, chunkChars };
      const { measures, left, load } = await measureAll(plans, width, {
        server,
        pace,
        seed,
        tag: `r${tokensPerSecond}`,
      });
      console.log(`\n### ${tokensPerSecond} tokens/s: ${measures.length} plans\n`);
      if (measures.length === 0) {
        console.log('no plan measured');
      } else {
        printTable(
          ['method', 'median / bound', 'p10', 'p90', 'median ms', 'median ms to first call'],
          ratioRows(measures),
        );
        console.log('');
        printTable(['eager planmode speed-up', 'median', 'p10', 'p90'], speedUpRows(measures));
        console.log('');
        printTable(['target', 'measured', ''], targetRows(measures));
      }
      console.log(
        `\nwhile the plans ran: ${(load.wallMs / 1000).toFixed(1)} s; event-loop delay p99 (worst batch) ` +
          `${load.delayP99Ms.toFixed(1)} ms, worst ${load.delayMaxMs.toFixed(1)} ms; load average ` +
          `${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
      );
      for (const l of left) console.log(`left out: ${l.id}: ${l.reason}`);
    }
    for (const u of unplayable) console.log(`left out before running: ${u.id}: ${u.reason}`);
    console.log(
      `\n${((performance.now() - started) / 1000).toFixed(1)} s in all; targets (eager): <= ${TARGETS.median}x at the median, <= ${TARGETS.p90}x at p90`,
    );
  } finally {
    await server.close();
  }
}

await main();
