/**
 * Plan mode in one call, for any agent loop: the latch, a plan-mode policy over a base policy,
 * the plan tools (enter_plan_mode, exit_plan_mode, plan_write, todo_write) added to the
 * agent's own tools, the guard in front of all of them, the todo reminder, and one snapshot of
 * it all. This is what adk-fluent's `H.plan_mode_plugin()` and AgentScope's
 * `enablePlanMode().enableTaskList()` install; `PlanAgent` uses it for its `planMode` option.
 */
import { ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/tool.js';
import type { Approve, CallApprovalRequest, PlanApprovalRequest } from '../../run/approval.js';
import { describeValue } from '../../language/describe-value.js';
import type { PlanStore } from '../plan-store/index.js';
import { type GuardedTools, guardTools } from './guard-tools.js';
import type { Message } from '../model.js';
import type { PermissionChecker, PermissionPolicyOptions } from '../permissions/index.js';
import type { PlanFile } from './plan-file.js';
import { PlanMode } from './plan-mode.js';
import { PlanModeContext } from './plan-mode-context.js';
import {
  DEFAULT_MAX_PLAN_LENGTH,
  type PlanModeSnapshot,
  planModeSnapshot,
  restorePlanMode,
} from './plan-mode-snapshot.js';
import { DEFAULT_PLANS_DIR, planTools, TODOS_KEY } from './plan-tools.js';
import { todoReminder } from './todo-reminder.js';
import { TodoList } from './todos.js';
import { defaultPlanModeContext } from './default-context.js';
import { checkOptions } from '../../language/option-keys.js';
import { PLAN_MODE_SETUP_OPTIONS } from './option-specs.js';

export interface PlanModeSetupOptions {
  /**
   * The agent's own tools; the plan tools are added to them.
   * @default []
   */
  readonly tools?: Iterable<Tool> | ToolRegistry;
  /**
   * Asked by `exit_plan_mode` to approve the plan (the human in the loop); a no keeps plan mode
   * on and gives the model the feedback. Required.
   */
  readonly approve: Approve<PlanApprovalRequest<string>>;
  /**
   * Asked when the policy says `ask` about a call.
   * @default undefined: asks are denied, with a reason the model can read
   */
  readonly approveTool?: Approve<CallApprovalRequest>;
  /**
   * The latch and policy to use, e.g. a parent agent's (`context.child()`).
   * @default a new PlanMode with a PlanModePolicy over a PermissionPolicy built from `permissions`
   */
  readonly context?: PlanModeContext;
  /**
   * The rules and mode of the default base policy (ignored when `context` is given); `tools`
   * is filled in with the agent's tools.
   * @default { mode: 'bypassPermissions' }: every tool is allowed, except mutating ones while planning
   */
  readonly permissions?: PermissionPolicyOptions;
  /**
   * The plan file's folder, created when missing and opened once, now. Relative to the working
   * directory at this call.
   * @default 'plans' under the working directory (`process.cwd()`)
   */
  readonly plansDir?: string;
  /**
   * Where plan mode keeps its files: the plan file, the todo list (`todos.json`) and the
   * snapshot `save()` writes (`plan-mode.json`). Not with `plansDir`; `close()` leaves a store
   * given here open.
   * @default a LocalFolderStore over `plansDir`
   */
  readonly store?: PlanStore;
  /**
   * The plan file's name inside `plansDir` (the key in `store`): a plain file name of ASCII
   * letters, digits, `.`, `_` and `-`, not starting with `.`.
   * @default 'PLAN.md'
   */
  readonly planFile?: string;
  /**
   * The list `todo_write` replaces.
   * @default a new TodoList
   */
  readonly todos?: TodoList;
  /**
   * The longest plan, in characters, that plan_write, exit_plan_mode and a snapshot take.
   * @default 100_000
   */
  readonly maxPlanLength?: number;
  /**
   * Show the todo list to the model before each turn (see `reminders()`).
   * @default true
   */
  readonly reminders?: boolean;
}

export interface PlanModeSetup {
  readonly latch: PlanMode;
  readonly policy: PermissionChecker;
  /** The latch and policy together, to hand to child agents (`context.child()`). */
  readonly context: PlanModeContext;
  readonly todos: TodoList;
  /** The plan file plan_write writes. */
  readonly planFile: PlanFile;
  /** Where plan mode keeps its files: the plan file, `todos.json`, and `plan-mode.json` (save). */
  readonly store: PlanStore;
  /** The four plan tools, unguarded: to give another agent that shares this plan mode. */
  readonly planTools: readonly Tool[];
  /** The agent's tools and the plan tools behind the policy: definitions, tools and call. */
  readonly guarded: GuardedTools;
  /** Whether `reminders()` shows the todo list. */
  readonly remindersOn: boolean;
  /**
   * The tools to give the agent loop now: the agent's own and the plan tools, minus what the
   * policy denies in the latch's current state, each `execute` checked again when it runs.
   * Ask before every model request: the latch may have flipped.
   */
  tools(): Tool[];
  /**
   * The messages to add at the end of the next model request (not to the conversation): the
   * todo reminder, when reminders are on and the list is not empty; else none.
   */
  reminders(): Message[];
  /** Saves the latch, the todo list and the plan file's content as one JSON-safe object. */
  snapshot(): Promise<PlanModeSnapshot>;
  /**
   * Restores a snapshot (untrusted: checked whole first) into this setup's latch, list and plan
   * file, and keeps the restored list in the store (`todos.json`).
   */
  restore(snapshot: unknown): Promise<void>;
  /**
   * Saves the snapshot in the store, under `plan-mode.json` (one write: a reader sees the
   * previous snapshot or this one), and returns it.
   */
  save(): Promise<PlanModeSnapshot>;
  /**
   * Restores the snapshot `save()` last kept in the store (on this replica or another).
   * @returns false, changing nothing, when the store holds none.
   */
  load(): Promise<boolean>;
  /**
   * Releases the plans folder when the setup opened it (a `store` given is left open);
   * afterwards plan_write and todo_write are refused. Idempotent.
   */
  close(): void;
}

const setups = new WeakSet<object>();

/** The store key `save()` writes the snapshot under and `load()` reads it from. */
export const SNAPSHOT_KEY = 'plan-mode.json';

/** Whether `value` was made by `setupPlanMode()`. */
export function isPlanModeSetup(value: unknown): value is PlanModeSetup {
  return value !== null && typeof value === 'object' && setups.has(value);
}

/**
 * @throws {TypeError} naming the bad option value, or a plansDir that cannot be created or opened.
 * @throws {ToolDefinitionError} for bad tools.
 */
export function setupPlanMode(options: PlanModeSetupOptions): PlanModeSetup {
  const where = 'setupPlanMode';
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${where}: options must be an object, not ${describeValue(options)}`);
  }
  checkOptions(where, options, PLAN_MODE_SETUP_OPTIONS);
  const {
    tools = [],
    approve,
    approveTool,
    context,
    permissions,
    plansDir,
    store,
    planFile,
    todos = new TodoList(),
    maxPlanLength = DEFAULT_MAX_PLAN_LENGTH,
    reminders = true,
  } = options;
  if (typeof approve !== 'function') {
    throw new TypeError(
      `${where}: approve must be a function that asks a person about the plan (exit_plan_mode), not ${describeValue(approve)}`,
    );
  }
  if (approveTool !== undefined && typeof approveTool !== 'function') {
    throw new TypeError(`${where}: approveTool must be a function, not ${describeValue(approveTool)}`);
  }
  if (context !== undefined && !(context instanceof PlanModeContext)) {
    throw new TypeError(`${where}: context must be a PlanModeContext, not ${describeValue(context)}`);
  }
  if (permissions !== undefined && (permissions === null || typeof permissions !== 'object')) {
    throw new TypeError(`${where}: permissions must be an object, not ${describeValue(permissions)}`);
  }
  if (typeof reminders !== 'boolean') {
    throw new TypeError(`${where}: reminders must be true or false, not ${describeValue(reminders)}`);
  }
  if (!(todos instanceof TodoList)) {
    throw new TypeError(`${where}: todos must be a TodoList, not ${describeValue(todos)}`);
  }
  const registry = ToolRegistry.from(tools);
  const shared = context ?? defaultPlanModeContext(registry, permissions);
  if (planFile === SNAPSHOT_KEY) {
    throw new TypeError(
      `${where}: planFile must not be ${SNAPSHOT_KEY}: save() keeps the snapshot under that name`,
    );
  }
  const made = planTools({
    latch: shared.latch,
    ...(store === undefined ? { plansDir: plansDir ?? DEFAULT_PLANS_DIR } : { store }),
    ...(plansDir !== undefined && store !== undefined && { plansDir }),
    approve,
    todos,
    maxPlanLength,
    ...(planFile !== undefined && { planFile }),
  });
  let guarded: GuardedTools;
  try {
    guarded = guardTools([...registry.tools(), ...made], shared.policy, {
      ...(approveTool && { approve: approveTool }),
      // A child's policy (strictestOf) has no latch of its own to report in denials.
      latch: shared.latch,
    });
  } catch (error) {
    made.close();
    throw error;
  }
  const parts = { latch: shared.latch, todos, planFile: made.file, maxPlanLength };
  const kept = made.file.store;
  const restore = async (snapshot: unknown) => {
    await restorePlanMode(snapshot, parts);
    await kept.write(TODOS_KEY, JSON.stringify(todos.toJSON()));
  };
  const setup: PlanModeSetup = Object.freeze({
    latch: shared.latch,
    policy: shared.policy,
    context: shared,
    todos,
    planFile: made.file,
    store: kept,
    planTools: Object.freeze([...made]),
    guarded,
    remindersOn: reminders,
    tools: () => guarded.tools(),
    reminders: () => {
      const message = reminders ? todoReminder(todos.items) : null;
      return message ? [message] : [];
    },
    snapshot: () => planModeSnapshot(parts),
    restore,
    save: async () => {
      const snapshot = await planModeSnapshot(parts);
      await kept.write(SNAPSHOT_KEY, JSON.stringify(snapshot));
      return snapshot;
    },
    load: async () => {
      const text = await kept.read(SNAPSHOT_KEY);
      if (text === null) return false;
      await restore(text);
      return true;
    },
    close: () => made.close(),
  });
  setups.add(setup);
  return setup;
}
