/**
 * bench/peers: planmode's `run()` beside two peer engines, GraphAI and LangGraph.js, on the same
 * DAGs of no-op async tools, side by side in one process.
 *
 * The shapes of bench/compile (chain, fanout, random) at 1k and 10k calls. Each plan is
 * compiled once, then handed to each engine as its own graph with the same edges
 * (bench/graphai-graph, bench/langgraph-graph). Building the graphs is not timed, as compiling
 * is not: that includes the GraphAI instance of each run, since GraphAI checks the graph (for
 * cycles, too) as it builds one. No engine has a concurrency bound. Every engine calls the same
 * tool, which returns its `n` after checking that it got a number below `n` for each call it
 * depends on (a call run before its inputs were there would get none). Every run is checked:
 * the tool ran once per call, and every call's result is in the engine's output. The runs
 * alternate between the engines; the times are medians. One child process per row, so that
 * one row's garbage does not land in the next.
 *
 * Each run's CPU time (user + system, all of the process's threads) is measured with its wall
 * time, and the ratios are of CPU time: every engine here only computes (the tools resolve at
 * once, nothing waits on a timer or I/O), so on a quiet machine the two agree, while on a
 * shared one wall time also counts the time other processes had the cores.
 *
 * LangGraph runs the 1k plans only: its cost grows with nodes x running nodes (each node's
 * write walks every channel of the graph, two per node), so 10k would take minutes a run (on
 * the shared 2-core machine, 2k and 4k fan-out calls took 9 s and 30 s).
 *
 *     npm run bench:peers
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type CompiledPlan, compile } from '../src/compile/index.js';
import { run } from '../src/run/index.js';
import { type Tool, ToolRegistry } from '../src/tools/index.js';
import { runChildCase } from './child-case.js';
import { nodeId, prepareGraphAI, toAgents, toGraphData } from './graphai-graph.js';
import { stateKey, toLangGraph } from './langgraph-graph.js';
import { benchTools, generatePlan, SHAPES, type Shape } from './plans.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';

const SIZES = [1_000, 10_000];
/** LangGraph's largest plan (see above). */
const LANGGRAPH_MAX_CALLS = 1_000;
const REPEATS = 5;

type Args = Record<string, unknown>;

/** Medians of one engine's runs. */
interface Times {
  wallMs: number;
  cpuMs: number;
}

interface PeerResult {
  shape: Shape;
  calls: number;
  edges: number;
  planmode: Times;
  graphai: Times;
  /** null when LangGraph did not run this size. */
  langgraph: Times | null;
}

class WrongResult extends Error {
  override readonly name = 'WrongResult';
}

/** The no-op tool, counting its runs. */
function countingStep(): { step: (args: Args) => Promise<unknown>; takeCount: () => number } {
  let ran = 0;
  const step = async (args: Args) => {
    const n = args.n as number;
    for (const key in args) {
      const value = args[key];
      if (key !== 'n' && !(typeof value === 'number' && value < n)) {
        throw new WrongResult(`call ${n} got ${String(value)} for ${key}`);
      }
    }
    ran++;
    return n;
  };
  const takeCount = () => {
    const count = ran;
    ran = 0;
    return count;
  };
  return { step, takeCount };
}

function compiled(shape: Shape, n: number, tools: ToolRegistry): CompiledPlan {
  const result = compile(generatePlan(shape, n), { tools });
  if (!result.ok) throw new Error(`bench plan did not compile: ${result.diagnostics[0]?.message}`);
  return result.plan!;
}

/**
 * One engine: `prepare` builds what one run needs (not timed), `run` runs the plan once and
 * resolves to a lookup of call i's result.
 */
interface Engine {
  readonly name: string;
  prepare(): () => Promise<(index: number) => unknown>;
}

async function timedRun(engine: Engine, plan: CompiledPlan, takeCount: () => number): Promise<Times> {
  const runOnce = engine.prepare();
  globalThis.gc?.();
  takeCount();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const result = await runOnce();
  const cpu = process.cpuUsage(cpuStart);
  const wallMs = performance.now() - start;
  const ran = takeCount();
  if (ran !== plan.calls.length) {
    throw new WrongResult(`${engine.name}: ${ran} tool runs for ${plan.calls.length} calls`);
  }
  for (const call of plan.calls) {
    if (result(call.index) !== call.args.n) {
      throw new WrongResult(`${engine.name}: call ${call.id} has a wrong result`);
    }
  }
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** In a child process: one shape and size on every engine, alternating. */
async function peerCase(shape: Shape, n: number): Promise<PeerResult> {
  // LangGraph listens on one AbortSignal per running node, so up to n listeners on one signal,
  // which Node would report as a leak.
  EventEmitter.defaultMaxListeners = n + 16;
  const { step, takeCount } = countingStep();
  const tools = new ToolRegistry(benchTools.map((t): Tool<Args> => ({ ...t, execute: step })));
  const plan = compiled(shape, n, tools);
  // GraphAI takes a whole number: as many as there are calls is no bound either.
  const graph = toGraphData(plan, n);
  const agents = toAgents(new Map([['step', step]]));

  const engines: Engine[] = [
    {
      name: 'planmode',
      prepare: () => async () => {
        const result = await run(plan, { tools, concurrency: Number.POSITIVE_INFINITY });
        if (result.status !== 'succeeded') throw new WrongResult(`planmode run ended ${result.status}`);
        return (i) => result.state[`v${i}`];
      },
    },
    {
      name: 'GraphAI',
      prepare: () => {
        const runGraph = prepareGraphAI(graph, agents);
        return async () => {
          const results = await runGraph();
          return (i) => results[nodeId(i)];
        };
      },
    },
  ];
  if (n <= LANGGRAPH_MAX_CALLS) {
    const langgraph = toLangGraph(plan, { step });
    engines.push({
      name: 'LangGraph',
      prepare: () => async () => {
        const state = await langgraph.run();
        return (i) => state[stateKey(i)];
      },
    });
  }

  const runs = new Map<string, Times[]>(engines.map((e) => [e.name, []]));
  for (const engine of engines) await timedRun(engine, plan, takeCount); // warm-up
  for (let r = 0; r < REPEATS; r++) {
    for (const engine of engines) runs.get(engine.name)!.push(await timedRun(engine, plan, takeCount));
  }
  const medians = (name: string): Times | null => {
    const times = runs.get(name);
    if (times === undefined) return null;
    return { wallMs: median(times.map((t) => t.wallMs)), cpuMs: median(times.map((t) => t.cpuMs)) };
  };
  return {
    shape,
    calls: n,
    edges: plan.edgeCount,
    planmode: medians('planmode')!,
    graphai: medians('GraphAI')!,
    langgraph: medians('LangGraph'),
  };
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
const count = (n: number) => n.toLocaleString('en-US');

function printResults(results: readonly PeerResult[]): void {
  console.log(
    `no-op async tools, each plan compiled once and each engine's graph built before its run (not timed), ` +
      `no concurrency bound on any engine; ` +
      `median of ${REPEATS} runs after a warm-up, engines alternating, every run checked; ratios of CPU time; ` +
      `one child process per row; LangGraph at ${count(LANGGRAPH_MAX_CALLS)} calls only\n`,
  );
  printTable(
    [
      'shape',
      'calls',
      'edges',
      'planmode ms',
      'planmode CPU ms',
      'GraphAI ms',
      'GraphAI CPU ms',
      'GraphAI/planmode CPU',
      'LangGraph ms',
      'LangGraph CPU ms',
      'LangGraph/planmode CPU',
    ],
    results.map((r) => [
      r.shape,
      count(r.calls),
      count(r.edges),
      ms(r.planmode.wallMs),
      ms(r.planmode.cpuMs),
      ms(r.graphai.wallMs),
      ms(r.graphai.cpuMs),
      ratio(r.graphai.cpuMs, r.planmode.cpuMs),
      r.langgraph === null ? 'not run' : ms(r.langgraph.wallMs),
      r.langgraph === null ? '' : ms(r.langgraph.cpuMs),
      r.langgraph === null ? '' : ratio(r.langgraph.cpuMs, r.planmode.cpuMs),
    ]),
  );
}

async function main(): Promise<void> {
  const [flag, shape, size] = process.argv.slice(2);
  if (flag === '--case') {
    console.log(JSON.stringify(await peerCase(shape as Shape, Number(size))));
    return;
  }
  if (flag !== undefined) throw new TypeError(`Expected no argument, got ${flag}`);
  console.log(`bench/peers: node ${process.version}, ${peerVersions()}, load average ${load()}\n`);
  const self = fileURLToPath(import.meta.url);
  const results: PeerResult[] = [];
  for (const n of SIZES) {
    for (const s of SHAPES) {
      results.push(runChildCase<PeerResult>({ script: self, shape: s, size: n, nodeFlags: ['--expose-gc'] }));
    }
  }
  printResults(results);
  console.log(`\nload average at the end: ${load()}`);
}

/** The machine's 1, 5 and 15 minute load averages: how busy other work kept it. */
function load(): string {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/** The installed versions of the peers, read from their package.json. */
function peerVersions(): string {
  const require = createRequire(import.meta.url);
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  return `GraphAI ${version('graphai')}, LangGraph.js ${version('@langchain/langgraph')}`;
}

await main();
