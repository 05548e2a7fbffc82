/**
 * bench/run: the executor against a baseline, side by side in one process.
 *
 * (a) Overhead: 10k and 100k no-op calls (`step` returns its `n` synchronously) in the three
 *     shapes of bench/compile, each plan compiled once, then run by planmode's `run` and by
 *     bench/baseline-executor (a bare Promise-based Kahn's-algorithm executor), same
 *     concurrency, same final state (planmode also checks every call's arguments and output
 *     against the tool's schemas, as it would for real). One child process per row, so that
 *     one case's garbage does not land in the next. Targets (issue 3): planmode/baseline <= 1.5,
 *     <= 2 us per call.
 * (b) Parallelism: calls that sleep 20 ms on DAGs with known critical paths, with concurrency
 *     to spare: makespan / (critical path x 20 ms) <= 1.05.
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
import { chains, type Dag, diamond, layeredRandom } from './dags.js';
import { nodeId, runGraphAI, toAgents, toGraphData } from './graphai-graph.js';
import { benchTools, type GeneratedCall, generatePlan, SHAPES, type Shape } from './plans.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';
import { runChildCase } from './child-case.js';

const OVERHEAD_SIZES = [10_000, 100_000];
const OVERHEAD_CONCURRENCY = 64;
const OVERHEAD_WARMUPS = 2;
/** Short runs are noisier: more of them. */
const overheadRepeats = (calls: number) => (calls <= 10_000 ? 11 : 5);
const MAX_RATIO = 1.5;
const MAX_US_PER_CALL = 2;

const SLEEP_MS = 20;
const PARALLEL_CONCURRENCY = 256;
const PARALLEL_REPEATS = 7;
const MAX_MAKESPAN_RATIO = 1.05;

type Args = Record<string, unknown>;

interface OverheadResult {
  shape: Shape;
  calls: number;
  edges: number;
  baselineMs: number;
  planmodeMs: number;
}

interface ParallelResult {
  dag: string;
  calls: number;
  edges: number;
  criticalPath: number;
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

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  globalThis.gc?.();
  const t = performance.now();
  const value = await work();
  return { ms: performance.now() - t, value };
}

async function planmodeState(plan: CompiledPlan, tools: ToolRegistry, concurrency: number): Promise<Args> {
  const result = await run(plan, { tools, concurrency });
  if (result.status !== 'succeeded') throw new Error(`planmode run ended ${result.status}`);
  return result.state;
}

/** (a), in a child process: one shape and size, both executors, alternating. */
async function overheadCase(shape: Shape, n: number): Promise<OverheadResult> {
  const step: BaselineExecute = (args) => args.n;
  const tools = new ToolRegistry(benchTools.map((t): Tool<Args> => ({ ...t, execute: step })));
  const plan = compiled(generatePlan(shape, n), tools);
  const baselineTools = new Map([['step', step]]);
  const baseline = () => runBaseline(plan, { tools: baselineTools, concurrency: OVERHEAD_CONCURRENCY });
  const planmode = () => planmodeState(plan, tools, OVERHEAD_CONCURRENCY);

  // Warm-up runs, the first of which also checks that both did the same work.
  const first = await timed(baseline);
  checkOutputs(plan, (i) => first.value[`v${i}`], 'baseline');
  if (!sameState((await timed(planmode)).value, first.value)) {
    throw new Error(`${shape} ${n}: planmode's final state differs from the baseline's`);
  }
  for (let w = 1; w < OVERHEAD_WARMUPS; w++) {
    await baseline();
    await planmode();
  }
  const baselineTimes: number[] = [];
  const planmodeTimes: number[] = [];
  for (let r = 0; r < overheadRepeats(n); r++) {
    baselineTimes.push((await timed(baseline)).ms);
    planmodeTimes.push((await timed(planmode)).ms);
  }
  return {
    shape,
    calls: n,
    edges: plan.edgeCount,
    baselineMs: median(baselineTimes),
    planmodeMs: median(planmodeTimes),
  };
}

/** (b) and (c): one DAG on planmode, the baseline and GraphAI, alternating. */
async function parallelCase(dag: Dag): Promise<ParallelResult> {
  const sleepy: BaselineExecute = async (args) => {
    await sleep(SLEEP_MS);
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
    `(a) executor overhead: no-op calls, compiled once, run with concurrency ${OVERHEAD_CONCURRENCY}; ` +
      `planmode checks arguments and outputs against the tool's schemas; ` +
      `baseline = bench/baseline-executor (Kahn's algorithm, Promise per call, no features); ` +
      `median of ${overheadRepeats(10_000)} (10k) or ${overheadRepeats(100_000)} (100k) runs each after ${OVERHEAD_WARMUPS} warm-ups, ` +
      `alternating, one child process per row\n`,
  );
  printTable(
    [
      'shape',
      'calls',
      'edges',
      'baseline ms',
      'baseline us/call',
      'planmode ms',
      'planmode us/call',
      'planmode/baseline',
      `target <= ${MAX_RATIO}x, <= ${MAX_US_PER_CALL} us`,
    ],
    results.map((r) => {
      const us = (r.planmodeMs * 1000) / r.calls;
      return [
        r.shape,
        count(r.calls),
        count(r.edges),
        ms(r.baselineMs),
        ((r.baselineMs * 1000) / r.calls).toFixed(2),
        ms(r.planmodeMs),
        us.toFixed(2),
        ratio(r.planmodeMs, r.baselineMs),
        okOrMissed(r.planmodeMs / r.baselineMs <= MAX_RATIO && us <= MAX_US_PER_CALL),
      ];
    }),
  );
  const worstRatio = Math.max(...results.map((r) => r.planmodeMs / r.baselineMs));
  const worstUs = Math.max(...results.map((r) => (r.planmodeMs * 1000) / r.calls));
  console.log(
    `\ntargets: planmode/baseline <= ${MAX_RATIO}x: worst ${worstRatio.toFixed(2)}x ${okOrMissed(worstRatio <= MAX_RATIO)}; ` +
      `<= ${MAX_US_PER_CALL} us/call: worst ${worstUs.toFixed(2)} ${okOrMissed(worstUs <= MAX_US_PER_CALL)}\n`,
  );
}

function printParallel(results: readonly ParallelResult[]): void {
  console.log(
    `(b) parallelism: every call sleeps ${SLEEP_MS} ms (setTimeout), concurrency ${PARALLEL_CONCURRENCY}; ` +
      `critical path from the compiled plan; makespan = median of ${PARALLEL_REPEATS} runs after a warm-up\n`,
  );
  printTable(
    [
      'DAG',
      'calls',
      'edges',
      'critical path',
      'widest level',
      `CP x ${SLEEP_MS} ms`,
      'planmode ms',
      'planmode/CP',
      `target <= ${MAX_MAKESPAN_RATIO}x`,
      'baseline ms',
      'baseline/CP',
    ],
    results.map((r) => {
      const ideal = r.criticalPath * SLEEP_MS;
      return [
        r.dag,
        count(r.calls),
        count(r.edges),
        String(r.criticalPath),
        String(r.widest),
        String(ideal),
        ms(r.planmodeMs),
        ratio(r.planmodeMs, ideal, 3),
        okOrMissed(r.planmodeMs / ideal <= MAX_MAKESPAN_RATIO),
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
    ['DAG', `CP x ${SLEEP_MS} ms`, 'planmode ms', 'GraphAI ms', 'planmode/GraphAI', 'GraphAI/CP'],
    results.map((r) => {
      const ideal = r.criticalPath * SLEEP_MS;
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
    for (const dag of [chains(8, 5), diamond(16), layeredRandom(10, 20)])
      parallel.push(await parallelCase(dag));
    printParallel(parallel);
  }
}

await main();
