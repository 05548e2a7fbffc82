/**
 * The Runner: one run from its start event to its result, and a plan that arrives while the
 * model still writes it (streamedPlan). Its parts (setup, lifecycle, approval of calls, earlier
 * results, the result) each declare the narrow host they need, which the Runner satisfies.
 */
export { Runner } from './runner.js';
export { streamedPlan } from './streamed-plan.js';
export {
  askWithEdits,
  compileEdit,
  type EditedPlan,
  editedCalls,
  type EditLoopOptions,
  type PlanVerdict,
} from './plan-edit.js';
