/**
 * Ordering: the topological order of the bound graph, its cycles named whole, and the order
 * that is not data: effects in program order and `_after`, with the gates the executor asks.
 */
export { afterOf, AfterOrder } from './after.js';
export { findCycles } from './cycles.js';
export { EffectOrder, optsOut, type OrderEdgeSink } from './effect-order.js';
export { GATE_AFTER, GATE_EFFECT, type GateKind, NO_GATES, OrderGates } from './order-gates.js';
export { type DependencyLists, dependencyLists, orderCalls, type Ordering } from './order.js';
