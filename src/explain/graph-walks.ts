/**
 * The walks `explainCall` makes over the plan's graphlib Graph, none of them recursive.
 *
 * graphlib 4's `alg.topsort`, `alg.preorder`/`postorder`, `alg.components` and `alg.tarjan`
 * recurse once per call along a path, so a chain of some ten thousand calls overflows the stack.
 * What they answer is had here without that: descendants and ancestors by `alg.dijkstra` (a
 * binary heap, no recursion), the longest chains by relaxation along the compiler's topological
 * order (graphlib has no longest path; `plan.order` is the topological order `alg.topsort`
 * would give, already made), and the weakly connected components by `alg.components` on a graph
 * small enough for its recursion, else by the same search over `neighbors` with a stack.
 */
import { alg, type Graph } from '@dagrejs/graphlib';
import type { CompiledPlan } from '../compile/types.js';
import type { PlanGraph } from './plan-graph.js';

/** Most calls a graph may have for graphlib's recursive `alg.components` to be used on it. */
export const RECURSIVE_COMPONENTS_LIMIT = 1_000;

/** Per call, the number of calls in the longest chain ending at it, and its previous call there. */
export interface LongestChains {
  /** `length[i]`: calls in the longest chain ending at call i (1 for a call without dependencies). */
  readonly length: Int32Array;
  /** `previous[i]`: the call before i on that chain, or -1. */
  readonly previous: Int32Array;
}

/**
 * The longest chain ending at every call, in one pass: each call, in topological order, takes
 * the longest chain among its predecessors' plus one (ties: the predecessor first in the plan).
 */
export function longestChains(plan: CompiledPlan, graph: PlanGraph): LongestChains {
  const n = plan.calls.length;
  const length = new Int32Array(n);
  const previous = new Int32Array(n).fill(-1);
  for (const i of plan.order) {
    let best = 0;
    let from = -1;
    for (const name of graph.predecessors(String(i)) ?? []) {
      const p = Number(name);
      const l = length[p]!;
      if (l > best || (l === best && p < from)) {
        best = l;
        from = p;
      }
    }
    length[i] = best + 1;
    previous[i] = from;
  }
  return { length, previous };
}

/**
 * The calls reachable from call `from` (out-edges: its descendants; in-edges: its ancestors),
 * without it, in plan order, by graphlib's Dijkstra.
 */
export function reachable(graph: PlanGraph, from: number, direction: 'down' | 'up'): number[] {
  const id = String(from);
  const edges =
    direction === 'down' ? (v: string) => graph.outEdges(v) ?? [] : (v: string) => graph.inEdges(v) ?? [];
  const distances = alg.dijkstra(graph as unknown as Graph, id, undefined, edges);
  const found: number[] = [];
  for (const [node, entry] of Object.entries(distances)) {
    if (node !== id && entry.distance !== Number.POSITIVE_INFINITY) found.push(Number(node));
  }
  return found.sort((a, b) => a - b);
}

/** The weakly connected components: `of[i]` is call i's, and `members` each one's calls in plan order. */
export interface Components {
  readonly of: Int32Array;
  /** Ordered by their first call. */
  readonly members: readonly (readonly number[])[];
}

export function weakComponents(plan: CompiledPlan, graph: PlanGraph): Components {
  const lists =
    plan.calls.length <= RECURSIVE_COMPONENTS_LIMIT
      ? alg.components(graph as unknown as Graph)
      : componentsWithStack(graph);
  const members = lists.map((names) => names.map(Number).sort((a, b) => a - b)).sort((a, b) => a[0]! - b[0]!);
  const of = new Int32Array(plan.calls.length);
  members.forEach((calls, k) => {
    for (const i of calls) of[i] = k;
  });
  return { of, members };
}

/** `alg.components`'s search, over `neighbors`, with a stack of its own instead of recursion. */
export function componentsWithStack(graph: PlanGraph): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const start of graph.nodes()) {
    if (seen.has(start)) continue;
    seen.add(start);
    const component: string[] = [];
    const stack = [start];
    while (stack.length > 0) {
      const v = stack.pop()!;
      component.push(v);
      for (const w of graph.neighbors(v) ?? []) {
        if (seen.has(w)) continue;
        seen.add(w);
        stack.push(w);
      }
    }
    out.push(component);
  }
  return out;
}
