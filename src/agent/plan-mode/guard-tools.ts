/**
 * Two layers between a model and its tools.
 *
 * Layer 1 hides what the policy denies: `definitions()` (and `tools()`) are computed when they
 * are asked for, so what the model is offered follows the plan-mode latch turn by turn.
 * Layer 2 refuses a denied call when it is made anyway (a hallucinated name, a stale
 * definition, a tool that became denied mid-turn): `call()` answers with a tool result the
 * model can read, never a throw that ends the run. An `ask` goes to `approve`, and is denied
 * when there is no one to ask; so does a model's call of a tool that `needsApproval`, which is
 * asked about even where the policy allows it (in a plan run, run() asks about those itself).
 *
 * Both layers present the definition that would run to the policy, so a policy that trusts
 * one definition of a name as read-only does not let a different one with that name through.
 *
 * A refusal is told twice: to the model as a sentence that names only tools it is offered (a
 * plan-mode denial advises the plan tools when they are among the guarded tools, and only to
 * finish planning when they are not), and to the caller as data, `denial`: the tool, the
 * latch's state and the cause.
 */
import {
  ApprovalRejectedError,
  type DenialCause,
  isApprovalRejectedError,
  isPermissionDeniedError,
  type PermissionDenial,
  PermissionDeniedError,
} from '../../errors.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Tool, ToolContext } from '../../tools/tool.js';
import { type EndLoopSignal, isEndLoopSignal, type LoopEnding } from '../../tools/end-loop.js';
import { type Approve, type CallApprovalRequest, readApproval } from '../../run/approval.js';
import { contractError } from '../../run/call/index.js';
import { describeValue } from '../../language/describe-value.js';
import type { ModelToolCall, ModelToolDefinition, ToolResultMessage } from '../model.js';
import {
  isGenuinePlanTool,
  isPermissionChecker,
  isPlanToolName,
  markPlanTool,
  markWrapperOf,
  type PermissionChecker,
} from '../permissions/index.js';
import { isPlanModeLatch, type PlanMode } from './plan-mode.js';
import { PLAN_MODE_ADVICE } from '../prompts.js';
import { checkOptions } from '../../language/option-keys.js';
import { GUARD_TOOLS_OPTIONS } from './option-specs.js';

export interface GuardToolsOptions {
  /**
   * Asked when the policy says `ask`; may answer with feedback for the model. Without it,
   * every `ask` is denied.
   * @default undefined
   */
  readonly approve?: Approve<CallApprovalRequest>;
  /**
   * The latch whose state a denial reports (`denial.state`).
   * @default the policy's `latch` when it has one (a PlanModePolicy), else none: `state` is
   *   null, or `planning` for a plan-mode denial
   */
  readonly latch?: PlanMode;
  /**
   * What a plan-mode denial tells the model to do instead (after the reason).
   * @default named after what the guarded tools offer: plan_write and exit_plan_mode when they
   *   are among them and allowed, else to finish planning first
   */
  readonly planModeAdvice?: string;
}

export interface GuardedCallOptions {
  /**
   * Aborts the tool (passed to it as `abortSignal`).
   * @default a signal that never aborts
   */
  readonly signal?: AbortSignal;
  /**
   * Passed to the tool as `ctx.context`.
   * @default undefined
   */
  readonly context?: unknown;
  /**
   * What a plan-mode denial of this call tells the model to do instead, for a caller that
   * offers the model a way out of plan mode the guard does not know of (PlanAgent's exit_plan).
   * @default the guard's `planModeAdvice`
   */
  readonly planModeAdvice?: string;
}

/** How a guarded call ended, with the message to give back to the model. */
export interface GuardedCallResult {
  /** `denied` by the policy (or no one to ask), `rejected` by a person, `failed` otherwise. */
  readonly status: 'succeeded' | 'failed' | 'denied' | 'rejected';
  /** The answer for the model: push it into the conversation as is. */
  readonly message: ToolResultMessage;
  /** What the tool returned, when it succeeded. */
  readonly output?: unknown;
  /** PermissionDeniedError, ApprovalRejectedError, or what the tool threw. */
  readonly error?: unknown;
  /** When `denied` or `rejected`: the refusal as data. */
  readonly denial?: PermissionDenial;
  /** The tool threw or returned `endLoop(reason)`: the loop ends after this turn (status `succeeded`). */
  readonly endedBy?: LoopEnding;
}

export interface GuardedTools {
  /** The definitions to send to the model now: every tool the policy does not deny. */
  definitions(): ModelToolDefinition[];
  /** The same tools as planmode Tools (for compile and run), each `execute` guarded by `authorize`. */
  tools(): Tool[];
  /**
   * Checks the policy (and asks, when it says ask) for one call of the guarded tool named
   * `toolName` (its definition is what the policy judges).
   * @throws {PermissionDeniedError} when the policy denies it or no one can be asked.
   * @throws {ApprovalRejectedError} when the person says no.
   */
  authorize(toolName: string, args: Readonly<Record<string, unknown>>, toolCallId?: string): Promise<void>;
  /**
   * Runs one call of the model's through both layers; never throws for a refusal or a tool error.
   * @throws {TypeError} for a bad option (`planModeAdvice`).
   */
  call(call: ModelToolCall, options?: GuardedCallOptions): Promise<GuardedCallResult>;
}

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} } as const;

/**
 * @throws {TypeError} for a bad policy or option, {@link ToolDefinitionError} for bad tools.
 */
export function guardTools(
  tools: Iterable<Tool> | ToolRegistry,
  policy: PermissionChecker,
  options: GuardToolsOptions = {},
): GuardedTools {
  if (!isPermissionChecker(policy)) {
    throw new TypeError(`guardTools: the policy must have a check() method, not ${describeValue(policy)}`);
  }
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`guardTools: options must be an object, not ${describeValue(options)}`);
  }
  checkOptions('guardTools', options, GUARD_TOOLS_OPTIONS);
  const { approve, latch = latchOf(policy), planModeAdvice } = options;
  if (approve !== undefined && typeof approve !== 'function') {
    throw new TypeError(`guardTools: approve must be a function, not ${describeValue(approve)}`);
  }
  if (latch !== undefined && !isPlanModeLatch(latch)) {
    throw new TypeError(`guardTools: latch must be a PlanMode, not ${describeValue(latch)}`);
  }
  checkAdvice('guardTools: planModeAdvice', planModeAdvice);
  const registry = ToolRegistry.from(tools);
  const all = registry.tools();
  // Policies exempt the plan tools by name; a look-alike would slip past plan mode.
  const impostor = all.find((tool) => isPlanToolName(tool.name) && !isGenuinePlanTool(tool));
  if (impostor) {
    throw new TypeError(
      `guardTools: the tool '${impostor.name}' is not the one planTools() makes; plan-tool names are reserved`,
    );
  }
  const wrappers = new Map<Tool, Tool>();

  // Every check presents the definition that would run: trust binds to it, not to its name.
  const visible = (): Tool[] =>
    all.filter((tool) => policy.check(tool.name, undefined, tool).behavior !== 'deny');

  const stateFor = (cause: DenialCause): PermissionDenial['state'] =>
    latch?.state ?? (cause === 'plan-mode' ? 'planning' : null);

  const denied = (toolName: string, reason: string, cause: DenialCause): PermissionDeniedError =>
    new PermissionDeniedError(toolName, reason, { cause, state: stateFor(cause) });

  // Named after what the model is offered now: a plan tool the policy denies is not offered.
  const offered = (name: 'exit_plan_mode' | 'plan_write'): boolean => {
    const tool = registry.get(name)?.tool;
    return tool !== undefined && policy.check(name, undefined, tool).behavior !== 'deny';
  };
  const defaultAdvice = (): string => {
    if (!offered('exit_plan_mode')) return PLAN_MODE_ADVICE.finishPlanning;
    return offered('plan_write') ? PLAN_MODE_ADVICE.planTools : PLAN_MODE_ADVICE.exitPlanMode;
  };

  const authorizeDefinition = async (
    toolName: string,
    definition: Tool | undefined,
    args: Readonly<Record<string, unknown>>,
    toolCallId: string,
    /** Ask about a tool that needs approval even when the policy allows it. */
    askIfNeeded = false,
  ): Promise<void> => {
    let decision = policy.check(toolName, args, definition);
    if (decision.behavior === 'allow' && askIfNeeded && definition?.needsApproval === true) {
      decision = { behavior: 'ask', reason: `tool '${toolName}' needs approval` };
    }
    if (decision.behavior === 'allow') return;
    if (decision.behavior === 'deny') throw denied(toolName, decision.reason, decision.cause ?? 'policy');
    if (!approve || !definition) {
      throw denied(
        toolName,
        `${decision.reason}, and no one is available to approve '${toolName}'`,
        'no-approver',
      );
    }
    const answer = readApproval(
      await approve({
        kind: 'call',
        call: toolCallId,
        tool: toolName,
        args,
        reason: decision.reason,
        definition,
      }),
    );
    if (!answer.approved) {
      throw new ApprovalRejectedError(
        `the call to '${toolName}'`,
        answer.feedback,
        'Do not call it again with the same arguments; adjust to the feedback or ask the user',
      );
    }
  };

  const authorize = (
    toolName: string,
    args: Readonly<Record<string, unknown>>,
    toolCallId = '',
  ): Promise<void> => authorizeDefinition(toolName, registry.get(toolName)?.tool, args, toolCallId);

  const wrap = (tool: Tool): Tool => {
    const execute = tool.execute;
    if (!execute) return tool;
    let wrapper = wrappers.get(tool);
    if (!wrapper) {
      wrapper = {
        ...tool,
        execute: async (args: Record<string, unknown>, context: ToolContext) => {
          try {
            await authorizeDefinition(tool.name, tool, args, context.toolCallId);
          } catch (refusal) {
            // The guard's refusal, not the tool's error: a run never hands it to an error
            // alternative (PERMISSION_DENIED is a contract error).
            throw contractError(refusal);
          }
          return execute(args, context);
        },
      };
      markWrapperOf(wrapper, tool);
      if (isGenuinePlanTool(tool)) markPlanTool(wrapper);
      wrappers.set(tool, wrapper);
    }
    return wrapper;
  };

  const call = async (
    modelCall: ModelToolCall,
    callOptions: GuardedCallOptions = {},
  ): Promise<GuardedCallResult> => {
    const name = modelCall.name;
    checkAdvice('GuardedTools.call: planModeAdvice', callOptions.planModeAdvice);
    const fail = (content: string, error?: unknown): GuardedCallResult => ({
      status: 'failed',
      message: { role: 'tool', toolCallId: modelCall.id, name, content, isError: true },
      ...(error === undefined ? {} : { error }),
    });
    const refuse = (error: unknown): GuardedCallResult => {
      let denial: PermissionDenial;
      let content: string;
      if (isPermissionDeniedError(error)) {
        // A tool's own refusal (plan_write outside its folder) knows no latch: the guard does.
        denial = { ...error.denial, state: error.denial.state ?? stateFor(error.denial.cause) };
        content = `Permission denied: ${error.reason}`;
        if (denial.cause === 'plan-mode') {
          content += `. ${callOptions.planModeAdvice ?? planModeAdvice ?? defaultAdvice()}`;
        }
      } else {
        const reason = capitalize(messageOf(error));
        denial = { tool: name, state: stateFor('rejected'), cause: 'rejected', reason };
        content = reason;
      }
      return {
        status: denial.cause === 'rejected' ? 'rejected' : 'denied',
        message: { role: 'tool', toolCallId: modelCall.id, name, content, isError: true },
        error,
        denial,
      };
    };
    const registered = registry.get(name);
    if (!registered) {
      const names = visible().map((t) => t.name);
      return fail(`Unknown tool '${name}'. Available tools: ${names.length > 0 ? names.join(', ') : 'none'}`);
    }
    if (modelCall.argumentsError !== undefined) {
      return fail(`The arguments of '${name}' could not be read: ${modelCall.argumentsError}`);
    }
    // The schema's defaults, as a run fills them (RunOptions.applyDefaults): on a copy.
    const args = registered.defaults
      ? registered.defaults.fill({ ...modelCall.arguments })
      : modelCall.arguments;
    const decision = policy.check(name, args, registered.tool);
    if (decision.behavior === 'deny')
      return refuse(denied(name, decision.reason, decision.cause ?? 'policy'));
    const { validateInput } = registered;
    if (validateInput && !validateInput(args)) {
      return fail(`Invalid arguments for '${name}': ${describeSchemaErrors(validateInput.errors)}`);
    }
    const execute = registered.tool.execute;
    if (!execute) return fail(`'${name}' cannot be called directly: it has no execute function`);
    try {
      await authorizeDefinition(name, registered.tool, args, modelCall.id, true);
    } catch (error) {
      if (isPermissionDeniedError(error) || isApprovalRejectedError(error)) return refuse(error);
      const failed = denied(
        name,
        `the approval of '${name}' failed (${messageOf(error)})`,
        'approval-failed',
      );
      return { ...refuse(failed), error };
    }
    try {
      const output = await execute(args, {
        toolCallId: modelCall.id,
        abortSignal: callOptions.signal ?? new AbortController().signal,
        outputPaths: [],
        context: callOptions.context,
      });
      if (isEndLoopSignal(output)) return endedLoop(modelCall, name, output);
      return {
        status: 'succeeded',
        output,
        message: { role: 'tool', toolCallId: modelCall.id, name, content: outputText(output) },
      };
    } catch (error) {
      if (isEndLoopSignal(error)) return endedLoop(modelCall, name, error);
      if (isPermissionDeniedError(error) || isApprovalRejectedError(error)) return refuse(error);
      return fail(`'${name}' failed: ${messageOf(error)}`, error);
    }
  };

  return {
    definitions: () =>
      visible().map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema ?? EMPTY_OBJECT_SCHEMA,
      })),
    tools: () => visible().map(wrap),
    authorize,
    call,
  };
}

/** A PlanModePolicy's latch (by shape, as PlanModeContext checks it), else none. */
function latchOf(policy: PermissionChecker): PlanMode | undefined {
  const latch = (policy as { latch?: unknown }).latch;
  return isPlanModeLatch(latch) ? latch : undefined;
}

function checkAdvice(where: string, advice: unknown): void {
  if (advice !== undefined && (typeof advice !== 'string' || advice.trim() === '')) {
    throw new TypeError(`${where} must be a non-empty string, not ${describeValue(advice)}`);
  }
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '(no output)';
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describeSchemaErrors(
  errors: readonly { instancePath: string; message?: string }[] | null | undefined,
): string {
  const list = (errors ?? []).slice(0, 5).map((e) => {
    const where =
      e.instancePath === '' ? 'the arguments' : `'${e.instancePath.slice(1).replace(/\//g, '.')}'`;
    return `${where} ${e.message ?? 'is invalid'}`;
  });
  return list.length > 0 ? list.join('; ') : 'they do not match the inputSchema';
}

/** A call whose tool ended the loop: succeeded, and its result tells the model why. */
function endedLoop(call: ModelToolCall, name: string, signal: EndLoopSignal): GuardedCallResult {
  const content = `'${name}' ended the loop: ${signal.reason}`;
  return {
    status: 'succeeded',
    message: { role: 'tool', toolCallId: call.id, name, content },
    endedBy: { tool: name, callId: call.id, reason: signal.reason },
  };
}
