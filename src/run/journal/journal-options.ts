/** `Journal.open`'s options, and their checks. */
import { type Limits, resolveLimits } from '../../language/limits.js';
import { showValue } from '../../tools/safe-describe.js';
import { JOURNAL_PARTS, type JournalDigests } from './journal-digests.js';
import type { PartRecord } from './journal-parts.js';
import type { RecordCheck } from './journal-plan-check.js';
import type { ToolDigests } from './journal-records.js';

export interface JournalOptions {
  /** Directory of the journal files; created, with its parents, when missing. */
  readonly dir: string;
  /**
   * Names the file, `<dir>/<runKey>.jsonl` (and its lock, `<dir>/<runKey>.lock`): one per plan +
   * input + initial state, so a resume never reuses another run's outputs. Letters, digits, `.`,
   * `_` and `-`; see `journalKey`.
   */
  readonly runKey: string;
  /**
   * Read the existing journal and append to it. When false, an existing journal is emptied.
   */
  readonly resume: boolean;
  /**
   * What the run is made of (see `runIdentity`). A new journal records them in its first line; a
   * resume refuses a journal whose first line records others, or none, with a JournalError
   * naming the parts that differ.
   * @default undefined (the journal is not bound to a run: no header is written, one read is not compared)
   */
  readonly digests?: JournalDigests;
  /**
   * The digest of each tool the plan calls (see `runIdentity`), recorded in the header beside
   * `digests`: what a later version of the plan compares call by call.
   * @default undefined (none recorded)
   */
  readonly toolDigests?: ToolDigests;
  /**
   * Recorded in a new journal's header: the plan was edited by a person at its approval, so the
   * plan this journal is bound to is not the one the run was given.
   * @default false
   */
  readonly edited?: boolean;
  /**
   * The tool the run's plan calls for a call id, or undefined when it has no such call. With it,
   * `digests` and `toolDigests`, a resume that finds no journal of this run reuses what the
   * journal of an earlier version of the plan completed (see journal-earlier), or refuses.
   * @default undefined (a resume that finds no journal of this run starts from nothing)
   */
  readonly callTool?: (call: string) => string | undefined;
  /**
   * Bounds on each line a resume reads: its length (`maxTextLength` characters), and the depth
   * and members of the values in it.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
  /**
   * Judges each event a resume reads against the run about to reuse it (see `planRecordCheck`);
   * what it returns is the reason the resume is refused.
   * @default undefined (each line is checked against its record schema only)
   */
  readonly checkRecord?: RecordCheck;
  /**
   * The ids of the calls a call depends on in the run's plan, or undefined for a call it lacks.
   * With it, a resume refuses a completed `call:end` of this run's journal that comes before
   * any `call:end` of a call it depends on (see ScanOptions.dependenciesOf).
   * @default undefined (the order of records is not checked)
   */
  readonly dependenciesOf?: (call: string) => readonly string[] | undefined;
  /**
   * The format of a new journal (with `digests`; a resumed journal keeps the version it has):
   * 4, compact lines for calls' starts and ends (see journal-compact); 3, whole events and the
   * records of elements and sub-calls; 2, whole events only (a `_forEach` or workflow call then
   * runs again whole on resume). Earlier planmode wrote 2 and 3; their readers read only those.
   * @default JOURNAL_VERSION (4)
   */
  readonly version?: WrittenVersion;
  /**
   * Judges each element's or sub-call's record a resume reads against the run's plan.
   * @default undefined (checked by its schema and bounds only)
   */
  readonly checkPart?: (part: PartRecord) => string | undefined;
  /**
   * How long a `sync` may wait for the running background fsync to return before a later `sync`
   * starts another beside it (two at most): what bounds, in time, what a power cut can take.
   * 0 fsyncs inline in every `sync`, so a completion is on disk before `sync` returns (one fsync
   * per completed call: slow).
   * @default DEFAULT_MAX_COMMIT_DELAY_MS (20)
   */
  readonly maxCommitDelayMs?: number;
}

/** The versions a new journal may be written in (version 1 is read, no longer written). */
export const WRITTEN_VERSIONS = [2, 3, 4] as const;
export type WrittenVersion = (typeof WRITTEN_VERSIONS)[number];

/** See JournalOptions.maxCommitDelayMs. */
export const DEFAULT_MAX_COMMIT_DELAY_MS = 20;

const RUN_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const DIGEST = /^[0-9a-f]{64}$/;

/** @returns the limits, resolved. */
export function checkOptions(options: JournalOptions): Limits {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `Journal.open expects an options object { dir, runKey, resume }, got ${String(options)}`,
    );
  }
  const { dir, runKey, resume } = options as Partial<Record<keyof JournalOptions, unknown>>;
  if (typeof dir !== 'string' || dir === '') {
    throw new TypeError(
      `Journal.open: dir must be a non-empty string, got ${JSON.stringify(dir) ?? String(dir)}`,
    );
  }
  if (typeof runKey !== 'string' || !RUN_KEY.test(runKey)) {
    throw new TypeError(
      `Journal.open: runKey must be a file name of 1-200 letters, digits, '.', '_' or '-', not starting with '.' (journalKey() makes one), ` +
        `got ${JSON.stringify(runKey) ?? String(runKey)}`,
    );
  }
  if (typeof resume !== 'boolean') {
    throw new TypeError(
      `Journal.open: resume must be true or false, got ${JSON.stringify(resume) ?? String(resume)}`,
    );
  }
  const { digests, toolDigests, callTool, checkRecord, limits } = options as Partial<
    Record<keyof JournalOptions, unknown>
  >;
  if (digests !== undefined && !isDigests(digests)) {
    throw new TypeError(
      `Journal.open: digests must be { plan, input, state, tools }, each 64 lowercase hex digits (runIdentity() makes them), got ${showValue(digests)}`,
    );
  }
  if (toolDigests !== undefined && !isToolDigests(toolDigests)) {
    throw new TypeError(
      `Journal.open: toolDigests must be an object of 64 lowercase hex digits per tool name (runIdentity() makes it), got ${showValue(toolDigests)}`,
    );
  }
  const { dependenciesOf } = options as Partial<Record<keyof JournalOptions, unknown>>;
  for (const [name, value] of [
    ['checkRecord', checkRecord],
    ['callTool', callTool],
    ['dependenciesOf', dependenciesOf],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') {
      throw new TypeError(`Journal.open: ${name} must be a function, got ${showValue(value)}`);
    }
  }
  const { maxCommitDelayMs, version } = options as Partial<Record<keyof JournalOptions, unknown>>;
  if (version !== undefined && !(WRITTEN_VERSIONS as readonly unknown[]).includes(version)) {
    throw new TypeError(
      `Journal.open: version must be one of ${WRITTEN_VERSIONS.join(', ')}, got ${showValue(version)}`,
    );
  }
  if (
    maxCommitDelayMs !== undefined &&
    !(typeof maxCommitDelayMs === 'number' && maxCommitDelayMs >= 0 && !Number.isNaN(maxCommitDelayMs))
  ) {
    throw new TypeError(
      `Journal.open: maxCommitDelayMs must be a number of milliseconds (0 or more), got ${showValue(maxCommitDelayMs)}`,
    );
  }
  return resolveLimits(limits as Partial<Limits> | undefined);
}

function isDigests(value: unknown): value is JournalDigests {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    Object.keys(record).length === JOURNAL_PARTS.length &&
    JOURNAL_PARTS.every((part) => typeof record[part] === 'string' && DIGEST.test(record[part]))
  );
}

function isToolDigests(value: unknown): value is ToolDigests {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return Object.keys(record).every((name) => typeof record[name] === 'string' && DIGEST.test(record[name]));
}
