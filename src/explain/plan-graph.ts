/**
 * The compiled plan as a graphlib Graph whose nodes are named by the calls' indices ("0", "1",
 * …), each labelled with its call's id and tool, and an edge per pair of dependent calls.
 *
 * Not named by call id as `toGraphlib` (planmode/report) names them: graphlib keeps its nodes
 * and adjacency in plain objects, so an id such as `constructor`, `toString` or `__proto__`
 * (valid ids in a plan) meets Object.prototype's own and breaks the Graph. An index never does.
 */
import { Graph } from '@dagrejs/graphlib';
import type { CompiledPlan, Dependency } from '../compile/types.js';

export interface IndexNode {
  readonly id: string;
  readonly tool: string;
}

export type PlanGraph = Graph<undefined, IndexNode, undefined>;

export function planGraph(plan: CompiledPlan): PlanGraph {
  const graph: PlanGraph = new Graph({ directed: true });
  plan.calls.forEach((call, i) => graph.setNode(String(i), { id: call.id, tool: call.tool }));
  plan.calls.forEach((call, i) => {
    const to = String(i);
    call.dependencies.forEach((d: Dependency) => graph.setEdge(String(d.from), to));
  });
  return graph;
}
