/**
 * The options of a workflow call's sub-run, from the run its call is in (ToolContext.run): the
 * options that bound what any run may do (`strict`, `limits`, `failFast`, `timeoutMs`,
 * `concurrency`, `maxEditRetries`), whether defaults are filled (`applyDefaults`), what it runs with (`latent`, `context`), its cancellation
 * (the call's abortSignal), and its approver and listeners, which see where in the chain of
 * workflow calls a request or an event comes from (`parent`).
 *
 * Not passed: `mode` (the sub-plan runs in its own mode: a lazy plan's approval lists its
 * workflows' calls already), `input` and `state` (a sub-run starts fresh), `journal`, `resume`,
 * `reuse`, `remote` and `runId` (they are about the plan's own calls).
 *
 * Its dispatch follows the top run's (CallSlots.join): pausing the top run, as `plan run` does
 * while an approval question is open, holds the sub-run's calls that get ready too.
 *
 * Each sub-run wraps the top run's approver and listeners once, with its whole chain, under a
 * private key of the options it makes: a sub-run inside it reads them from there, so an event
 * from N workflows deep passes through one wrapper, not N.
 */
import type { Approve, ApprovalRequest } from '../approval.js';
import { CALLERS_SIGNAL, type ParentCall } from '../sub-run-types.js';
import { traceParentOf } from '../trace/open-trace.js';
import type { JsonObject } from '../../language/document.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolContext } from '../../tools/tool.js';
import {
  DISPATCH_GROUP,
  type ParentRun,
  type RunEvent,
  type RunOptions,
  type WorkflowRunEvent,
} from '../types.js';

const SUB_RUN: unique symbol = Symbol('planmode.subRun');

/** Where a sub-run is, and the top run's approver and listeners. */
interface SubRunOrigin {
  /** The workflow calls above the sub-run, outermost first. */
  readonly chain: readonly ParentCall[];
  readonly approve: Approve | undefined;
  readonly emit: ((event: RunEvent) => void) | null;
}

type SubRunOptions = RunOptions & { readonly [SUB_RUN]?: SubRunOrigin; readonly [CALLERS_SIGNAL]?: true };

export interface SubRunRequest {
  /** The workflow's name. */
  readonly name: string;
  readonly registry: ToolRegistry;
  readonly args: JsonObject;
  readonly context: ToolContext;
}

/** The sub-run's options: see the file's comment for what is passed on. */
export function subRunOptions(request: SubRunRequest): RunOptions {
  const { name, registry, args, context } = request;
  const parent = context.run as ParentRun | undefined;
  const given = parent?.options as SubRunOptions | undefined;
  const above = given?.[SUB_RUN];
  const approve = above ? above.approve : given?.approve;
  const emit = above ? above.emit : (parent?.emit ?? null);
  const chain = Object.freeze([...(above?.chain ?? []), parentCallOf(name, context)]);
  const origin: SubRunOrigin = { chain, approve, emit };
  const parentCall = context.toolCallId;
  const options: SubRunOptions = {
    tools: registry,
    input: args,
    signal: context.abortSignal,
    ...(given?.concurrency !== undefined && { concurrency: given.concurrency }),
    ...(given?.timeoutMs !== undefined && { timeoutMs: given.timeoutMs }),
    ...(given?.latent !== undefined && { latent: given.latent }),
    ...(given?.limiter !== undefined && { limiter: given.limiter }),
    ...(given?.context !== undefined && { context: given.context }),
    ...(given?.strict !== undefined && { strict: given.strict }),
    ...(given?.limits !== undefined && { limits: given.limits }),
    ...(given?.failFast !== undefined && { failFast: given.failFast }),
    ...(given?.maxEditRetries !== undefined && { maxEditRetries: given.maxEditRetries }),
    ...(given?.applyDefaults !== undefined && { applyDefaults: given.applyDefaults }),
    ...(approve !== undefined && {
      approve: (asked: ApprovalRequest) => approve({ ...asked, parent: chain }),
    }),
    ...(emit !== null && {
      onEvent: (event: RunEvent) => {
        const marked: WorkflowRunEvent = { ...event, parentCall, parent: chain };
        emit(marked);
      },
    }),
    [SUB_RUN]: origin,
    [CALLERS_SIGNAL]: true,
    // Its calls pause with the top run's (a prompt anywhere holds every run under the top one).
    ...(parent !== undefined && { [DISPATCH_GROUP]: parent.dispatch }),
    // Tracing: the sub-run traces when its calling run does, under the workflow call's span.
    ...traceParentOf(context, name),
  };
  return options;
}

/** The call that runs the workflow, as the chain names it. */
function parentCallOf(name: string, context: ToolContext): ParentCall {
  const { toolCallId, element } = context;
  if (element === undefined) return Object.freeze({ call: toolCallId, tool: name });
  // An element's toolCallId is its call's id with `[k]` after it (see for-each.ts).
  const suffix = `[${element}]`;
  const call = toolCallId.endsWith(suffix) ? toolCallId.slice(0, -suffix.length) : toolCallId;
  return Object.freeze({ call, tool: name, element });
}
