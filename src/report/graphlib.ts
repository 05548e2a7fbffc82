/**
 * The compiled graph as a `@dagrejs/graphlib` Graph, for its algorithms (paths, components).
 *
 * Built on demand: the compiler keeps the graph in flat arrays because building a graphlib
 * Graph costs seconds and hundreds of megabytes at 100k calls. Call this when you need it.
 */
import { Graph } from '@dagrejs/graphlib';
import type { CompiledPlan, DependencyKind, OrderReason } from '../compile/types.js';

/** A node's value: the call's id, its tool and its 0-based position in the plan. */
export interface GraphlibNode {
  readonly id: string;
  readonly tool: string;
  readonly index: number;
}

/** An edge's value: data (a read bound to a write) or order, and the state path behind it. */
export interface GraphlibEdge {
  readonly kind: DependencyKind;
  /** `''` for an edge of program order. */
  readonly path: string;
  /** Why an order edge no state path makes is there (program order); absent otherwise. */
  readonly reason?: OrderReason;
}

/**
 * A directed graph with one node per call and one edge from each dependency to its dependent
 * call. Nodes are named by the call's index as a string (`"0"`, `"1"`, …), its id in the node's
 * value: graphlib keeps nodes and edges in plain objects, and a plan's ids are the model's
 * words, so an id such as `__proto__` used as a name would reach Object.prototype (graphlib
 * would write its adjacency there, into every object of the process). An index never does.
 */
export function toGraphlib(plan: CompiledPlan): Graph<undefined, GraphlibNode, GraphlibEdge> {
  const graph = new Graph<undefined, GraphlibNode, GraphlibEdge>({ directed: true });
  for (const call of plan.calls)
    graph.setNode(String(call.index), { id: call.id, tool: call.tool, index: call.index });
  for (const call of plan.calls) {
    for (const d of call.dependencies)
      graph.setEdge(String(d.from), String(call.index), {
        kind: d.kind,
        path: d.path,
        ...(d.reason !== undefined && { reason: d.reason }),
      });
  }
  return graph;
}
