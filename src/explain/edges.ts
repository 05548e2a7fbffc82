/**
 * Why one call waits for another: every dependency the compile recorded between them, and the
 * program-order gate between them when the compile did not make it an edge of its own (a data
 * edge between the same calls is made once, but the gate still holds: see order-gates.ts).
 */
import { GATE_AFTER, type OrderGates } from '../compile/order/index.js';
import type { CompiledPlan } from '../compile/types.js';
import type { ExplainEdge } from './types.js';

export function edgesBetween(
  plan: CompiledPlan,
  gates: OrderGates | undefined,
  from: number,
  to: number,
): ExplainEdge[] {
  const edges: ExplainEdge[] = [];
  for (const d of plan.calls[to]!.dependencies) {
    if (d.from !== from) continue;
    edges.push({ kind: d.kind, path: d.path, ...(d.reason !== undefined && { reason: d.reason }) });
  }
  const gate = gates ? gates.kindBetween(to, from) : -1;
  if (gate !== -1) {
    const reason = gate === GATE_AFTER ? 'after' : 'effect';
    if (!edges.some((e) => e.reason === reason)) edges.push({ kind: 'order', path: '', reason });
  }
  return edges;
}

/** An edge as one line of text: `†state.x`, `order †state.x`, `_after`, `effect order`. */
export function edgeText(edge: ExplainEdge): string {
  if (edge.reason === 'after') return '_after';
  if (edge.reason === 'effect') return 'effect order';
  return edge.kind === 'data' ? edge.path : `order ${edge.path}`;
}
