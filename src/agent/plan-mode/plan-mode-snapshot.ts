/**
 * Plan mode's state saved and restored as one: the latch (state and approved plan), the todo
 * list and the plan file's content. AgentScope persists plan mode with the agent's state, so a
 * restart or a move to another replica comes back in the same phase with the same plan; this
 * is that, as one JSON-safe object.
 *
 * A snapshot is untrusted when it comes back (it was on disk, in a database, in another
 * process): it is read as bounded JSON first, then every field by the rules of the object it
 * restores, and nothing is restored until the whole snapshot has passed. The plan file's
 * content goes back through the PlanFile (its opened folder, see plan-file.ts), never to a
 * path the snapshot names: a snapshot holds no paths at all.
 */
import { describeValue } from '../../language/describe-value.js';
import type { PlanFile } from './plan-file.js';
import { isPlanModeLatch, PlanMode, type PlanModeJson } from './plan-mode.js';
import { readSavedJson } from './saved-json.js';
import { MAX_TODO_CONTENT, MAX_TODOS, type Todo, TodoList } from './todos.js';
import { checkOptions } from '../../language/option-keys.js';
import { READ_PLAN_MODE_SNAPSHOT_OPTIONS } from './option-specs.js';

/** What `planModeSnapshot()` writes and `restorePlanMode()` reads. */
export interface PlanModeSnapshot {
  readonly version: 1;
  /** The latch, as `PlanMode.toJSON()` gives it. */
  readonly latch: PlanModeJson;
  /** The todo list, as `TodoList.toJSON()` gives it. */
  readonly todos: readonly Todo[];
  /** The plan file's content; null when no plan was written. */
  readonly planFile: string | null;
}

/** The three parts of plan mode a snapshot covers. */
export interface PlanModeParts {
  /** The latch. Required. */
  readonly latch: PlanMode;
  /** The todo list. Required. */
  readonly todos: TodoList;
  /** The plan file (the plan tools' `file`). Required. */
  readonly planFile: PlanFile;
  /**
   * The longest plan, in characters, in the latch or the plan file: the plan tools' limit.
   * @default 100_000
   */
  readonly maxPlanLength?: number;
}

export const DEFAULT_MAX_PLAN_LENGTH = 100_000;

const KEYS = ['version', 'latch', 'todos', 'planFile'] as const;
const EXAMPLE = '{"version": 1, "latch": {...}, "todos": [...], "planFile": "..." | null}';

/**
 * Saves plan mode: the latch and the todo list as they are now, and the plan file as read now.
 * The result is plain JSON data (`JSON.stringify` it as is) and is checked as `restorePlanMode`
 * will check it, so a snapshot that could not be restored is refused now, not after a restart.
 * @throws {TypeError} for bad parts, or a plan longer than `maxPlanLength`.
 * @throws {PermissionDeniedError} when the plan file cannot be read (a link, closed tools).
 */
export async function planModeSnapshot(parts: PlanModeParts): Promise<PlanModeSnapshot> {
  const { latch, todos, planFile, maxPlanLength } = checkParts(parts, 'planModeSnapshot');
  // No plan within maxPlanLength characters takes more than 3 bytes a character in UTF-8.
  const content = await planFile.read({ maxBytes: maxPlanLength * 3 });
  const snapshot: PlanModeSnapshot = {
    version: 1,
    latch: latch.toJSON(),
    todos: todos.toJSON(),
    planFile: content,
  };
  readPlanModeSnapshot(snapshot, { maxPlanLength, where: 'planModeSnapshot' });
  return snapshot;
}

/**
 * Restores a snapshot into the given parts: the plan file is written back through the PlanFile,
 * then the todo list is replaced, then the latch is moved to the saved state. Nothing changes
 * unless the whole snapshot is valid; a failed plan-file write leaves the list and latch alone.
 *
 * The latch gets there by its ordinary transitions (reset, enter, exit with the saved plan),
 * so its observers see each step and its rules hold throughout. A snapshot without a plan file
 * writes nothing: the plan file has no delete, and an older plan there is left as it is.
 * @param snapshot A PlanModeSnapshot or its JSON text: untrusted input.
 * @throws {TypeError} naming the snapshot's bad field, or bad parts.
 * @throws {PermissionDeniedError} when the plan file cannot be written.
 */
export async function restorePlanMode(snapshot: unknown, parts: PlanModeParts): Promise<void> {
  const { latch, todos, planFile, maxPlanLength } = checkParts(parts, 'restorePlanMode');
  const saved = readPlanModeSnapshot(snapshot, { maxPlanLength, where: 'restorePlanMode' });
  if (saved.planFile !== null) await planFile.write(saved.planFile);
  todos.replace(saved.todos);
  moveLatch(latch, saved.latch);
}

export interface ReadPlanModeSnapshotOptions {
  /**
   * The longest plan, in characters, in the latch or the plan file.
   * @default 100_000
   */
  readonly maxPlanLength?: number;
  /**
   * Who reads, for messages.
   * @default 'readPlanModeSnapshot'
   */
  readonly where?: string;
}

/**
 * Checks a snapshot (or its JSON text) without restoring it.
 * @returns a copy made of checked values only.
 * @throws {TypeError} naming the bad field and what a good one looks like.
 */
export function readPlanModeSnapshot(
  snapshot: unknown,
  options: ReadPlanModeSnapshotOptions = {},
): PlanModeSnapshot {
  checkOptions('readPlanModeSnapshot', options, READ_PLAN_MODE_SNAPSHOT_OPTIONS);
  const { maxPlanLength = DEFAULT_MAX_PLAN_LENGTH, where = 'readPlanModeSnapshot' } = options;
  checkMaxPlanLength(maxPlanLength, where);
  const value = readSavedJson(snapshot, {
    where,
    name: 'snapshot',
    expected: EXAMPLE,
    maxTextLength: maxSnapshotText(maxPlanLength),
  });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(
      `${where}: the snapshot must be an object like ${EXAMPLE}, not ${describeValue(value)}`,
    );
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !(KEYS as readonly string[]).includes(key));
  if (unknown !== undefined) {
    throw new TypeError(
      `${where}: the snapshot has an unknown key ${describeValue(unknown)}; it has only ${KEYS.join(', ')}`,
    );
  }
  for (const key of KEYS) {
    if (!Object.hasOwn(record, key)) throw new TypeError(`${where}: snapshot.${key} is missing`);
  }
  if (record.version !== 1) {
    throw new TypeError(`${where}: snapshot.version must be 1, not ${describeValue(record.version)}`);
  }
  // Both readers below also take JSON text; a snapshot holds values, and a string would be parsed unbounded.
  if (record.latch === null || typeof record.latch !== 'object' || Array.isArray(record.latch)) {
    throw new TypeError(
      `${where}: snapshot.latch must be an object like {"version": 1, "state": "off", "plan": null}, not ${describeValue(record.latch)}`,
    );
  }
  if (!Array.isArray(record.todos)) {
    throw new TypeError(
      `${where}: snapshot.todos must be an array of {content, status} items, not ${describeValue(record.todos)}`,
    );
  }
  let latch: PlanModeJson;
  try {
    latch = PlanMode.from(record.latch).toJSON();
  } catch (error) {
    throw new TypeError(`${where}: snapshot.latch is not a saved latch: ${(error as Error).message}`);
  }
  checkPlanText(latch.plan, 'snapshot.latch.plan', maxPlanLength, where, true);
  let todos: Todo[];
  try {
    todos = TodoList.from(record.todos).toJSON();
  } catch (error) {
    // The list's messages name their place from `todos` on, or speak of the whole list.
    const why = (error as Error).message.replace(/^TodoList\.from: /, '');
    throw new TypeError(`${where}: snapshot.${why.startsWith('todos') ? why : `todos: ${why}`}`);
  }
  const planFile = record.planFile;
  checkPlanText(planFile, 'snapshot.planFile', maxPlanLength, where, false);
  return { version: 1, latch, todos, planFile: planFile as string | null };
}

/** Characters no valid snapshot exceeds: two plans (escaped), a full todo list, and keys. */
function maxSnapshotText(maxPlanLength: number): number {
  return 2 * maxPlanLength * 6 + MAX_TODOS * (MAX_TODO_CONTENT * 6 + 64) + 1024;
}

function checkPlanText(
  plan: unknown,
  field: string,
  maxPlanLength: number,
  where: string,
  blankAllowed: boolean,
): void {
  if (plan === null) return;
  if (typeof plan !== 'string' || (!blankAllowed && plan.trim() === '')) {
    throw new TypeError(
      `${where}: ${field} must be ${blankAllowed ? 'a string' : 'a non-empty string'} or null, not ${describeValue(plan)}`,
    );
  }
  if (plan.length > maxPlanLength) {
    throw new TypeError(
      `${where}: ${field} has ${plan.length} characters; at most ${maxPlanLength} are allowed (maxPlanLength)`,
    );
  }
}

function checkMaxPlanLength(maxPlanLength: unknown, where: string): asserts maxPlanLength is number {
  if (!Number.isSafeInteger(maxPlanLength) || (maxPlanLength as number) < 1) {
    throw new TypeError(
      `${where}: maxPlanLength must be a positive integer, not ${describeValue(maxPlanLength)}`,
    );
  }
}

function checkParts(parts: PlanModeParts, where: string): Required<PlanModeParts> {
  if (parts === null || typeof parts !== 'object') {
    throw new TypeError(
      `${where}: the parts must be an object {latch, todos, planFile}, not ${describeValue(parts)}`,
    );
  }
  const { latch, todos, planFile, maxPlanLength = DEFAULT_MAX_PLAN_LENGTH } = parts;
  if (!isPlanModeLatch(latch))
    throw new TypeError(`${where}: latch must be a PlanMode, not ${describeValue(latch)}`);
  if (!(todos instanceof TodoList)) {
    throw new TypeError(`${where}: todos must be a TodoList, not ${describeValue(todos)}`);
  }
  if (
    planFile === null ||
    typeof planFile !== 'object' ||
    typeof planFile.read !== 'function' ||
    typeof planFile.write !== 'function'
  ) {
    throw new TypeError(
      `${where}: planFile must be a PlanFile (the plan tools' \`file\`), not ${describeValue(planFile)}`,
    );
  }
  checkMaxPlanLength(maxPlanLength, where);
  return { latch, todos, planFile, maxPlanLength };
}

/**
 * Moves the latch to a saved state through its own transitions. An observer that flips the
 * latch meanwhile could leave it elsewhere; that is reported, not hidden.
 */
function moveLatch(latch: PlanMode, saved: PlanModeJson): void {
  if (latch.state === saved.state && latch.plan === saved.plan) return;
  latch.reset();
  if (saved.plan !== null) {
    latch.enter();
    latch.exit(saved.plan);
    if (saved.state === 'planning') latch.enter();
  } else if (saved.state === 'planning') {
    latch.enter();
  }
  if (latch.state !== saved.state || latch.plan !== saved.plan) {
    throw new Error(
      `restorePlanMode: the latch ended '${latch.state}', not the saved '${saved.state}': an observer changed it while it was restored`,
    );
  }
}
