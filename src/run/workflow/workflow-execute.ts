/**
 * A workflow's execute function: its compiled plan run with the call's arguments as `†input`,
 * in a fresh state, through the same executor and registry, with the calling run's options
 * that apply (see sub-run.ts); its result is the output template filled in from
 * the final state. To the runner it is an ordinary tool's execute, so that whatever runs tools
 * (a call, or one element of a for-each) runs a workflow alike.
 */
import type { CompiledPlan } from '../../compile/types.js';
import { isPlanValidationError, WorkflowCallError } from '../../errors.js';
import { contractError, rejectionError } from '../call/index.js';
import type { OutputTemplate } from '../../compile/check/index.js';
import type { JsonObject } from '../../language/document.js';
import { setOwnProperty } from '../../language/json/index.js';
import { resolveExpression, type Roots } from '../../language/resolve.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolContext } from '../../tools/tool.js';
import { handedJournal, handJournal } from '../journal/index.js';
import { run } from '../run.js';
import type { ParentRun, RunResult } from '../types.js';
import { subRunOptions } from './sub-run.js';

export interface WorkflowExecuteOptions {
  readonly name: string;
  readonly plan: CompiledPlan;
  readonly output: OutputTemplate;
  /** The registry the workflow is bound in: its sub-plan calls these tools. */
  readonly registry: ToolRegistry;
}

export function workflowExecute(
  options: WorkflowExecuteOptions,
): (args: Record<string, unknown>, context: ToolContext) => Promise<unknown> {
  const { name, plan, output, registry } = options;
  return async (args, context) => {
    const options = subRunOptions({ name, registry, args: args as JsonObject, context });
    // The calling run journals this call's sub-calls (see journal-scope): this run writes there.
    const parent = context.run as ParentRun | undefined;
    const journal = parent === undefined ? undefined : handedJournal(parent);
    if (journal !== undefined) handJournal(options, journal);
    let result: RunResult;
    try {
      result = await run(plan, options);
    } catch (e) {
      // `strict` (the calling run's) makes the plan's compile warnings errors: it never starts.
      if (isPlanValidationError(e))
        throw contractError(
          new WorkflowCallError(`workflow '${name}': its plan cannot run: ${e.message}`, {
            workflow: name,
            code: 'INVALID_PLAN',
          }),
        );
      throw e;
    }
    // The call's report tells what its sub-plan's calls did (see runner/sub-run-results.ts).
    parent?.subRuns.ended(context.toolCallId, context.element, result);
    if (result.status === 'rejected') throw rejection(name, result);
    if (result.status !== 'succeeded') throw failure(name, result);
    return fillOutput(output, { input: args as JsonObject, state: result.state }, name);
  };
}

function failure(name: string, result: RunResult): WorkflowCallError {
  const failed =
    result.calls.find((c) => c.status === 'failed') ?? result.calls.find((c) => c.error !== null);
  if (failed === undefined)
    return new WorkflowCallError(`workflow '${name}' ${result.status}`, { workflow: name });
  const code = failed.error?.code;
  return new WorkflowCallError(
    `workflow '${name}' failed: its call "${failed.id}" (tool "${failed.tool}") ${failed.status}: ${failed.error?.message ?? 'no error given'}`,
    { workflow: name, innerCall: failed.id, innerTool: failed.tool, ...(code !== undefined && { code }) },
  );
}

/**
 * A call inside was turned down (or, for a lazy plan, the plan): the workflow call is rejected
 * in turn (see rejectionError), naming the call and the person's reasons when they gave some.
 */
function rejection(name: string, result: RunResult): WorkflowCallError {
  const rejected = result.calls.find((c) => c.status === 'rejected');
  if (rejected === undefined)
    return rejectionError(
      new WorkflowCallError(`workflow '${name}' was rejected`, { workflow: name, code: 'REJECTED' }),
    );
  const why = rejected.error === null ? '' : `: ${rejected.error.message}`;
  return rejectionError(
    new WorkflowCallError(
      `workflow '${name}': its call "${rejected.id}" (tool "${rejected.tool}") was rejected${why}`,
      {
        workflow: name,
        innerCall: rejected.id,
        innerTool: rejected.tool,
        code: 'REJECTED',
      },
    ),
  );
}

/** The template filled in: each reference leaf's value; a reference with no value fails the call. */
function fillOutput(template: OutputTemplate, roots: Roots, name: string): unknown {
  const { leaves } = template;
  if (leaves.length === 1 && leaves[0]!.at.length === 0) return valueOf(leaves[0]!, roots, name);
  const result = structuredClone(template.base) as Record<string | number, unknown>;
  for (const leaf of leaves) {
    let container = result;
    const { at } = leaf;
    for (let k = 0; k < at.length - 1; k++) container = container[at[k]!] as Record<string | number, unknown>;
    setOwnProperty(container, at[at.length - 1]!, valueOf(leaf, roots, name));
  }
  return result;
}

function valueOf(leaf: OutputTemplate['leaves'][number], roots: Roots, name: string): unknown {
  const found = resolveExpression(leaf.expression, roots);
  if (!found.exists)
    throw new WorkflowCallError(
      `workflow '${name}' ran, but its output ${leaf.text} has no value in its final state`,
      { workflow: name, code: 'NO_OUTPUT' },
    );
  return found.value;
}
