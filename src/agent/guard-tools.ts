/**
 * Two layers between a model and its tools.
 *
 * Layer 1 hides what the policy denies: `definitions()` (and `tools()`) are computed when they
 * are asked for, so what the model is offered follows the plan-mode latch turn by turn.
 * Layer 2 refuses a denied call when it is made anyway (a hallucinated name, a stale
 * definition, a tool that became denied mid-turn): `call()` answers with a tool result the
 * model can read, never a throw that ends the run. An `ask` goes to `approve`, and is denied
 * when there is no one to ask.
 *
 * Both layers present the definition that would run to the policy, so a policy that trusts
 * one definition of a name as read-only does not let a different one with that name through.
 */
import {
  ApprovalRejectedError,
  isApprovalRejectedError,
  isPermissionDeniedError,
  PermissionDeniedError,
} from '../errors.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import { type ApproveToolCall, readApproval } from './approval.js';
import { describeValue } from './describe-value.js';
import type { ModelToolCall, ModelToolDefinition, ToolResultMessage } from './model.js';
import { isPermissionChecker, type PermissionChecker } from './permission.js';
import { isGenuinePlanTool, isPlanToolName, markPlanTool } from './plan-tool-names.js';
import { markWrapperOf } from './tool-identity.js';

export interface GuardToolsOptions {
  /**
   * Asked when the policy says `ask`; may answer with feedback for the model. Without it,
   * every `ask` is denied.
   * @default undefined
   */
  readonly approve?: ApproveToolCall;
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
  /** Runs one call of the model's through both layers; never throws for a refusal or a tool error. */
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
  const { approve } = options;
  if (approve !== undefined && typeof approve !== 'function') {
    throw new TypeError(`guardTools: approve must be a function, not ${describeValue(approve)}`);
  }
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

  const authorizeDefinition = async (
    toolName: string,
    definition: Tool | undefined,
    args: Readonly<Record<string, unknown>>,
    toolCallId: string,
  ): Promise<void> => {
    const decision = policy.check(toolName, args, definition);
    if (decision.behavior === 'allow') return;
    if (decision.behavior === 'deny') throw new PermissionDeniedError(toolName, decision.reason);
    if (!approve || !definition) {
      throw new PermissionDeniedError(
        toolName,
        `${decision.reason}, and no one is available to approve '${toolName}'`,
      );
    }
    const answer = readApproval(
      await approve({ kind: 'tool', tool: toolName, args, toolCallId, reason: decision.reason, definition }),
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
          await authorizeDefinition(tool.name, tool, args, context.toolCallId);
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
    const fail = (
      status: GuardedCallResult['status'],
      content: string,
      error?: unknown,
    ): GuardedCallResult => ({
      status,
      message: { role: 'tool', toolCallId: modelCall.id, name, content, isError: true },
      ...(error === undefined ? {} : { error }),
    });
    const registered = registry.get(name);
    if (!registered) {
      const names = visible().map((t) => t.name);
      return fail(
        'failed',
        `Unknown tool '${name}'. Available tools: ${names.length > 0 ? names.join(', ') : 'none'}`,
      );
    }
    if (modelCall.argumentsError !== undefined) {
      return fail('failed', `The arguments of '${name}' could not be read: ${modelCall.argumentsError}`);
    }
    const args = modelCall.arguments;
    const decision = policy.check(name, args, registered.tool);
    if (decision.behavior === 'deny') {
      const error = new PermissionDeniedError(name, decision.reason);
      return fail('denied', `Permission denied: ${decision.reason}`, error);
    }
    const { validateInput } = registered;
    if (validateInput && !validateInput(args)) {
      return fail('failed', `Invalid arguments for '${name}': ${describeSchemaErrors(validateInput.errors)}`);
    }
    const execute = registered.tool.execute;
    if (!execute) return fail('failed', `'${name}' cannot be called directly: it has no execute function`);
    try {
      await authorizeDefinition(name, registered.tool, args, modelCall.id);
    } catch (error) {
      if (isPermissionDeniedError(error)) return fail('denied', `Permission denied: ${error.reason}`, error);
      if (isApprovalRejectedError(error)) return fail('rejected', capitalize(error.message), error);
      return fail(
        'denied',
        `Permission denied: the approval of '${name}' failed (${messageOf(error)})`,
        error,
      );
    }
    try {
      const output = await execute(args, {
        toolCallId: modelCall.id,
        abortSignal: callOptions.signal ?? new AbortController().signal,
        outputPaths: [],
        context: callOptions.context,
      });
      return {
        status: 'succeeded',
        output,
        message: { role: 'tool', toolCallId: modelCall.id, name, content: outputText(output) },
      };
    } catch (error) {
      if (isPermissionDeniedError(error)) return fail('denied', `Permission denied: ${error.reason}`, error);
      if (isApprovalRejectedError(error)) return fail('rejected', capitalize(error.message), error);
      return fail('failed', `'${name}' failed: ${messageOf(error)}`, error);
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
