/**
 * bench/run: the executor against a baseline, side by side in one process.
 *
 * (a) Overhead against the floor: 1k, 10k and 100k no-op async calls (`step` resolves to its
 *     `n`) in the three shapes of bench/compile (chain, wide = fanout, random), each plan
 *     compiled once, then run side by side in one process by the floor (bench/floor-executor:
 *     per call a promise that awaits its inputs' promises, then the tool), the Kahn baseline
 *     (bench/baseline-executor) and planmode's `run`, all without a concurrency bound, same
 *     final state (planmode also checks every call's arguments and output against the tool's
 *     schemas and keeps its call records). One child process per row, so that one case's
 *     garbage does not land in the next. Target: planmode/floor <= 2 in every row (goal 1.5).
 * (b) Parallelism: calls that sleep 20 ms on DAGs with known critical paths, with concurrency
 *     to spare: makespan / (critical path x 20 ms) <= 1.05; and a 200-call layered DAG whose
 *     calls sleep 20-200 ms (seeded): makespan / weighted critical path <= 1.03.
 * (c) The DAGs of (b) on GraphAI, the peer engine, against planmode's makespan.
 *
 *     npm run bench:run        (builds, then runs this; `-- overhead` or `-- parallel` for one part)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { type CompiledPlan, compile } from '../src/compile/index.js';
import { run } from '../src/run/index.js';
import { type Tool, ToolRegistry } from '../src/tools/index.js';
import { type BaselineExecute, runBaseline } from './baseline-executor.js';
import { chains, type Dag, diamond, layeredRandom, unevenLatencies } from './dags.js';
import { runFloor } from './floor-executor.js';
import { nodeId, runGraphAI, toAgents, toGraphData } from './graphai-graph.js';
import { benchTools, type GeneratedCall, generatePlan, SHAPES, type Shape } from './plans.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';
import { runChildCase } from './child-case.js';

const OVERHEAD_SIZES = [1_000, 10_000, 100_000];
/** No bound: the floor has none, and the figures were taken without one. */
const OVERHEAD_CONCURRENCY = Number.POSITIVE_INFINITY;
/**
 * Warm-up runs per engine: at least 2, and enough for 200k calls, so that every engine is
 * measured with its code optimised (a 1k-call run is over before the JIT has looked at it).
 */
const WARMUP_CALLS = 200_000;
const overheadWarmups = (calls: number) => Math.max(2, Math.ceil(WARMUP_CALLS / calls));
/** Short runs are noisier: more of them. */
const overheadRepeats = (calls: number) => (calls <= 1_000 ? 21 : calls <= 10_000 ? 11 : 5);
const MAX_RATIO = 2;
const GOAL_RATIO = 1.5;

const SLEEP_MS = 20;
const PARALLEL_CONCURRENCY = 256;
const PARALLEL_REPEATS = 7;
const MAX_MAKESPAN_RATIO = 1.05;
const MAX_UNEVEN_RATIO = 1.03;

type Args = Record<string, unknown>;

interface OverheadResult {
  shape: Shape;
  calls: number;
  edges: number;
  floorMs: number;
  baselineMs: number;
  planmodeMs: number;
  /** The same runs back to back with no collection forced before each (see timed). */
  steadyFloorMs: number;
  steadyPlanmodeMs: number;
}

interface ParallelResult {
  dag: string;
  calls: number;
  edges: number;
  criticalPath: number;
  /** The critical path in ms: every call on it counted for its latency. */
  idealMs: number;
  /** Set when the calls' latencies differ (the target is then MAX_UNEVEN_RATIO). */
  uneven: boolean;
  widest: number;
  planmodeMs: number;
  baselineMs: number;
  graphaiMs: number;
}

function compiled(calls: GeneratedCall[], tools: ToolRegistry): CompiledPlan {
  const result = compile(calls, { tools });
  if (!result.ok) throw new Error(`bench plan did not compile: ${result.diagnostics[0]?.message}`);
  return result.plan!;
}

/** Same keys and values, whatever the insertion order or prototype of the two objects. */
function sameState(a: Args, b: Args): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => isDeepStrictEqual(a[k], b[k]));
}

/** Every call wrote its own `n` to `v<n>`, as the bench tools do. */
function checkOutputs(plan: CompiledPlan, output: (index: number) => unknown, engine: string): void {
  for (const call of plan.calls) {
    if (output(call.index) !== call.args.n) throw new Error(`${engine}: call ${call.id} has a wrong result`);
  }
}

/**
 * One run, timed, after a full collection: each run starts from a collected heap, so no run pays
 * for the garbage of the engine before it. (That also leaves the collector's sweeping to finish
 * and cold caches for the run, and a full collection can take optimised code away from an
 * engine whose object shapes died with its last run; the steady figures below measure without
 * it.)
 */
async function timed<T>(work: () => Promise<T>, collect = true): Promise<{ ms: number; value: T }> {
  if (collect) globalThis.gc?.();
  const t = performance.now();
  const value = await work();
  return { ms: performance.now() - t, value };
}

async function planmodeState(plan: CompiledPlan, tools: ToolRegistry, concurrency: number): Promise<Args> {
  const result = await run(plan, { tools, concurrency });
  if (result.status !== 'succeeded') throw new Error(`planmode run ended ${result.status}`);
  return result.state;
}

/** (a), in a child process: one shape and size, the three executors, alternating. */
async function overheadCase(shape: Shape, n: number): Promise<OverheadResult> {
  const step: BaselineExecute = async (args) => args.n;
  const tools = new ToolRegistry(benchTools.map((t): Tool<Args> => ({ ...t, execute: step })));
  const plan = compiled(generatePlan(shape, n), tools);
  const byName = new Map([['step', step]]);
  const floor = () => runFloor(plan, { tools: byName });
  const baseline = () => runBaseline(plan, { tools: byName, concurrency: OVERHEAD_CONCURRENCY });
  const planmode = () => planmodeState(plan, tools, OVERHEAD_CONCURRENCY);

  // Warm-up runs, the first of which also checks that all did the same work.
  const first = await timed(floor);
  checkOutputs(plan, (i) => first.value[`v${i}`], 'floor');
  if (!sameState((await timed(baseline)).value, first.value)) {
    throw new Error(`${shape} ${n}: the baseline's final state differs from the floor's`);
  }
  if (!sameState((await timed(planmode)).value, first.value)) {
    throw new Error(`${shape} ${n}: planmode's final state differs from the floor's`);
  }
  for (let w = 1; w < overheadWarmups(n); w++) {
    await floor();
    await baseline();
    await planmode();
  }
  const floorTimes: number[] = [];
  const baselineTimes: number[] = [];
  const planmodeTimes: number[] = [];
  for (let r = 0; r < overheadRepeats(n); r++) {
    floorTimes.push((await timed(floor)).ms);
    baselineTimes.push((await timed(baseline)).ms);
    planmodeTimes.push((await timed(planmode)).ms);
  }
  // Steady state, as in a long-lived process: back to back, alternating, nothing forced; each
  // engine's collections land mostly in its own runs, in proportion to what it allocates.
  const steadyFloor: number[] = [];
  const steadyPlanmode: number[] = [];
  for (let r = 0; r < overheadRepeats(n); r++) {
    steadyFloor.push((await timed(floor, false)).ms);
    steadyPlanmode.push((await timed(planmode, false)).ms);
  }
  return {
    shape,
    calls: n,
    edges: plan.edgeCount,
    floorMs: median(floorTimes),
    baselineMs: median(baselineTimes),
    planmodeMs: median(planmodeTimes),
    steadyFloorMs: median(steadyFloor),
    steadyPlanmodeMs: median(steadyPlanmode),
  };
}

/** How long call n of a DAG sleeps: its own latency, or SLEEP_MS. */
function latencyOf(dag: Dag, n: number): number {
  return dag.latencies?.[n] ?? SLEEP_MS;
}

/** The longest chain of dependent calls, each counted for its latency: no schedule can beat it. */
function weightedCriticalPath(plan: CompiledPlan, latency: (n: number) => number): number {
  const finish = new Float64Array(plan.calls.length);
  let longest = 0;
  for (const i of plan.order) {
    const call = plan.calls[i]!;
    let start = 0;
    for (const d of call.dependencies) start = Math.max(start, finish[d.from]!);
    finish[i] = start + latency(call.args.n as number);
    longest = Math.max(longest, finish[i]!);
  }
  return longest;
}

/** (b) and (c): one DAG on planmode, the baseline and GraphAI, alternating. */
async function parallelCase(dag: Dag): Promise<ParallelResult> {
  const sleepy: BaselineExecute = async (args) => {
    await sleep(latencyOf(dag, args.n as number));
    return args.n;
  };
  const tools = new ToolRegistry([{ name: 'sleep', inputSchema: { type: 'object' }, execute: sleepy }]);
  const plan = compiled(dag.calls, tools);
  const byName = new Map([['sleep', sleepy]]);
  const graph = toGraphData(plan, PARALLEL_CONCURRENCY);
  const agents = toAgents(byName);
  const planmode = () => planmodeState(plan, tools, PARALLEL_CONCURRENCY);
  const baseline = () => runBaseline(plan, { tools: byName, concurrency: PARALLEL_CONCURRENCY });
  const graphai = () => runGraphAI(graph, agents);

  const ours = (await timed(planmode)).value;
  checkOutputs(plan, (i) => ours[`v${i}`], 'planmode');
  if (!sameState((await timed(baseline)).value, ours)) throw new Error(`${dag.name}: baseline state differs`);
  const theirs = (await timed(graphai)).value;
  checkOutputs(plan, (i) => theirs[nodeId(i)], 'GraphAI');

  const times = { planmode: [] as number[], baseline: [] as number[], graphai: [] as number[] };
  for (let r = 0; r < PARALLEL_REPEATS; r++) {
    times.planmode.push((await timed(planmode)).ms);
    times.graphai.push((await timed(graphai)).ms);
    times.baseline.push((await timed(baseline)).ms);
  }
  const perLevel = new Map<number, number>();
  for (const level of plan.levels) perLevel.set(level, (perLevel.get(level) ?? 0) + 1);
  return {
    dag: dag.name,
    calls: plan.calls.length,
    edges: plan.edgeCount,
    criticalPath: plan.criticalPath.length,
    idealMs: weightedCriticalPath(plan, (i) => latencyOf(dag, i)),
    uneven: dag.latencies !== undefined,
    widest: Math.max(...perLevel.values()),
    planmodeMs: median(times.planmode),
    baselineMs: median(times.baseline),
    graphaiMs: median(times.graphai),
  };
}

const okOrMissed = (ok: boolean) => (ok ? 'ok' : 'MISSED');
const ratio = (a: number, b: number, digits = 2) => `${(a / b).toFixed(digits)}x`;
const count = (n: number) => n.toLocaleString('en-US');

function printOverhead(results: readonly OverheadResult[]): void {
  console.log(
    `(a) executor overhead against the floor: no-op async calls, compiled once, no concurrency bound; ` +
      `floor = bench/floor-executor (a promise per call that awaits its inputs' promises, then the tool); ` +
      `Kahn = bench/baseline-executor (Kahn's algorithm, ready queue, no features); ` +
      `planmode checks arguments and outputs against the tool's schemas and keeps its call records; ` +
      `median of ${overheadRepeats(1_000)} (1k), ${overheadRepeats(10_000)} (10k) or ${overheadRepeats(100_000)} (100k) runs each after warm-ups of at least ${count(WARMUP_CALLS)} calls per engine (at least 2 runs), ` +
      `alternating, one child process per row\n`,
  );
  printTable(
    [
      'shape',
      'calls',
      'edges',
      'floor ms',
      'Kahn ms',
      'planmode ms',
      'planmode us/call',
      'Kahn/floor',
      'planmode/floor',
      `target <= ${MAX_RATIO}x`,
      'steady floor ms',
      'steady planmode ms',
      'steady planmode/floor',
      `steady <= ${MAX_RATIO}x`,
    ],
    results.map((r) => [
      r.shape === 'fanout' ? 'wide' : r.shape,
      count(r.calls),
      count(r.edges),
      ms(r.floorMs),
      ms(r.baselineMs),
      ms(r.planmodeMs),
      ((r.planmodeMs * 1000) / r.calls).toFixed(2),
      ratio(r.baselineMs, r.floorMs),
      ratio(r.planmodeMs, r.floorMs),
      okOrMissed(r.planmodeMs / r.floorMs <= MAX_RATIO),
      ms(r.steadyFloorMs),
      ms(r.steadyPlanmodeMs),
      ratio(r.steadyPlanmodeMs, r.steadyFloorMs),
      okOrMissed(r.steadyPlanmodeMs / r.steadyFloorMs <= MAX_RATIO),
    ]),
  );
  const worst = Math.max(...results.map((r) => r.planmodeMs / r.floorMs));
  const worstSteady = Math.max(...results.map((r) => r.steadyPlanmodeMs / r.steadyFloorMs));
  console.log(
    `\ntarget: planmode/floor <= ${MAX_RATIO}x in every row: after a forced collection, worst ${worst.toFixed(2)}x ${okOrMissed(worst <= MAX_RATIO)} ` +
      `(goal ${GOAL_RATIO}x: ${okOrMissed(worst <= GOAL_RATIO)}); steady, worst ${worstSteady.toFixed(2)}x ${okOrMissed(worstSteady <= MAX_RATIO)} ` +
      `(goal ${GOAL_RATIO}x: ${okOrMissed(worstSteady <= GOAL_RATIO)})\n`,
  );
}

function printParallel(results: readonly ParallelResult[]): void {
  console.log(
    `(b) parallelism: every call sleeps ${SLEEP_MS} ms (setTimeout), or its own seeded 20-200 ms on the 'uneven' DAG, ` +
      `concurrency ${PARALLEL_CONCURRENCY}; CP ms = the longest chain of dependent calls, each counted for its latency; ` +
      `makespan = median of ${PARALLEL_REPEATS} runs after a warm-up\n`,
  );
  printTable(
    [
      'DAG',
      'calls',
      'edges',
      'critical path',
      'widest level',
      'CP ms',
      'planmode ms',
      'planmode/CP',
      'target',
      'baseline ms',
      'baseline/CP',
    ],
    results.map((r) => {
      const ideal = r.idealMs;
      const target = r.uneven ? MAX_UNEVEN_RATIO : MAX_MAKESPAN_RATIO;
      return [
        r.dag,
        count(r.calls),
        count(r.edges),
        String(r.criticalPath),
        String(r.widest),
        String(ideal),
        ms(r.planmodeMs),
        ratio(r.planmodeMs, ideal, 3),
        `<= ${target}x ${okOrMissed(r.planmodeMs / ideal <= target)}`,
        ms(r.baselineMs),
        ratio(r.baselineMs, ideal, 3),
      ];
    }),
  );
  console.log(
    `\n(c) the same DAGs on GraphAI (graph built from the compiled plan's dependencies, ` +
      `concurrency ${PARALLEL_CONCURRENCY}), same runs as (b)\n`,
  );
  printTable(
    ['DAG', 'CP ms', 'planmode ms', 'GraphAI ms', 'planmode/GraphAI', 'GraphAI/CP'],
    results.map((r) => {
      const ideal = r.idealMs;
      return [
        r.dag,
        String(ideal),
        ms(r.planmodeMs),
        ms(r.graphaiMs),
        ratio(r.planmodeMs, r.graphaiMs, 3),
        ratio(r.graphaiMs, ideal, 3),
      ];
    }),
  );
}

async function main(): Promise<void> {
  const [flag, shape, size] = process.argv.slice(2);
  if (flag === '--case') {
    console.log(JSON.stringify(await overheadCase(shape as Shape, Number(size))));
    return;
  }
  if (flag !== undefined && flag !== 'overhead' && flag !== 'parallel') {
    throw new TypeError(`Expected no argument, 'overhead' or 'parallel', got ${flag}`);
  }
  console.log(`bench/run: node ${process.version}\n`);
  if (flag !== 'parallel') {
    const self = fileURLToPath(import.meta.url);
    const overhead: OverheadResult[] = [];
    for (const s of SHAPES) {
      for (const n of OVERHEAD_SIZES) {
        overhead.push(
          runChildCase<OverheadResult>({ script: self, shape: s, size: n, nodeFlags: ['--expose-gc'] }),
        );
      }
    }
    printOverhead(overhead);
  }
  if (flag !== 'overhead') {
    const parallel: ParallelResult[] = [];
    const uneven = unevenLatencies(layeredRandom(10, 20), { minMs: 20, maxMs: 200, seed: 11 });
    for (const dag of [chains(8, 5), diamond(16), layeredRandom(10, 20), uneven])
      parallel.push(await parallelCase(dag));
    printParallel(parallel);
  }
}

await main();
