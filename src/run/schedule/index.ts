/**
 * Which call may start when: the successors each end releases, the data-flow and order edges
 * wired from the compiled plan, the gates that hold side effects in program order, and the
 * concurrency slots.
 */
export { CallSlots, dispatchGroupOf } from './call-slots.js';
export { endIfGated } from './order-gates.js';
export { planWiring } from './plan-wiring.js';
export { Successors } from './successors.js';
