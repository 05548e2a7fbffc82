/**
 * PlanAgent: one model, one set of tools, and plan mode around them.
 *
 * - `plan(messages)`: the latch is planning; the model sees only what the policy allows while
 *   planning (read-only tools) plus a virtual `exit_plan`, and ends by submitting a plan: with
 *   exit_plan (`{plan}`, or no arguments when the turn's text is the plan), or by answering in
 *   plain text, which is the plan too. Either way the plan is asked about (`approvePlan`) and
 *   the latch leaves planning.
 * - `execute(messages)`: the model sees every tool the policy allows. Calling it after plan()
 *   is the caller's approval: a latch that plan() left planning (out of turns) leaves planning
 *   first. A latch put in planning by anything else (a parent, enter_plan_mode) is left alone,
 *   so a child never writes while its parent plans.
 * - `solve(input)`: the plan loop: the model writes a solution `{calls, output}`, its calls run,
 *   and it is asked again with the state until it gives an output (see plan-loop/solve.ts).
 *
 * The same message array flows through both phases: each appends to it. Children share the
 * parent's latch and policy, so no subagent can write while the parent plans.
 */
import { checkOptions } from '../language/option-keys.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import type { AgentEvent } from './agent-events.js';
import { readApproval } from '../run/approval.js';
import { converse, type ToolAnswer } from './conversation.js';
import { describeValue } from '../language/describe-value.js';
import {
  defaultPlanModeContext,
  type GuardedTools,
  guardTools,
  PlanMode,
  type PlanModeContext,
  type PlanModeSetup,
} from './plan-mode/index.js';
import type { Message, ModelProvider, ModelToolCall } from './model.js';
import { wirePlanMode } from './plan-agent-plan-mode.js';
import { EXIT_PLAN_TOOL, PLAN_MODE_ADVICE, PLANNING_PROMPT } from './prompts.js';
import { solve, type SolveOptions, type SolveResult } from './plan-loop/index.js';
import { agentSolveOptions, classifierOf } from './plan-agent-solve.js';
import { checkPlanAgentOptions } from './plan-agent-checks.js';
import { type TracedInvocation, traceInvocation } from './trace/agent-trace.js';
import {
  checkMessages,
  injectSystemPromptOnce,
  lastAssistantText,
  notRun,
  rejectionText,
  toolResult,
} from './plan-agent-messages.js';
import {
  type ExecuteOutcome,
  PLAN_AGENT_CHILD_OPTIONS,
  type PlanAgentChildOptions,
  type PlanAgentOptions,
  type PlanOutcome,
} from './plan-agent-options.js';

const DEFAULT_MAX_TURNS = 20;

/** The approval request's `reason` for the agent's plan. */
const PLAN_REASON = 'the agent carries out its plan only once approved';

export class PlanAgent {
  readonly provider: ModelProvider;
  readonly context: PlanModeContext;
  readonly #options: PlanAgentOptions;
  readonly #registry: ToolRegistry;
  readonly #guarded: GuardedTools;
  readonly #planMode: PlanModeSetup | undefined;
  readonly #maxTurns: number;
  readonly #planningPrompt: string;
  /** This agent's last plan() ended with the latch still planning: execute() is its approval. */
  #unfinishedPlan = false;

  /** @throws {TypeError} naming the bad option value; {@link ToolDefinitionError} for bad tools. */
  constructor(options: PlanAgentOptions) {
    checkPlanAgentOptions(options);
    const { provider, maxTurns = DEFAULT_MAX_TURNS, planningPrompt = PLANNING_PROMPT } = options;
    this.#options = options;
    this.provider = provider;
    this.#registry = ToolRegistry.from(options.tools);
    const wired = wirePlanMode(options, this.#registry);
    this.#planMode = wired?.setup;
    this.context =
      wired?.context ?? options.context ?? defaultPlanModeContext(this.#registry, options.permissions);
    this.#guarded =
      wired?.guarded ??
      guardTools(this.#registry, this.context.policy, {
        ...(options.approveTool && { approve: options.approveTool }),
        latch: this.context.latch,
      });
    this.#maxTurns = maxTurns;
    this.#planningPrompt = planningPrompt;
  }

  /** The latch shared with every child. */
  get latch(): PlanMode {
    return this.context.latch;
  }

  /** The plan mode the `planMode` option installed (todos, plan file, snapshot()), or undefined. */
  get planMode(): PlanModeSetup | undefined {
    return this.#planMode;
  }

  /** The tools the model would be offered right now (hidden: what the policy denies). */
  get visibleTools(): readonly Tool[] {
    return this.#guarded.tools();
  }

  /**
   * The planning phase: enters plan mode, injects the planning prompt once, and lets the model
   * investigate with what the policy allows while planning until it submits a plan (exit_plan,
   * or a plain-text answer, which is the plan too) or runs out of turns. A plan is asked about
   * when `approvePlan` is set (a no hands the feedback to the model, which plans on); then the
   * latch leaves planning, so `execute()` offers every tool the policy allows.
   */
  async plan(messages: Message[]): Promise<PlanOutcome> {
    checkMessages(messages, 'plan');
    return this.#traced('plan', ({ provider }) => this.#plan(messages, provider));
  }

  async #plan(messages: Message[], provider: ModelProvider): Promise<PlanOutcome> {
    if (!this.latch.isPlanning) this.latch.enter();
    injectSystemPromptOnce(messages, this.#planningPrompt);
    let submitted: string | null = null;
    let submittedWith: PlanOutcome['submittedWith'] = null;
    let turnsLeft = this.#maxTurns;
    let text = '';
    let endedBy: PlanOutcome['endedBy'];
    while (submitted === null && turnsLeft > 0 && !endedBy) {
      const result = await this.#converse('plan', provider, messages, {
        maxTurns: turnsLeft,
        // With the plan tools installed, exit_plan_mode ends planning (approved by a person):
        // a second way out (the virtual exit_plan) would only confuse the model.
        tools: () =>
          this.#planMode ? this.#guarded.definitions() : [...this.#guarded.definitions(), EXIT_PLAN_TOOL],
        answer: async (call, turn) => {
          if (submitted !== null)
            return notRun(
              call,
              'the plan was submitted earlier in this turn; nothing else runs until it is carried out',
            );
          if (this.#planMode || call.name !== EXIT_PLAN_TOOL.name) {
            const answer = await this.#callTool(
              call,
              this.#planMode ? {} : { planModeAdvice: PLAN_MODE_ADVICE.exitPlan },
            );
            // exit_plan_mode approved: the latch left planning, and the plan is the latch's.
            if (this.#planMode && !this.latch.isPlanning) {
              submitted = this.latch.plan ?? '';
              submittedWith = 'exit_plan_mode';
              return { ...answer, stop: true };
            }
            return answer;
          }
          // The turn is still being written: its text so far is what came before the call.
          const { answer, plan } = await this.#exitPlan(call, turn.turnText);
          if (plan !== undefined) {
            submitted = plan;
            submittedWith = 'exit_plan';
          }
          return answer;
        },
      });
      turnsLeft -= result.turns;
      ({ text, endedBy } = result);
      // A plain-text answer is the plan, as an exit_plan call with no arguments would submit it.
      if (result.status !== 'answered' || text.trim() === '') break;
      const verdict = await this.#askAboutPlan(text, 'plan');
      if (verdict.approved) {
        this.#leavePlanning(text);
        submitted = text;
        submittedWith = 'text';
      } else {
        messages.push({
          role: 'user',
          content: rejectionText(verdict.feedback, 'answer with the revised plan'),
        });
      }
    }
    const status =
      submitted !== null ? 'planned' : endedBy ? 'ended' : turnsLeft <= 0 ? 'max_turns' : 'answered';
    this.#unfinishedPlan = this.latch.isPlanning;
    this.#emit({ type: 'done', phase: 'plan', status });
    return { status, plan: submitted, submittedWith, text, messages, ...(endedBy && { endedBy }) };
  }

  /**
   * The executing phase: every tool the policy allows, until the model answers or runs out of
   * turns. Calling it after plan() means the caller approved: when that plan() ended with the
   * latch still planning (out of turns, or an empty answer), execute() leaves planning first,
   * with the last thing the model said as the plan. A latch that something else put in
   * planning (a parent agent, enter_plan_mode, your own `latch.enter()`) is left alone: the
   * tools stay as plan mode allows until that plan is approved where it is asked for.
   */
  async execute(messages: Message[]): Promise<ExecuteOutcome> {
    checkMessages(messages, 'execute');
    return this.#traced('execute', ({ provider }) => this.#execute(messages, provider));
  }

  async #execute(messages: Message[], provider: ModelProvider): Promise<ExecuteOutcome> {
    if (this.#unfinishedPlan && this.latch.isPlanning) {
      this.latch.exit(lastAssistantText(messages, true) || (this.latch.plan ?? ''));
    }
    this.#unfinishedPlan = false;
    const result = await this.#converse('execute', provider, messages, {
      tools: () => this.#guarded.definitions(),
      answer: (call) => this.#callTool(call),
    });
    const { endedBy } = result;
    const status = endedBy ? 'ended' : result.status === 'max_turns' ? 'max_turns' : 'answered';
    this.#emit({ type: 'done', phase: 'execute', status });
    return { status, text: result.text, messages, ...(endedBy && { endedBy }) };
  }

  /**
   * The plan loop: the model answers with a solution `{calls, output}`, its calls run, and the
   * model is asked again with the state and its plan until it gives an output. See {@link solve}.
   * Without `options.approve`, a call of a tool that needs approval is asked of `approveTool`.
   */
  async solve(input: string | Record<string, unknown>, options: SolveOptions = {}): Promise<SolveResult> {
    return this.#traced('solve', (invocation) => this.#solve(input, options, invocation));
  }

  async #solve(
    input: string | Record<string, unknown>,
    options: SolveOptions,
    { provider, runOptions }: TracedInvocation,
  ): Promise<SolveResult> {
    try {
      const classifier = classifierOf(this.context.policy);
      const result = await solve(input, agentSolveOptions(options, this.#options), {
        provider,
        runTracing: runOptions,
        tools: () => this.#guarded.tools(),
        // The policy's word on read-only (its allowlist, its trust), not the annotations alone.
        ...(classifier && { isReadOnly: (tool: Tool) => classifier.isReadOnly(tool.name, tool) }),
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
    checkOptions('PlanAgent.child', options, PLAN_AGENT_CHILD_OPTIONS);
    return new PlanAgent({
      ...this.#options,
      provider: options.provider ?? this.provider,
      tools: options.tools ?? this.#registry,
      maxTurns: options.maxTurns ?? this.#maxTurns,
      context: this.context.child(options.policy ? { policy: options.policy } : {}),
      // The same plan tools, todo list and plan file, not a second set.
      ...(this.#planMode && { planMode: this.#planMode }),
    });
  }

  /** Runs one of the agent's methods in its `invoke_agent` span when the agent traces. */
  #traced<T extends { status: string }>(
    phase: 'plan' | 'execute' | 'solve',
    body: (invocation: TracedInvocation) => Promise<T>,
  ): Promise<T> {
    const info = { agent: 'PlanAgent', phase, provider: this.provider } as const;
    return traceInvocation(this.#options.tracing, info, body, (result) => result.status);
  }

  async #converse(
    phase: 'plan' | 'execute',
    provider: ModelProvider,
    messages: Message[],
    how: Pick<Parameters<typeof converse>[0], 'tools' | 'answer'> & { readonly maxTurns?: number },
  ) {
    try {
      return await converse({
        provider,
        messages,
        tools: how.tools,
        answer: how.answer,
        maxTurns: how.maxTurns ?? this.#maxTurns,
        phase,
        extraMessages: () => this.#planMode?.reminders() ?? [],
        emit: (event) => this.#emit(event),
        ...(this.#options.signal && { signal: this.#options.signal }),
        ...(this.#options.maxToolCallsPerTurn !== undefined && {
          maxToolCallsPerTurn: this.#options.maxToolCallsPerTurn,
        }),
        ...(this.#options.maxConversationBytes !== undefined && {
          maxConversationBytes: this.#options.maxConversationBytes,
        }),
      });
    } catch (error) {
      this.#emit({ type: 'error', phase, error });
      throw error;
    }
  }

  async #callTool(
    call: ModelToolCall,
    options: { readonly planModeAdvice?: string } = {},
  ): Promise<ToolAnswer> {
    const result = await this.#guarded.call(call, {
      ...(this.#options.signal && { signal: this.#options.signal }),
      ...options,
    });
    return {
      message: result.message,
      outcome: result.status,
      ...(result.denial && { denial: result.denial }),
      ...(result.endedBy && { endedBy: result.endedBy }),
    };
  }

  /**
   * exit_plan: the plan is `plan`, or the text of the turn that calls it; it is asked about
   * (when someone approves plans), then the latch leaves planning. `plan` is set when it did.
   */
  async #exitPlan(call: ModelToolCall, turnText: string): Promise<{ answer: ToolAnswer; plan?: string }> {
    const refuse = (why: string): { answer: ToolAnswer } => ({
      answer: { outcome: 'failed', message: toolResult(call, why, true) },
    });
    if (call.argumentsError !== undefined) {
      return refuse(
        `The arguments of exit_plan could not be read (${call.argumentsError}). Call it with {"plan": "..."}, or with no arguments when the text of your turn is the plan.`,
      );
    }
    const given = call.arguments.plan;
    if (given !== undefined && typeof given !== 'string') {
      return refuse(
        `exit_plan's \`plan\` must be a string, not ${describeValue(given)}. Call it again with the plan as text.`,
      );
    }
    const plan = given !== undefined && given.trim() !== '' ? given : turnText;
    if (plan.trim() === '') {
      return refuse(
        'exit_plan needs a plan, and got none: pass the whole plan as `plan`, or write the plan as the text of the turn that calls exit_plan. Call it again with the plan.',
      );
    }
    const verdict = await this.#askAboutPlan(plan);
    if (!verdict.approved) {
      return {
        answer: {
          outcome: 'rejected',
          message: toolResult(call, rejectionText(verdict.feedback, 'call exit_plan again'), true),
        },
      };
    }
    this.#leavePlanning(plan);
    return {
      plan,
      answer: {
        outcome: 'plan-submitted',
        stop: true,
        message: toolResult(
          call,
          this.#options.approvePlan
            ? 'The plan was approved. Plan mode is over; carry the plan out next.'
            : 'The plan was submitted. Plan mode is over.',
          false,
        ),
      },
    };
  }

  /** approvePlan's answer; without one, every plan is accepted (the caller approves afterwards). */
  async #askAboutPlan(plan: string, phase?: 'plan'): Promise<{ approved: boolean; feedback?: string }> {
    const approve = this.#options.approvePlan;
    if (!approve) return { approved: true };
    try {
      return readApproval(await approve({ kind: 'plan', plan, reason: PLAN_REASON }));
    } catch (error) {
      // Inside a turn, #converse reports it; after the turn (a plain-text plan), here.
      if (phase) this.#emit({ type: 'error', phase, error });
      throw error;
    }
  }

  /** planning -> executing; a latch that left planning while the plan was asked about stays as it is. */
  #leavePlanning(plan: string): void {
    if (this.latch.isPlanning) this.latch.exit(plan);
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
