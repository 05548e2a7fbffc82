/**
 * PlanAgent: one model, one set of tools, and plan mode around them.
 *
 * - `plan(messages)`: the latch is planning; the model sees only what the policy allows while
 *   planning (read-only tools) plus a virtual `exit_plan`, and ends by submitting a plan (or by
 *   answering outright).
 * - `execute(messages)`: the model sees every tool the policy allows.
 * - `solve(input)`: the plan loop of seeds/004 (see solve.ts).
 *
 * The same message array flows through both phases: each appends to it. Children share the
 * parent's latch and policy, so no subagent can write while the parent plans.
 */
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import type { AgentEvent, AgentEventListener } from './agent-events.js';
import { type ApprovePlan, type ApproveToolCall, readApproval } from './approval.js';
import { converse, type ToolAnswer } from './conversation.js';
import { describeValue } from './describe-value.js';
import { type GuardedTools, guardTools } from './guard-tools.js';
import type { Message, ModelProvider, ModelToolCall } from './model.js';
import type { PermissionChecker } from './permission.js';
import { PermissionPolicy, type PermissionPolicyOptions } from './permission-policy.js';
import { PlanMode } from './plan-mode.js';
import { PlanModeContext } from './plan-mode-context.js';
import { PlanModePolicy } from './plan-mode-policy.js';
import { EXIT_PLAN_TOOL, PLANNING_PROMPT } from './prompts.js';
import { type SolveOptions, type SolveResult, solve } from './solve.js';

export interface PlanAgentOptions {
  /** The model. Required. */
  readonly provider: ModelProvider;
  /** The tools the agent may use (subject to the policy). Required. */
  readonly tools: Iterable<Tool> | ToolRegistry;
  /**
   * The plan-mode latch and policy. Children get the same objects.
   * @default a new PlanMode with a PlanModePolicy over a PermissionPolicy built from `permissions`
   */
  readonly context?: PlanModeContext;
  /**
   * The rules and mode of the default policy (ignored when `context` is given); `tools` is
   * filled in with the agent's tools.
   * @default { mode: 'bypassPermissions' }: every tool given is allowed, except mutating ones while planning
   */
  readonly permissions?: PermissionPolicyOptions;
  /**
   * Asked when the policy says `ask` about a call.
   * @default undefined: asks are denied, with a reason the model can read
   */
  readonly approveTool?: ApproveToolCall;
  /**
   * Asked when the model submits its plan with exit_plan; a no (with feedback) keeps planning.
   * @default undefined: the plan is accepted as submitted (the caller approves it afterwards)
   */
  readonly approvePlan?: ApprovePlan;
  /**
   * The planning instructions, injected once as a system message by `plan()`.
   * @default PLANNING_PROMPT
   */
  readonly planningPrompt?: string;
  /**
   * Most model turns per `plan()` or `execute()`.
   * @default 20
   */
  readonly maxTurns?: number;
  /**
   * Receives every event (text-delta, tool-call, tool-result, done, error, ...).
   * @default undefined
   */
  readonly onEvent?: AgentEventListener;
  /**
   * Aborts model requests, tool calls and runs.
   * @default undefined
   */
  readonly signal?: AbortSignal;
}

export interface PlanOutcome {
  /** `planned`: the model submitted a plan (approved when `approvePlan` is set); `answered`: it answered without one. */
  readonly status: 'planned' | 'answered' | 'max_turns';
  /** The plan submitted, or null. */
  readonly plan: string | null;
  /** The text of the model's last turn. */
  readonly text: string;
  /** The conversation (the array passed in, appended to). */
  readonly messages: Message[];
}

export interface ExecuteOutcome {
  readonly status: 'answered' | 'max_turns';
  readonly text: string;
  readonly messages: Message[];
}

/** What a child may differ in; latch and policy are always the parent's. */
export interface PlanAgentChildOptions {
  /**
   * The child's tools.
   * @default the parent's tools
   */
  readonly tools?: Iterable<Tool> | ToolRegistry;
  /**
   * The child's model.
   * @default the parent's provider
   */
  readonly provider?: ModelProvider;
  /**
   * A policy of the child's own, checked with the parent's; the stricter answer wins.
   * @default none
   */
  readonly policy?: PermissionChecker;
  /**
   * @default the parent's maxTurns
   */
  readonly maxTurns?: number;
}

const DEFAULT_MAX_TURNS = 20;

export class PlanAgent {
  readonly provider: ModelProvider;
  readonly context: PlanModeContext;
  readonly #options: PlanAgentOptions;
  readonly #registry: ToolRegistry;
  readonly #guarded: GuardedTools;
  readonly #maxTurns: number;
  readonly #planningPrompt: string;

  /** @throws {TypeError} naming the bad option value; {@link ToolDefinitionError} for bad tools. */
  constructor(options: PlanAgentOptions) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`PlanAgent: options must be an object, not ${describeValue(options)}`);
    }
    const { provider, maxTurns = DEFAULT_MAX_TURNS, planningPrompt = PLANNING_PROMPT } = options;
    if (provider === null || typeof provider !== 'object' || typeof provider.stream !== 'function') {
      throw new TypeError(`PlanAgent: provider must be a ModelProvider, not ${describeValue(provider)}`);
    }
    if (!Number.isSafeInteger(maxTurns) || maxTurns < 1) {
      throw new TypeError(`PlanAgent: maxTurns must be a whole number >= 1, not ${describeValue(maxTurns)}`);
    }
    if (typeof planningPrompt !== 'string' || planningPrompt.trim() === '') {
      throw new TypeError(
        `PlanAgent: planningPrompt must be a non-empty string, not ${describeValue(planningPrompt)}`,
      );
    }
    for (const name of ['approveTool', 'approvePlan', 'onEvent'] as const) {
      if (options[name] !== undefined && typeof options[name] !== 'function') {
        throw new TypeError(`PlanAgent: ${name} must be a function, not ${describeValue(options[name])}`);
      }
    }
    if (options.context !== undefined && !(options.context instanceof PlanModeContext)) {
      throw new TypeError(
        `PlanAgent: context must be a PlanModeContext, not ${describeValue(options.context)}`,
      );
    }
    this.#options = options;
    this.provider = provider;
    this.#registry = ToolRegistry.from(options.tools);
    this.context = options.context ?? defaultContext(this.#registry, options.permissions);
    this.#guarded = guardTools(this.#registry, this.context.policy, {
      ...(options.approveTool && { approve: options.approveTool }),
    });
    this.#maxTurns = maxTurns;
    this.#planningPrompt = planningPrompt;
  }

  /** The latch shared with every child. */
  get latch(): PlanMode {
    return this.context.latch;
  }

  /** The tools the model would be offered right now (hidden: what the policy denies). */
  get visibleTools(): readonly Tool[] {
    return this.#guarded.tools();
  }

  /**
   * The planning phase: enters plan mode, injects the planning prompt once, and lets the model
   * investigate with what the policy allows while planning until it calls exit_plan, answers,
   * or runs out of turns.
   */
  async plan(messages: Message[]): Promise<PlanOutcome> {
    checkMessages(messages, 'plan');
    if (!this.latch.isPlanning) this.latch.enter();
    injectSystemPromptOnce(messages, this.#planningPrompt);
    let submitted: string | null = null;
    const result = await this.#converse('plan', messages, {
      tools: () => [...this.#guarded.definitions(), EXIT_PLAN_TOOL],
      answer: async (call) => {
        if (submitted !== null)
          return notRun(
            call,
            'the plan was submitted earlier in this turn; nothing else runs until it is carried out',
          );
        if (call.name !== EXIT_PLAN_TOOL.name) return adviseExitPlan(await this.#callTool(call));
        const outcome = await this.#exitPlan(call);
        if (outcome.stop) submitted = (call.arguments as { plan: string }).plan;
        return outcome;
      },
    });
    const status = submitted !== null ? 'planned' : result.status === 'max_turns' ? 'max_turns' : 'answered';
    this.#emit({ type: 'done', phase: 'plan', status });
    return { status, plan: submitted, text: result.text, messages };
  }

  /** The executing phase: every tool the policy allows, until the model answers or runs out of turns. */
  async execute(messages: Message[]): Promise<ExecuteOutcome> {
    checkMessages(messages, 'execute');
    const result = await this.#converse('execute', messages, {
      tools: () => this.#guarded.definitions(),
      answer: (call) => this.#callTool(call),
    });
    const status = result.status === 'max_turns' ? 'max_turns' : 'answered';
    this.#emit({ type: 'done', phase: 'execute', status });
    return { status, text: result.text, messages };
  }

  /** The plan loop of seeds/004: see {@link solve}. */
  async solve(input: string | Record<string, unknown>, options: SolveOptions = {}): Promise<SolveResult> {
    try {
      const result = await solve(input, options, {
        provider: this.provider,
        tools: () => this.#guarded.tools(),
        emit: (event) => this.#emit(event),
        ...(this.#options.signal && { signal: this.#options.signal }),
      });
      this.#emit({ type: 'done', phase: 'solve', status: result.status });
      return result;
    } catch (error) {
      this.#emit({ type: 'error', phase: 'solve', error });
      throw error;
    }
  }

  /** A subagent with the same latch and policy (plus, optionally, a stricter policy of its own). */
  child(options: PlanAgentChildOptions = {}): PlanAgent {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`PlanAgent.child: options must be an object, not ${describeValue(options)}`);
    }
    return new PlanAgent({
      ...this.#options,
      provider: options.provider ?? this.provider,
      tools: options.tools ?? this.#registry,
      maxTurns: options.maxTurns ?? this.#maxTurns,
      context: this.context.child(options.policy ? { policy: options.policy } : {}),
    });
  }

  async #converse(
    phase: 'plan' | 'execute',
    messages: Message[],
    how: Pick<Parameters<typeof converse>[0], 'tools' | 'answer'>,
  ) {
    try {
      return await converse({
        provider: this.provider,
        messages,
        ...how,
        maxTurns: this.#maxTurns,
        phase,
        emit: (event) => this.#emit(event),
        ...(this.#options.signal && { signal: this.#options.signal }),
      });
    } catch (error) {
      this.#emit({ type: 'error', phase, error });
      throw error;
    }
  }

  async #callTool(call: ModelToolCall): Promise<ToolAnswer> {
    const result = await this.#guarded.call(call, {
      ...(this.#options.signal && { signal: this.#options.signal }),
    });
    return { message: result.message, outcome: result.status };
  }

  /** exit_plan: a plan to approve (when someone approves plans), then the latch leaves planning. */
  async #exitPlan(call: ModelToolCall): Promise<ToolAnswer> {
    const plan = call.arguments.plan;
    if (call.argumentsError !== undefined || typeof plan !== 'string' || plan.trim() === '') {
      return {
        outcome: 'failed',
        message: toolResult(
          call,
          'exit_plan needs the whole plan as a non-empty string argument `plan`. Call it again with the plan.',
          true,
        ),
      };
    }
    const approve = this.#options.approvePlan;
    if (approve) {
      const answer = readApproval(await approve({ kind: 'plan', plan }));
      if (!answer.approved) {
        const feedback = answer.feedback ? ` Feedback: ${answer.feedback}` : '';
        return {
          outcome: 'rejected',
          message: toolResult(
            call,
            `The plan was not approved.${feedback} You are still in plan mode: revise the plan and call exit_plan again.`,
            true,
          ),
        };
      }
    }
    this.latch.exit(plan);
    return {
      outcome: 'plan-submitted',
      stop: true,
      message: toolResult(
        call,
        approve
          ? 'The plan was approved. Plan mode is over; carry the plan out next.'
          : 'The plan was submitted. Plan mode is over.',
        false,
      ),
    };
  }

  #emit(event: AgentEvent): void {
    const listener = this.#options.onEvent;
    if (!listener) return;
    try {
      listener(event);
    } catch {
      // An observer's failure is its own: the agent goes on.
    }
  }
}

/**
 * A plan-mode denial advises the plan tools (plan_write, exit_plan_mode); this model has
 * exit_plan instead, so the advice names the tool it can call.
 */
function adviseExitPlan(answer: ToolAnswer): ToolAnswer {
  if (answer.outcome !== 'denied') return answer;
  const content = answer.message.content.replace(
    'describe the change in the plan (plan_write) and call exit_plan_mode to ask for approval',
    'put the change in your plan and submit the plan with exit_plan to ask for approval',
  );
  return { ...answer, message: { ...answer.message, content } };
}

function defaultContext(
  registry: ToolRegistry,
  permissions: PermissionPolicyOptions | undefined,
): PlanModeContext {
  const latch = new PlanMode();
  const base = new PermissionPolicy({ mode: 'bypassPermissions', ...permissions, tools: registry });
  return new PlanModeContext({ latch, policy: new PlanModePolicy(base, latch) });
}

/**
 * Adds the planning prompt after the caller's own system messages, unless this conversation
 * has it already (a second plan() on the same array, or a resumed one): never twice.
 */
function injectSystemPromptOnce(messages: Message[], prompt: string): void {
  if (messages.some((m) => m.role === 'system' && m.content === prompt)) return;
  let at = 0;
  while (at < messages.length && messages[at]!.role === 'system') at++;
  messages.splice(at, 0, { role: 'system', content: prompt });
}

function checkMessages(messages: unknown, method: string): asserts messages is Message[] {
  if (!Array.isArray(messages)) {
    throw new TypeError(
      `PlanAgent.${method}: messages must be an array of messages, not ${describeValue(messages)}`,
    );
  }
}

function toolResult(call: ModelToolCall, content: string, isError: boolean): ToolAnswer['message'] {
  return { role: 'tool', toolCallId: call.id, name: call.name, content, ...(isError && { isError: true }) };
}

function notRun(call: ModelToolCall, why: string): Promise<ToolAnswer> {
  return Promise.resolve({ outcome: 'failed', message: toolResult(call, `Not run: ${why}.`, true) });
}
