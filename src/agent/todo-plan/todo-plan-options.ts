/**
 * The options of `planTodos()` and `TodoPlan.from()`, checked once and turned into what a plan
 * runs with: the model, the tools behind the guard and policy, the bounds, the listener and
 * the hooks.
 */
import { DEFAULT_LIMITS, type Limits, resolveLimits } from '../../language/limits.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/tool.js';
import type { AgentEvent } from '../agent-events.js';
import type { Approve, CallApprovalRequest, PlanApprovalRequest } from '../../run/approval.js';
import { describeValue } from '../../language/describe-value.js';
import {
  defaultPlanModeContext,
  type GuardedTools,
  guardTools,
  PlanModeContext,
} from '../plan-mode/index.js';
import type { Message, ModelProvider } from '../model.js';
import { readHistoryOption } from './todo-plan-snapshot.js';
import type { PermissionPolicyOptions } from '../permissions/index.js';
import {
  TODO_PLAN_HOOK_NAMES,
  type TodoPlanEvent,
  type TodoPlanHooksOf,
  type TodoPlanListener,
} from './todo-plan-events.js';
import { checkOptions } from '../../language/option-keys.js';
import { checkTracingOptions, type TracingOptions } from '../../run/trace/tracing-options.js';
import { TODO_PLAN_OPTIONS } from './option-specs.js';

/**
 * The options of a todo plan, generic in the plan its hooks are given (see TodoPlanHooksOf):
 * `TodoPlanOptions` (todo-plan.ts) is these over a TodoPlan.
 */
export interface TodoPlanOptionsOf<Plan> {
  /** The model: it makes the todos, carries each out and reflects after each. Required. */
  readonly provider: ModelProvider;
  /** The tools the todos may use (subject to the policy). Required. */
  readonly tools: Iterable<Tool> | ToolRegistry;
  /**
   * The plan-mode latch and policy the todos run under, shared with a parent agent: while its
   * latch is planning, the todos get read-only tools only. The plan never flips a latch it is
   * given.
   * @default a latch of the plan's own (planning while the todos are made, executing once they
   *   are approved) with a PlanModePolicy over a PermissionPolicy built from `permissions`
   */
  readonly context?: PlanModeContext;
  /**
   * The rules and mode of the default policy (ignored when `context` is given); `tools` is
   * filled in with the plan's tools.
   * @default { mode: 'bypassPermissions' }: every tool given is allowed once the todos are approved
   */
  readonly permissions?: PermissionPolicyOptions;
  /**
   * Asked when the policy says `ask` about a tool call.
   * @default undefined: asks are denied, with a reason the model can read
   */
  readonly approveTool?: Approve<CallApprovalRequest>;
  /**
   * `planTodos()` only: asked with the todo list (Markdown) before anything runs. A no with
   * feedback sends the feedback to the model for a new list (at most 5 times); a plain no
   * throws ApprovalRejectedError.
   * @default undefined: the todos run as the model made them
   */
  readonly approvePlan?: Approve<PlanApprovalRequest<string>>;
  /**
   * Your own instructions, sent as a system message before planmode's in every request of the
   * plan (gollem's WithPlanSystemPrompt).
   * @default none
   */
  readonly systemPrompt?: string;
  /**
   * Messages the plan starts from (gollem's WithPlanHistory): an earlier conversation, sent after
   * the system messages and before planmode's own in every request of the plan (making the
   * todos, each todo's turn, each reflection). Checked and copied as a snapshot's messages are.
   * @default none
   */
  readonly history?: readonly Message[];
  /**
   * Most todos in the plan at any time (the model's list, and after each revision).
   * @default 20
   */
  readonly maxTodos?: number;
  /**
   * Most reflections, one after each todo (and one after a revision that left nothing
   * pending); then the plan ends `max_iterations`.
   * @default 20
   */
  readonly maxIterations?: number;
  /**
   * Most model turns in one todo's agent turn; then the todo fails.
   * @default 10
   */
  readonly maxTurnsPerTodo?: number;
  /**
   * Most times one unreadable todo list or reflection goes back to the model with what is
   * wrong; then the plan fails.
   * @default 2
   */
  readonly maxRepairs?: number;
  /**
   * Bounds on what the model, the tools and a snapshot hand the plan.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
  /**
   * Receives the plan's events and each todo's agent events; what it throws is dropped.
   * @default undefined
   */
  readonly onEvent?: TodoPlanListener;
  /**
   * gollem's hooks, awaited at each stage; a throw stops the plan there (resumable).
   * @default {}
   */
  readonly hooks?: TodoPlanHooksOf<Plan>;
  /**
   * Aborts model requests and tool calls; the todo running goes back to pending.
   * @default undefined
   */
  readonly signal?: AbortSignal;
  /**
   * OpenTelemetry spans: an `invoke_agent TodoPlan` span for planTodos(), execute() and step(),
   * with a `chat` span per model turn under it (see docs/observability.md). `recordArguments`
   * records the messages sent, `recordResults` the replies; `false` turns tracing off.
   * @default traces when a global tracer provider is registered with `@opentelemetry/api`
   */
  readonly tracing?: TracingOptions | false;
}

/** What a plan runs with, once the options are checked. */
export interface TodoPlanRuntime<Plan> {
  readonly provider: ModelProvider;
  readonly guarded: GuardedTools;
  readonly context: PlanModeContext;
  /** The latch is the plan's own, so the plan moves it (planning, then executing). */
  readonly ownsLatch: boolean;
  readonly approvePlan: Approve<PlanApprovalRequest<string>> | undefined;
  readonly systemPrompt: string | undefined;
  /** The `history` option, checked and copied: sent in every request. */
  readonly history: readonly Message[];
  readonly maxTodos: number;
  readonly maxIterations: number;
  readonly maxTurnsPerTodo: number;
  readonly maxRepairs: number;
  readonly limits: Limits;
  readonly hooks: TodoPlanHooksOf<Plan>;
  readonly signal: AbortSignal | undefined;
  readonly tracing: TracingOptions | false | undefined;
  /** Tells the listener; never throws. */
  readonly emit: (event: TodoPlanEvent | AgentEvent) => void;
}

export const TODO_PLAN_DEFAULTS = {
  maxTodos: 20,
  maxIterations: 20,
  maxTurnsPerTodo: 10,
  maxRepairs: 2,
} as const;

/** The most `maxTodos` may be: each todo is shown to the model in every request. */
export const MAX_TODOS_CEILING = 1_000;

/**
 * @param where The function, for messages: `planTodos`, `TodoPlan.from`.
 * @throws {TypeError} naming the option and the bad value; {@link ToolDefinitionError} for bad tools.
 */
export function resolveTodoPlanOptions<Plan>(
  options: TodoPlanOptionsOf<Plan>,
  where: string,
): TodoPlanRuntime<Plan> {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${where}: options must be an object, not ${describeValue(options)}`);
  }
  checkOptions(where, options, TODO_PLAN_OPTIONS);
  const { provider, tools, context, signal, systemPrompt, onEvent } = options;
  if (provider === null || typeof provider !== 'object' || typeof provider.stream !== 'function') {
    throw new TypeError(`${where}: provider must be a ModelProvider, not ${describeValue(provider)}`);
  }
  if (tools === null || typeof tools !== 'object') {
    throw new TypeError(
      `${where}: tools must be an array of tools or a ToolRegistry, not ${describeValue(tools)}`,
    );
  }
  if (context !== undefined && !(context instanceof PlanModeContext)) {
    throw new TypeError(`${where}: context must be a PlanModeContext, not ${describeValue(context)}`);
  }
  for (const name of ['approveTool', 'approvePlan', 'onEvent'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`${where}: ${name} must be a function, not ${describeValue(options[name])}`);
    }
  }
  if (systemPrompt !== undefined && (typeof systemPrompt !== 'string' || systemPrompt.trim() === '')) {
    throw new TypeError(
      `${where}: systemPrompt must be a non-empty string, not ${describeValue(systemPrompt)}`,
    );
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`${where}: signal must be an AbortSignal, not ${describeValue(signal)}`);
  }
  checkTracingOptions(options.tracing);
  const count = (name: keyof typeof TODO_PLAN_DEFAULTS, least: number, most = Number.MAX_SAFE_INTEGER) => {
    const value = options[name] ?? TODO_PLAN_DEFAULTS[name];
    if (!Number.isSafeInteger(value) || value < least || value > most) {
      throw new TypeError(
        `${where}: ${name} must be a whole number from ${least} to ${most}, not ${describeValue(value)}`,
      );
    }
    return value;
  };
  const limits =
    options.limits === undefined ? DEFAULT_LIMITS : resolveLimits(options.limits, `${where}: limits`);
  const history = options.history === undefined ? [] : readHistoryOption(options.history, where, limits);
  const registry = ToolRegistry.from(tools);
  const ownsLatch = context === undefined;
  const planContext = context ?? defaultPlanModeContext(registry, options.permissions);
  return {
    provider,
    guarded: guardTools(registry, planContext.policy, {
      ...(options.approveTool && { approve: options.approveTool }),
    }),
    context: planContext,
    ownsLatch,
    approvePlan: options.approvePlan,
    systemPrompt,
    history,
    maxTodos: count('maxTodos', 1, MAX_TODOS_CEILING),
    maxIterations: count('maxIterations', 1),
    maxTurnsPerTodo: count('maxTurnsPerTodo', 1),
    maxRepairs: count('maxRepairs', 0),
    limits,
    hooks: readHooks(options.hooks, where),
    signal,
    tracing: options.tracing,
    emit: (event) => {
      if (!onEvent) return;
      try {
        onEvent(event);
      } catch {
        // A listener only watches; its failure is its own, and the plan goes on.
      }
    },
  };
}

function readHooks<Plan>(hooks: TodoPlanHooksOf<Plan> | undefined, where: string): TodoPlanHooksOf<Plan> {
  if (hooks === undefined) return {};
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) {
    throw new TypeError(`${where}: hooks must be an object of hook functions, not ${describeValue(hooks)}`);
  }
  for (const name of Object.keys(hooks)) {
    if (!(TODO_PLAN_HOOK_NAMES as readonly string[]).includes(name)) {
      throw new TypeError(
        `${where}: hooks.${name} is not a hook; the hooks are ${TODO_PLAN_HOOK_NAMES.join(', ')}`,
      );
    }
    const hook = (hooks as Record<string, unknown>)[name];
    if (hook !== undefined && typeof hook !== 'function') {
      throw new TypeError(`${where}: hooks.${name} must be a function, not ${describeValue(hook)}`);
    }
  }
  return { ...hooks };
}
