/**
 * A workflow's execute function: its compiled plan run with the call's arguments as `†input`,
 * in a fresh state, through the same executor and registry, within the calling run's
 * concurrency, signal, model and listeners; its result is the output template filled in from
 * the final state. To the runner it is an ordinary tool's execute, so that whatever runs tools
 * (a call, or one element of a for-each) runs a workflow alike.
 */
import type { CompiledPlan } from '../../compile/types.js';
import { WorkflowCallError } from '../../errors.js';
import type { OutputTemplate } from '../../compile/check/index.js';
import type { JsonObject } from '../../language/document.js';
import { setOwnProperty } from '../../language/json/index.js';
import { resolveExpression, type Roots } from '../../language/resolve.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolContext } from '../../tools/tool.js';
import { run } from '../run.js';
import type { ParentRun, RunEvent, RunOptions, RunResult, WorkflowRunEvent } from '../types.js';

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
    const parent = context.run as ParentRun | undefined;
    const given: RunOptions | undefined = parent?.options;
    const emit = parent?.emit ?? null;
    const parentCall = context.toolCallId;
    const result = await run(plan, {
      tools: registry,
      input: args as JsonObject,
      signal: context.abortSignal,
      ...(given?.concurrency !== undefined && { concurrency: given.concurrency }),
      ...(given?.timeoutMs !== undefined && { timeoutMs: given.timeoutMs }),
      ...(given?.latent !== undefined && { latent: given.latent }),
      ...(given?.limiter !== undefined && { limiter: given.limiter }),
      ...(given?.approve !== undefined && { approve: given.approve }),
      ...(given?.context !== undefined && { context: given.context }),
      ...(emit !== null && {
        onEvent: (event: RunEvent) => {
          // From a workflow inside this one: it names its own (nearest) parent call already.
          if ((event as Partial<WorkflowRunEvent>).parentCall !== undefined) return emit(event);
          const marked: WorkflowRunEvent = { ...event, parentCall };
          emit(marked);
        },
      }),
    });
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
