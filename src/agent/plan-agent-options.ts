/**
 * What a PlanAgent is made with (its model, tools, plan mode, approvals, budget), what a child
 * may change, and what plan() and execute() end with. Apart from the class so that a reader
 * (and the docs) can find the agent's whole contract in one place.
 */
import type { LoopEnding } from '../tools/end-loop.js';
import { optionKeys, type OptionSpec } from '../language/option-keys.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import type { Approve, CallApprovalRequest, PlanApprovalRequest } from '../run/approval.js';
import type { Limiter } from '../run/limit/index.js';
import type { TracingOptions } from '../run/trace/tracing-options.js';
import type { AgentEventListener } from './agent-events.js';
import type { Message, ModelProvider } from './model.js';
import type { PermissionChecker, PermissionPolicyOptions } from './permissions/index.js';
import type { PlanAgentPlanModeOptions } from './plan-agent-plan-mode.js';
import type { PlanModeContext, PlanModeSetup } from './plan-mode/index.js';
import type { SolveBudget } from './plan-loop/index.js';

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
   * Plan mode in one option: the plan tools (enter_plan_mode, exit_plan_mode, plan_write,
   * todo_write) added to `tools`, the guard and the plan-mode policy, and the todo list shown to
   * the model before each turn. `true` takes the defaults (plans in `plans` under the working
   * directory, reminders on); an object sets `plansDir` or `store` (where the plan file, todo
   * list and saved snapshot are kept), `planFile`, `todos`, `maxPlanLength`, `reminders`; a `setupPlanMode()` result shares that plan mode (latch, plan tools, todos).
   * Needs `approvePlan` (asked by exit_plan_mode). The setup is `agent.planMode`.
   * @default false: no plan tools, no reminders
   */
  readonly planMode?: boolean | PlanAgentPlanModeOptions | PlanModeSetup;
  /**
   * Asked when the policy says `ask` about a call, and about each call of a tool that
   * `needsApproval` (in plan(), execute(), and in solve() when its own `approve` is not given).
   * @default undefined: asks are denied, with a reason the model can read
   */
  readonly approveTool?: Approve<CallApprovalRequest>;
  /**
   * Asked when the model submits its plan in plan(): with exit_plan, or as a plain-text answer.
   * A no (with feedback, handed to the model) keeps planning.
   * @default undefined: the plan is accepted as submitted (the caller approves it afterwards)
   */
  readonly approvePlan?: Approve<PlanApprovalRequest<string>>;
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
   * Most tool calls one model reply may make in `plan()` and `execute()`: the HTTP providers
   * stop reading the reply at the one past it, and the call fails with a TooManyToolCallsError
   * before any of its tool calls runs.
   * @default DEFAULT_MAX_TOOL_CALLS_PER_TURN (256)
   */
  readonly maxToolCallsPerTurn?: number;
  /**
   * Most bytes the conversation of a `plan()` or `execute()` may hold when the model is asked
   * again (text, arguments, results, and 64 bytes per message and per tool call): past it the
   * call fails with a ConversationTooLargeError, and the request is not sent.
   * @default DEFAULT_MAX_CONVERSATION_BYTES (16 MiB)
   */
  readonly maxConversationBytes?: number;
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
  /**
   * The budget of every `solve()`: calls per plan and in total, model turns, tokens, wall time.
   * A field that solve()'s own `budget` option sets wins over this one.
   * @default DEFAULT_BUDGET
   */
  readonly budget?: SolveBudget;
  /**
   * The quotas every run the agent starts keeps (each turn's run of `solve()`, when the call
   * gives no `limiter` of its own): give the limiter of the process's other runs and loops, so
   * one quota per tool holds across all of them (see `createLimiter`).
   * @default a limiter per run, when a tool declares a quota
   */
  readonly limiter?: Limiter;
  /**
   * OpenTelemetry spans of each plan(), execute() and solve(): an `invoke_agent` span with a
   * `chat` span per model turn and the runs it starts under it (see docs/observability.md).
   * `recordArguments` records the messages sent, `recordResults` the replies (and, for runs,
   * calls' arguments and results); `false` turns tracing off for the agent and its runs.
   * @default traces when a global tracer provider is registered with `@opentelemetry/api`
   */
  readonly tracing?: TracingOptions | false;
}

export interface PlanOutcome {
  /**
   * `planned`: the model submitted a plan, with exit_plan (exit_plan_mode under `planMode`) or
   * as its plain-text answer (approved when `approvePlan` is set), and the latch left planning; `answered`: it ended
   * with an empty turn, so there is no plan; `max_turns`: it ran out of turns while planning;
   * `ended`: a tool ended the loop (`endLoop()`, see `endedBy`) before a plan came.
   */
  readonly status: 'planned' | 'answered' | 'max_turns' | 'ended';
  /** With `ended`: which tool ended the loop, in which call, and why. */
  readonly endedBy?: LoopEnding;
  /** The plan submitted, or null. */
  readonly plan: string | null;
  /**
   * How the plan came: `exit_plan` (the tool), `exit_plan_mode` (the plan tools, when the
   * `planMode` option installed them; approved by `approvePlan`), `text` (a plain-text answer),
   * or null.
   */
  readonly submittedWith: 'exit_plan' | 'exit_plan_mode' | 'text' | null;
  /** The text of the model's last turn. */
  readonly text: string;
  /** The conversation (the array passed in, appended to). */
  readonly messages: Message[];
}

export interface ExecuteOutcome {
  /**
   * `answered`: the model answered without tools; `max_turns`: out of turns; `ended`: a tool
   * ended the loop (`endLoop()`): the turn it was in was answered whole, and no request followed.
   */
  readonly status: 'answered' | 'max_turns' | 'ended';
  /** With `ended`: which tool ended the loop, in which call, and why. */
  readonly endedBy?: LoopEnding;
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
   * The child's model turns per task.
   * @default the parent's maxTurns
   */
  readonly maxTurns?: number;
}

/** Every key of PlanAgentOptions: the constructor refuses any other. */
export const PLAN_AGENT_OPTIONS = optionKeys<PlanAgentOptions>({
  provider: true,
  tools: true,
  context: true,
  permissions: true,
  planMode: true,
  approveTool: true,
  approvePlan: true,
  planningPrompt: true,
  maxTurns: true,
  maxToolCallsPerTurn: true,
  maxConversationBytes: true,
  onEvent: true,
  signal: true,
  budget: true,
  limiter: true,
  tracing: true,
});

/** Every key of PlanAgentChildOptions; maxTurns is checked again by the child's constructor. */
export const PLAN_AGENT_CHILD_OPTIONS: OptionSpec<PlanAgentChildOptions> = {
  tools: 'any',
  provider: 'any',
  policy: 'any',
  maxTurns: 'count',
};
