/**
 * Judging a journal's records of elements and sub-calls against the plan about to reuse them,
 * before anything runs: the path must lead through the plan, an element index must follow a
 * `_forEach` call, a sub-call must be a call of the sub-plan of its workflow call, and a
 * sub-call's record must be one a run of that sub-plan writes (planRecordCheck, as for the
 * plan's own calls). The walk is along the path, bounded by its length (journal-parts).
 */
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import { showValue } from '../../tools/safe-describe.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { type PartRecord, planRecordCheck } from '../journal/index.js';
import { workflowPlanOf } from '../../compile/workflow-plans.js';

type RecordCheck = ReturnType<typeof planRecordCheck>;

export function partCheck(plan: CompiledPlan, tools: ToolRegistry): (part: PartRecord) => string | undefined {
  const checks = new Map<CompiledPlan, RecordCheck>();
  return (part) => {
    const { path } = part;
    let current: CompiledPlan = plan;
    let where = 'this plan';
    let call: CompiledCall | undefined;
    for (let s = 0; s < path.length; s++) {
      const segment = path[s]!;
      if (typeof segment === 'number') {
        if (!call!.forEach) {
          return `a ${part.type} records element ${segment} of call ${showValue(call!.id)}, which has no _forEach`;
        }
        continue;
      }
      if (call !== undefined) {
        const sub = workflowPlanOf(tools.get(call.tool)?.tool);
        if (sub === undefined) {
          return `a ${part.type} records sub-call ${showValue(segment)} of call ${showValue(call.id)}, whose tool ${showValue(call.tool)} is not a workflow`;
        }
        current = sub;
        where = `workflow ${showValue(call.tool)}'s plan`;
      }
      const index = current.indexOf(segment);
      call = index === undefined ? undefined : current.calls[index];
      if (call === undefined)
        return `a ${part.type} for call ${showValue(segment)}, which ${where} does not have`;
    }
    if (part.type === 'element:start' || part.type === 'element:end') return undefined;
    let check = checks.get(current);
    if (check === undefined) {
      check = planRecordCheck({ plan: current, tools, mode: current.mode });
      checks.set(current, check);
    }
    const problem = check(part.event);
    return problem === undefined ? undefined : `in ${where}: ${problem}`;
  };
}
