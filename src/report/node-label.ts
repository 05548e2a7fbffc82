/**
 * A call's label in the text pictures (Mermaid, DOT), one entry per line: `id: tool` (with
 * `(workflow)` for a workflow call), `for each <array>` for a `_forEach` call and, when a run's
 * report of it is known, its element count and statuses; then `→ <_outputPath>` when it writes.
 */
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import type { CallReport } from '../run/types.js';
import { workflowCalls } from '../tools/workflow-definition.js';
import { elementCounts, elementSummary } from './workflow-plan.js';

export function nodeLabel(call: CompiledCall, plan: CompiledPlan, report?: CallReport): string[] {
  const lines = [`${call.id}: ${call.tool}${isWorkflow(plan, call) ? ' (workflow)' : ''}`];
  if (call.forEach) {
    lines.push(`for each ${call.forEach.text}`);
    const counts = elementCounts(report);
    if (counts !== null) lines.push(elementSummary(counts));
  }
  if (call.outputPath) lines.push(`→ ${call.outputPath.text}`);
  return lines;
}

/** The call's tool is a workflow bound in the plan's registry. */
export function isWorkflow(plan: CompiledPlan, call: CompiledCall): boolean {
  const tool = plan.tools?.get(call.tool)?.tool;
  return tool !== undefined && workflowCalls(tool) !== undefined;
}

export function isBranch(call: CompiledCall): boolean {
  return call.outputPath?.op === '||' && call.outputPath.paths.length > 1;
}
