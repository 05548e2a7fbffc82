/**
 * A peer engine of bench/run and bench/peers: the same compiled plan as a GraphAI graph. Call i
 * becomes the computed node `c<i>` whose agent is the tool's name, whose `params` are the call's
 * literal arguments and whose `inputs` name every call it depends on (`:c<from>`), so GraphAI
 * sees exactly the edges planmode schedules by.
 */
import {
  type AgentFunction,
  type AgentFunctionInfoDictionary,
  agentInfoWrapper,
  type ComputedNodeData,
  GraphAI,
  type GraphData,
} from 'graphai';
import type { CompiledPlan } from '../src/compile/index.js';

export function nodeId(index: number): string {
  return `c${index}`;
}

export function toGraphData(plan: CompiledPlan, concurrency: number): GraphData {
  const nodes: Record<string, ComputedNodeData> = {};
  for (const call of plan.calls) {
    const params: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(call.args)) {
      if (!call.refs.some((ref) => ref.at === `/${name}`)) params[name] = value;
    }
    const from = [...new Set(call.dependencies.map((dep) => dep.from))];
    nodes[nodeId(call.index)] = {
      agent: call.tool,
      params,
      inputs: Object.fromEntries(from.map((f) => [nodeId(f), `:${nodeId(f)}`])),
      isResult: true,
    };
  }
  return { version: 0.5, nodes, concurrency };
}

/**
 * Agents that call `execute` with the node's params (the call's literal arguments) and its
 * inputs (the results of the calls it depends on, keyed `c<from>`).
 */
export function toAgents(
  tools: ReadonlyMap<string, (args: Record<string, unknown>) => unknown>,
): AgentFunctionInfoDictionary {
  const agents: AgentFunctionInfoDictionary = {};
  for (const [name, execute] of tools) {
    const agent: AgentFunction = async ({ params, namedInputs }) =>
      (await execute({ ...namedInputs, ...params })) as never;
    agents[name] = agentInfoWrapper(agent);
  }
  return agents;
}

/**
 * Builds a GraphAI instance now (GraphAI checks the graph, including for cycles, as it is
 * built) and returns its one run, which resolves to every node's result.
 */
export function prepareGraphAI(
  graph: GraphData,
  agents: AgentFunctionInfoDictionary,
): () => Promise<Record<string, unknown>> {
  const graphai = new GraphAI(graph, agents);
  return () => graphai.run(true);
}

/** Runs the graph; resolves to every node's result. */
export function runGraphAI(
  graph: GraphData,
  agents: AgentFunctionInfoDictionary,
): Promise<Record<string, unknown>> {
  return prepareGraphAI(graph, agents)();
}
