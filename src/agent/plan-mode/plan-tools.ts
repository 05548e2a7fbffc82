/**
 * The tools that let a model drive plan mode: `enter_plan_mode`, `exit_plan_mode` (a person
 * approves the plan), `plan_write` (the plan file, the one write plan mode permits) and
 * `todo_write`. Plain planmode Tools with JSON Schemas, so they work in agents and in plans.
 */
import { ApprovalRejectedError, PermissionDeniedError, PlanModeTransitionError } from '../../errors.js';
import { resolve } from 'node:path';
import type { Tool } from '../../tools/tool.js';
import { type Approve, type PlanApprovalRequest, readApproval } from '../../run/approval.js';
import { describeValue } from '../../language/describe-value.js';
import type { PlanStore } from '../plan-store/index.js';
import { isPlanStore, PlanFile, storeRefusal } from './plan-file.js';
import { isPlanModeLatch, type PlanMode } from './plan-mode.js';
import { markPlanTool } from '../permissions/index.js';
import { readTodos, type Todo, TODO_STATUSES, TodoList } from './todos.js';
import { checkOptions } from '../../language/option-keys.js';
import { PLAN_TOOLS_OPTIONS } from './option-specs.js';

export interface PlanToolsOptions {
  /** The latch the tools flip. Required. */
  readonly latch: PlanMode;
  /**
   * The directory of the plan file (the default store's folder). Created when missing and
   * opened once, by `planTools()` itself; the tools then use that open folder and never follow
   * the name again. A relative path is resolved once, against the working directory at that
   * moment. Not with `store`.
   * @default 'plans' under the working directory (`process.cwd()`)
   */
  readonly plansDir?: string;
  /**
   * Where the plan file (`planFile`) and the todo list (`todos.json`) are kept: a PlanStore
   * (LocalFolderStore, MemoryPlanStore, RedisPlanStore or your own). The tools do not close a
   * store given here.
   * @default a LocalFolderStore over `plansDir`, closed by `close()`
   */
  readonly store?: PlanStore;
  /**
   * Asked by `exit_plan_mode` to approve the plan; a no keeps plan mode on and hands the
   * feedback to the model. Required: leaving plan mode without a person is `latch.exit()`.
   */
  readonly approve: Approve<PlanApprovalRequest<string>>;
  /**
   * The plan file's name inside `plansDir`: a plain file name, no directories.
   * @default 'PLAN.md'
   */
  readonly planFile?: string;
  /**
   * Where `todo_write` keeps the list; pass your own to read it.
   * @default a new TodoList
   */
  readonly todos?: TodoList;
  /**
   * The longest plan, in characters, that `plan_write` and `exit_plan_mode` accept.
   * @default 100_000
   */
  readonly maxPlanLength?: number;
}

const PLAN_SCHEMA = { type: 'string', minLength: 1 } as const;

/** The approval request's `reason` when the model submits a plan. */
const EXIT_REASON = 'the model asks to leave plan mode and carry out this plan';

/** The plans folder's name under the working directory when no `plansDir` is given. */
export const DEFAULT_PLANS_DIR = 'plans';

/** The store key `todo_write` keeps the todo list under, as `TodoList.toJSON()` text. */
export const TODOS_KEY = 'todos.json';

/**
 * The four plan tools, with what they hold. The extra members are not enumerable: the array
 * still looks (and spreads, and serializes) like a plain list of tools.
 */
export type PlanToolList = Tool[] & {
  /**
   * Releases the plans folder the tools hold open (afterwards plan_write and exit_plan_mode
   * without a `plan` are refused). Without it, the folder is released when the tools are
   * garbage collected.
   */
  close(): void;
  /** The plan file `plan_write` writes, for reading it or saving it with the rest of plan mode; `file.store` is the store. */
  readonly file: PlanFile;
  /** The list `todo_write` replaces (the one given, or the one made). */
  readonly todos: TodoList;
};

/**
 * @returns the four tools, in the order enter_plan_mode, exit_plan_mode, plan_write, todo_write
 *   (see {@link PlanToolList} for `close()`, `file` and `todos`).
 * @throws {TypeError} naming the bad option value, or a plansDir that cannot be created or opened.
 */
export function planTools(options: PlanToolsOptions): PlanToolList {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`planTools: options must be an object, not ${describeValue(options)}`);
  }
  checkOptions('planTools', options, PLAN_TOOLS_OPTIONS);
  const {
    latch,
    plansDir = DEFAULT_PLANS_DIR,
    store,
    approve,
    planFile = 'PLAN.md',
    todos = new TodoList(),
    maxPlanLength = 100_000,
  } = options;
  if (!isPlanModeLatch(latch))
    throw new TypeError(`planTools: latch must be a PlanMode, not ${describeValue(latch)}`);
  if (typeof approve !== 'function') {
    throw new TypeError(
      `planTools: approve must be a function that asks a person about the plan, not ${describeValue(approve)}`,
    );
  }
  if (!(todos instanceof TodoList))
    throw new TypeError(`planTools: todos must be a TodoList, not ${describeValue(todos)}`);
  if (!Number.isSafeInteger(maxPlanLength) || maxPlanLength < 1) {
    throw new TypeError(
      `planTools: maxPlanLength must be a positive integer, not ${describeValue(maxPlanLength)}`,
    );
  }
  if (typeof plansDir !== 'string' || plansDir === '' || plansDir.includes('\0')) {
    throw new TypeError(`planTools: plansDir must be a directory path, not ${describeValue(plansDir)}`);
  }
  if (store !== undefined) {
    if (!isPlanStore(store)) {
      throw new TypeError(
        `planTools: store must be a PlanStore (LocalFolderStore, MemoryPlanStore, RedisPlanStore), not ${describeValue(store)}`,
      );
    }
    if (options.plansDir !== undefined) {
      throw new TypeError(
        "planTools: plansDir and store were both given; plansDir is the default store's folder, so give the folder to the store (new LocalFolderStore({ dir })) instead",
      );
    }
  }
  if (planFile === TODOS_KEY) {
    throw new TypeError(
      `planTools: planFile must not be ${TODOS_KEY}: todo_write keeps the todo list under that name`,
    );
  }
  // Resolved now: a later process.chdir() must not move where the plan goes.
  const file = new PlanFile(store ?? resolve(plansDir), planFile, 'planTools');

  const checkPlan = (plan: unknown, what: string): string => {
    if (typeof plan !== 'string' || plan.trim() === '') {
      throw new TypeError(
        `${what} must be a non-empty string describing the plan, not ${describeValue(plan)}`,
      );
    }
    if (plan.length > maxPlanLength) {
      throw new TypeError(
        `${what} has ${plan.length} characters; at most ${maxPlanLength} are allowed, so shorten it`,
      );
    }
    return plan;
  };

  const enterPlanMode: Tool = {
    name: 'enter_plan_mode',
    description:
      'Enter plan mode before a change that needs thought or approval. In plan mode only read-only tools work: explore, then write the plan with plan_write and call exit_plan_mode to ask the user to approve it.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    execute: () =>
      latch.enter()
        ? `Plan mode is on. Use read-only tools to explore; mutating tools are denied. Write the plan with plan_write (${file.path}) and call exit_plan_mode when it is ready for approval.`
        : 'Plan mode is already on. Finish the plan and call exit_plan_mode to ask for approval.',
  };

  const exitPlanMode: Tool = {
    name: 'exit_plan_mode',
    description: `Ask the user to approve the plan and leave plan mode. Pass the plan as \`plan\` (markdown), or leave it out to submit the plan file written with plan_write. If the user rejects it, plan mode stays on and you get their feedback.`,
    inputSchema: {
      type: 'object',
      properties: { plan: { ...PLAN_SCHEMA, description: 'The plan, in markdown; default: the plan file' } },
      additionalProperties: false,
    },
    execute: async (args) => {
      if (!latch.isPlanning) {
        throw new PlanModeTransitionError(
          'exit',
          latch.state,
          `exit_plan_mode needs plan mode, but plan mode is ${latch.state === 'off' ? 'off' : 'already left (executing)'}; call enter_plan_mode first if you want a plan approved`,
        );
      }
      let plan: string;
      let from: string | undefined;
      if (args.plan === undefined) {
        // No plan within maxPlanLength characters takes more than 3 bytes a character in UTF-8.
        const written = await file.read({ maxBytes: Math.min(maxPlanLength * 3, Number.MAX_SAFE_INTEGER) });
        if (written === null) {
          throw new TypeError(
            `there is no plan to submit: pass \`plan\`, or write ${file.path} with plan_write first`,
          );
        }
        plan = checkPlan(written, `the plan file ${file.path}`);
        from = file.path;
      } else {
        plan = checkPlan(args.plan, 'plan');
      }
      const answer = readApproval(
        await approve(
          from === undefined
            ? { kind: 'plan', plan, reason: EXIT_REASON }
            : { kind: 'plan', plan, reason: EXIT_REASON, file: from },
        ),
      );
      if (!answer.approved) {
        throw new ApprovalRejectedError(
          'the plan',
          answer.feedback,
          'Plan mode is still on: revise the plan to address this and call exit_plan_mode again',
        );
      }
      if (!latch.isPlanning) {
        throw new PlanModeTransitionError(
          'exit',
          latch.state,
          `plan mode was left while the plan waited for approval (it is now ${latch.state}); nothing was changed`,
        );
      }
      latch.exit(plan);
      return 'The user approved the plan. Plan mode is off: carry out the plan now.';
    },
  };

  const planWrite: Tool = {
    name: 'plan_write',
    description: `Write the plan (markdown) to the plan file ${file.path}, replacing what was there. This is the one write plan mode permits; it cannot write anywhere else.`,
    inputSchema: {
      type: 'object',
      properties: { content: { ...PLAN_SCHEMA, description: 'The whole plan, in markdown' } },
      required: ['content'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    execute: async (args) => {
      const content = checkPlan(args.content, 'content');
      await file.write(content);
      return `Wrote the plan to ${file.path} (${content.length} characters).${latch.isPlanning ? ' Call exit_plan_mode when it is ready for approval.' : ''}`;
    },
  };

  const todoWrite: Tool = {
    name: 'todo_write',
    description:
      'Replace the whole todo list. Statuses: pending, in_progress, completed; at most one item in_progress at a time. Send every item each time, including completed ones.',
    inputSchema: {
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              content: { type: 'string', minLength: 1, description: 'What to do' },
              status: { type: 'string', enum: [...TODO_STATUSES] },
            },
            required: ['content', 'status'],
            additionalProperties: false,
          },
        },
      },
      required: ['todos'],
      additionalProperties: false,
    },
    execute: async (args) => {
      // Checked before it is kept: a list the model must fix changes neither the store nor the list.
      const checked = readTodos(args.todos);
      if (file.closed) {
        throw new PermissionDeniedError(
          'todo_write',
          'the todo list can no longer be kept: its plan tools were closed; make new plan tools to keep a todo list',
        );
      }
      try {
        await file.store.write(TODOS_KEY, JSON.stringify(checked));
      } catch (error) {
        throw storeRefusal(error, 'todo_write');
      }
      return summarize(todos.replace(checked));
    },
  };

  const tools = [enterPlanMode, exitPlanMode, planWrite, todoWrite].map(markPlanTool);
  return Object.defineProperties(tools, {
    close: { value: () => file.close() },
    file: { value: file },
    todos: { value: todos },
  }) as PlanToolList;
}

function summarize(list: readonly Todo[]): string {
  if (list.length === 0) return 'The todo list is now empty.';
  const count = (status: Todo['status']) => list.filter((t) => t.status === status).length;
  const current = list.find((t) => t.status === 'in_progress');
  return `Todo list updated: ${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending.${current ? ` Now: ${current.content}` : ''}`;
}
