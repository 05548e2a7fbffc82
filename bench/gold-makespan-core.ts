/**
 * bench/gold-makespan-core: one imported gold plan, run twice against the same seeded mock tools
 * (`mockTools`, each call waiting a latency drawn from its seed, tool, arguments and occurrence):
 * by planmode's `run`, which starts every call whose inputs are there, and by a one-call-at-a-time
 * loop (the same `run` with `concurrency: 1`, so both pay the same executor costs and differ only
 * in what runs at once). What each call drew is read from the mocks' own draw (`mockLatencyMs`),
 * so the critical path is weighted by the latencies of that very run.
 */
import { type CompiledPlan, compile } from '../src/compile/index.js';
import { type ImportedSample, type MockLatency, mockLatencyMs, mockTools } from '../src/import/index.js';
import { canonicalJson } from '../src/run/journal/index.js';
import { run } from '../src/run/index.js';
import { widestLevel } from '../src/simulate/critical-path.js';
import { type Tool, type ToolContext, ToolRegistry } from '../src/tools/index.js';

/** What the mocks of one measurement are made with. */
export interface GoldRunOptions {
  /** The mocks' seed: their answers and their latencies. */
  readonly seed: number;
  /** The range each call's latency is drawn from. */
  readonly latency: MockLatency;
}

/** One run of a plan, timed. */
export interface TimedRun {
  /** Wall time of `run`, from the call to its result, in ms. */
  readonly makespanMs: number;
  /** Per call (by index), the latency its mock drew, in ms; 0 for a call whose tool was not called. */
  readonly drawnMs: readonly number[];
  /** Per call, how long its tool took as measured around it (the drawn wait plus timer lateness), in ms. */
  readonly measuredMs: readonly number[];
}

/** A plan that compiled and ran to the end in both loops. */
export interface GoldMeasure {
  readonly ok: true;
  readonly id: string;
  readonly calls: number;
  /** Calls in the plan's widest dependency level: the most it can run at once. */
  readonly widest: number;
  /** Dependency levels: the longest chain, counted in calls. */
  readonly depth: number;
  readonly planmode: TimedRun;
  readonly sequential: TimedRun;
  /** The longest path through the compiled graph, each call weighted by its drawn latency in the planmode run. */
  readonly criticalPathMs: number;
}

/** A plan left out of the figures, and why. */
export interface GoldFailure {
  readonly ok: false;
  readonly id: string;
  readonly stage: 'compile' | 'run';
  readonly reason: string;
}

export type GoldOutcome = GoldMeasure | GoldFailure;

/** A compiled plan with the registries of its two runs, ready to be measured. */
export interface PreparedGoldPlan {
  readonly ok: true;
  readonly id: string;
  /** Runs the plan both ways at once. */
  readonly measure: () => Promise<GoldOutcome>;
}

/**
 * Compiles `sample`'s plan against its mocks and makes the two runs' registries: each run gets
 * its own mocks (so every call's occurrence count starts at 1) in a `ToolRegistry` built before
 * its timer starts, as an application registers its tools once. Building a registry compiles
 * the tools' schemas (tens of ms): setup, not the plan's run, and CPU work that would delay the
 * timers of any plan running meanwhile, so the bench prepares a batch before running it.
 */
export function prepareGoldPlan(
  sample: ImportedSample,
  options: GoldRunOptions,
): PreparedGoldPlan | GoldFailure {
  const planmodeRun = recordedRun(sample, options);
  const sequentialRun = recordedRun(sample, options);
  const compiled = compile(sample.plan, { tools: planmodeRun.tools });
  if (!compiled.ok || !compiled.plan) {
    const first = compiled.diagnostics.find((d) => d.severity === 'error') ?? compiled.diagnostics[0];
    return { ok: false, id: sample.id, stage: 'compile', reason: `${first?.code}: ${first?.message}` };
  }
  const plan = compiled.plan;
  const measure = async (): Promise<GoldOutcome> => {
    const [planmode, sequential] = await Promise.all([
      planmodeRun.timed(plan, undefined),
      sequentialRun.timed(plan, 1),
    ]);
    if (typeof planmode === 'string') return { ok: false, id: sample.id, stage: 'run', reason: planmode };
    if (typeof sequential === 'string') return { ok: false, id: sample.id, stage: 'run', reason: sequential };
    const { depth, widest } = levelsOf(plan);
    return {
      ok: true,
      id: sample.id,
      calls: plan.calls.length,
      widest,
      depth,
      planmode,
      sequential,
      criticalPathMs: criticalPathMs(plan, planmode.drawnMs),
    };
  };
  return { ok: true, id: sample.id, measure };
}

/** {@link prepareGoldPlan}, then its measure. */
export async function measureGoldPlan(sample: ImportedSample, options: GoldRunOptions): Promise<GoldOutcome> {
  const prepared = prepareGoldPlan(sample, options);
  return prepared.ok ? prepared.measure() : prepared;
}

/** Fresh mocks in their registry, and a timed run of a plan with them. */
function recordedRun(sample: ImportedSample, options: GoldRunOptions) {
  let drawnMs: number[] = [];
  let measuredMs: number[] = [];
  let indexOf = new Map<string, number>();
  const tools = new ToolRegistry(
    drawnLatencies(mockTools(sample.tools, options), options, (call, drawn, measured) => {
      drawnMs[indexOf.get(call)!] = drawn;
      measuredMs[indexOf.get(call)!] = measured;
    }),
  );
  /**
   * One `run` of `plan`, or why it failed. `concurrency` undefined is run's default (16: more
   * than any gold plan's widest level).
   */
  const timed = async (plan: CompiledPlan, concurrency: number | undefined): Promise<TimedRun | string> => {
    indexOf = new Map(plan.calls.map((call) => [call.id, call.index]));
    drawnMs = new Array<number>(plan.calls.length).fill(0);
    measuredMs = new Array<number>(plan.calls.length).fill(0);
    const start = performance.now();
    const result = await run(plan, { tools, concurrency, approve: () => true });
    const makespanMs = performance.now() - start;
    const bad = result.calls.find((call) => call.status !== 'succeeded');
    if (result.status !== 'succeeded' || bad) {
      const why = bad ? `call ${bad.id} (${bad.tool}) ended ${bad.status}: ${bad.error?.message}` : '';
      return `the run (concurrency ${concurrency ?? 'default'}) ended ${result.status}; ${why}`;
    }
    return { makespanMs, drawnMs, measuredMs };
  };
  return { tools, timed };
}

/**
 * The mocks, each call reporting the latency its mock drew and how long it took. The draw is
 * the mock's own (`mockLatencyMs` of seed, tool, canonical arguments and occurrence), the
 * occurrence counted here exactly as the mock counts it: per tool and argument text, at the
 * moment its `execute` is called (this wrapper calls it at once).
 */
export function drawnLatencies(
  tools: readonly Tool[],
  options: GoldRunOptions,
  report: (call: string, drawnMs: number, measuredMs: number) => void,
): Tool[] {
  return tools.map((tool) => {
    const execute = tool.execute!;
    const occurrences = new Map<string, number>();
    return {
      ...tool,
      execute: async (args: Record<string, unknown>, context: ToolContext) => {
        const text = canonicalJson(args);
        const nth = (occurrences.get(text) ?? 0) + 1;
        occurrences.set(text, nth);
        const drawn = mockLatencyMs({
          seed: options.seed,
          tool: tool.name,
          args: text,
          nth,
          latency: options.latency,
        });
        const start = performance.now();
        try {
          return await execute(args, context);
        } finally {
          report(context.toolCallId, drawn, performance.now() - start);
        }
      },
    };
  });
}

/**
 * The heaviest chain of dependent calls, each weighted by `weights[index]`, over every edge of
 * the compiled plan (data and order alike): one pass over its topological order.
 */
export function criticalPathMs(plan: CompiledPlan, weights: readonly number[]): number {
  const finish = new Float64Array(plan.calls.length);
  let longest = 0;
  for (const i of plan.order) {
    let start = 0;
    for (const dependency of plan.calls[i]!.dependencies) start = Math.max(start, finish[dependency.from]!);
    finish[i] = start + weights[i]!;
    longest = Math.max(longest, finish[i]!);
  }
  return longest;
}

/** The plan's dependency levels: how many (its longest chain in calls) and the widest one's size. */
export function levelsOf(plan: CompiledPlan): { depth: number; widest: number } {
  const level = new Int32Array(plan.calls.length);
  let depth = 0;
  for (const i of plan.order) {
    for (const dependency of plan.calls[i]!.dependencies)
      level[i] = Math.max(level[i]!, level[dependency.from]! + 1);
    depth = Math.max(depth, level[i]! + 1);
  }
  // The dry run's own widest level (every call runs: the gold plans have no branches).
  const widest = widestLevel(plan, new Uint8Array(plan.calls.length).fill(1)).calls.length;
  return { depth: plan.calls.length === 0 ? 0 : depth, widest };
}
