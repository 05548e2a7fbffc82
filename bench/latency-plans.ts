/**
 * bench/latency-plans: a NesTools gold plan made ready to be played by the loopback model: the
 * text of each call as planmode writes it, the solution reply they make, the concrete arguments
 * a model calling tools natively would write (the gold plan run once against the mocks, without
 * latency: the mocks answer from (seed, tool, arguments), so these are the very values every
 * method's calls will see), each call's seeded latency, and the plan's dependency levels.
 */
import { compile } from '../src/compile/index.js';
import { type ImportedSample, type MockLatency, mockLatencyMs, mockTools } from '../src/import/index.js';
import type { JsonObject } from '../src/language/document.js';
import { canonicalJson } from '../src/run/journal/index.js';
import { run } from '../src/run/index.js';
import { ToolRegistry } from '../src/tools/index.js';
import { type BoundCall, levelsOf } from './latency-timeline.js';

/** One call of a played plan. */
export interface PlayedCall {
  readonly tool: string;
  /** The call in planmode's syntax, as it appears in the solution. */
  readonly text: string;
  /** The arguments it runs with, resolved: what a model calling the tool natively writes. */
  readonly args: JsonObject;
  readonly latencyMs: number;
  /** Indices of the calls it waits for. */
  readonly after: readonly number[];
  /** Character position just past its text in {@link PlayedPlan.solution}. */
  readonly closesAt: number;
}

/** A gold plan, ready for every method. */
export interface PlayedPlan {
  readonly id: string;
  readonly task: string;
  readonly sample: ImportedSample;
  readonly calls: readonly PlayedCall[];
  /** A topological order of the calls (the compiled plan's). */
  readonly order: readonly number[];
  /** Parallel function calling's turns: the calls of each dependency level. */
  readonly levels: readonly (readonly number[])[];
  /** The first reply of planmode: `{"calls":[...],"output":null}`. */
  readonly solution: string;
}

/** A plan that could not be prepared, and why. */
export interface Unplayable {
  readonly id: string;
  readonly reason: string;
}

/** The final answer every method's last turn writes (its length is the final turn's cost). */
export const FINAL_SOLUTION = '{"calls":[],"output":"done"}';

export interface PlayOptions {
  readonly seed: number;
  readonly latency: MockLatency;
}

/**
 * `sample` compiled against its mocks and run once without latency (the values), its calls'
 * texts laid out in the solution, and their latencies drawn as the mocks will draw them.
 */
export async function preparePlan(
  sample: ImportedSample,
  options: PlayOptions,
): Promise<PlayedPlan | Unplayable> {
  const tools = new ToolRegistry(mockTools(sample.tools, { seed: options.seed }));
  const compiled = compile(sample.plan, { tools });
  if (!compiled.ok || !compiled.plan) {
    const first = compiled.diagnostics.find((d) => d.severity === 'error') ?? compiled.diagnostics[0];
    return { id: sample.id, reason: `does not compile: ${first?.code}: ${first?.message}` };
  }
  const plan = compiled.plan;
  const result = await run(plan, { tools, approve: () => true });
  const failed = result.calls.find((call) => call.status !== 'succeeded' || call.args === undefined);
  if (result.status !== 'succeeded' || failed)
    return {
      id: sample.id,
      reason: `the gold run ended ${result.status} (${failed?.id}: ${failed?.status})`,
    };
  const written = (sample.plan.find((m) => (m as { type?: string }).type === 'plan') as { plan: unknown[] })
    .plan;
  const texts = written.map((call) => JSON.stringify(call));
  const head = '{"calls":[';
  let at = head.length;
  const closes = texts.map((text, i) => (at += text.length + (i > 0 ? 1 : 0)));
  const solution = `${head}${texts.join(',')}],"output":null}`;
  // The mocks count each (tool, arguments) per set of mocks, in the order calls start: the
  // compiled order is the order the run started them in.
  const nth = new Map<string, number>();
  const latencies = new Array<number>(plan.calls.length).fill(0);
  for (const i of plan.order) {
    const call = result.calls[i]!;
    const args = canonicalJson(call.args!);
    const key = `${call.tool}\n${args}`;
    const n = (nth.get(key) ?? 0) + 1;
    nth.set(key, n);
    latencies[i] = mockLatencyMs({
      seed: options.seed,
      tool: call.tool,
      args,
      nth: n,
      latency: options.latency,
    });
  }
  const after = plan.calls.map((call) => [...new Set(call.dependencies.map((d) => d.from))]);
  const calls = plan.calls.map((call, i): PlayedCall => ({
    tool: call.tool,
    text: texts[i]!,
    args: result.calls[i]!.args!,
    latencyMs: latencies[i]!,
    after: after[i]!,
    closesAt: closes[i]!,
  }));
  return {
    id: sample.id,
    task: sample.task ?? '',
    sample,
    calls,
    order: plan.order,
    levels: levelsOf(after, plan.order),
    solution,
  };
}

/** The calls as the bound reads them. */
export function boundCalls(plan: PlayedPlan): BoundCall[] {
  return plan.calls.map(({ closesAt, after, latencyMs }) => ({ closesAt, after, latencyMs }));
}

/**
 * `count` of `pool`, drawn without replacement by a seeded shuffle (mulberry32), in corpus order;
 * all of them when `count` is at least the pool's size.
 */
export function sampleOf<T>(pool: readonly T[], count: number, seed: number): T[] {
  if (count >= pool.length) return [...pool];
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const indices = pool.map((_, i) => i);
  for (let i = indices.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [indices[i], indices[j]] = [indices[j]!, indices[i]!];
  }
  return indices
    .slice(0, count)
    .sort((a, b) => a - b)
    .map((i) => pool[i]!);
}
