/**
 * The second peer engine of bench/peers: the same compiled plan as a LangGraph.js StateGraph.
 * Call i becomes node `c<i>`, which writes its own state key `v<i>` (as the call writes
 * `†state.v<i>`) and reads, through the node's `input` schema, only the keys of the calls it
 * depends on: reading the whole state costs every node a pass over every key, which made
 * LangGraph 2-3x slower still. The node's edges are its dependencies: `addEdge(from, c<i>)` for
 * one, `addEdge([from, ...], c<i>)` for several (LangGraph then waits for all of them), START
 * for none, and END after every call nothing depends on.
 */
import { Annotation, END, type LastValue, START, StateGraph } from '@langchain/langgraph';
import type { CompiledPlan } from '../src/compile/index.js';

type Step = (args: Record<string, unknown>) => Promise<unknown>;

export function stateKey(index: number): string {
  return `v${index}`;
}

function nodeName(index: number): string {
  return `c${index}`;
}

function keys(indices: readonly number[]): Record<string, LastValue<unknown>> {
  return Object.fromEntries(indices.map((i) => [stateKey(i), Annotation<unknown>()]));
}

export interface LangGraphOptions {
  /** Runs a call: gets `n` and the values of the calls it depends on (keyed `v<from>`). */
  readonly step: Step;
  /**
   * LangGraph's `maxConcurrency`: at most this many nodes of one super-step run at once.
   * @default no bound (every node of a super-step at once)
   */
  readonly concurrency?: number;
}

export interface LangGraphRunner {
  /** Runs the graph once; resolves to the final state (`v<i>` is call i's result). */
  run(): Promise<Record<string, unknown>>;
}

export function toLangGraph(plan: CompiledPlan, options: LangGraphOptions): LangGraphRunner {
  const { step, concurrency } = options;
  const State = Annotation.Root(keys(plan.calls.map((call) => call.index)));
  type Action = (input: Record<string, unknown>) => Promise<Record<string, unknown>>;
  const nodes: [string, Action, { input: ReturnType<typeof Annotation.Root> }][] = [];
  const dependsOn: number[][] = [];
  for (const call of plan.calls) {
    const from = [...new Set(call.dependencies.map((dep) => dep.from))];
    const n = call.args.n;
    const own = stateKey(call.index);
    dependsOn[call.index] = from;
    nodes.push([
      nodeName(call.index),
      async (input) => ({ [own]: await step({ ...input, n }) }),
      { input: Annotation.Root(keys(from)) },
    ]);
  }
  // Added as one list, so that addEdge takes any node name (a string) without casts.
  const graph = new StateGraph(State).addNode(nodes);
  const hasSuccessor = new Uint8Array(plan.calls.length);
  dependsOn.forEach((from, index) => {
    for (const f of from) hasSuccessor[f] = 1;
    if (from.length === 0) graph.addEdge(START, nodeName(index));
    else if (from.length === 1) graph.addEdge(nodeName(from[0]!), nodeName(index));
    else graph.addEdge(from.map(nodeName), nodeName(index));
  });
  hasSuccessor.forEach((has, index) => {
    if (!has) graph.addEdge(nodeName(index), END);
  });
  const app = graph.compile();
  // Every super-step counts against LangGraph's recursion limit (25 by default); a chain of n
  // calls takes n steps.
  const config = {
    recursionLimit: plan.calls.length + 2,
    ...(concurrency === undefined ? {} : { maxConcurrency: concurrency }),
  };
  return { run: () => app.invoke({}, config) as Promise<Record<string, unknown>> };
}
