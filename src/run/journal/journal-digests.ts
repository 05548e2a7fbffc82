/**
 * What binds a journal to its run: a sha256 of each part that decides what the run's calls do
 * and return (the compiled plan, the input, the initial state and the tools it calls). The
 * journal's first line records them; a resume whose parts differ is refused, so one run's
 * outputs are never replayed into another.
 */
import { createHash, type Hash } from 'node:crypto';
import type { CompiledPlan } from '../../compile/types.js';
import type { JournalErrorOptions } from '../../errors.js';
import type { ExecutionMode, JsonObject } from '../../language/document.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { thrownMessage } from '../../tools/safe-describe.js';
import type { Tool } from '../../tools/tool.js';
import { canonicalJson } from './journal-format.js';

/** The parts of a run a journal is bound to, in the order messages name them. */
export const JOURNAL_PARTS = ['plan', 'input', 'state', 'tools'] as const satisfies readonly NonNullable<
  JournalErrorOptions['differs']
>[number][];

export type JournalPart = (typeof JOURNAL_PARTS)[number];

/** One sha256 (64 lowercase hex digits) per part of the run. */
export type JournalDigests = { readonly [P in JournalPart]: string };

/**
 * The fields of a tool definition that change what a call does or may return. The code
 * (`execute`) cannot be digested; the description and annotations change nothing at run time.
 */
const TOOL_FIELDS = [
  'inputSchema',
  'outputSchema',
  'latent',
  'needsApproval',
  'errorBranch',
  'branchJson',
  'timeoutMs',
  'retries',
  'plan',
  'output',
] as const satisfies readonly (keyof Tool)[];

/** Fields that came later: left out when unset, so the digests of journals before them hold. */
const LATER_FIELDS: ReadonlySet<string> = new Set(['branchJson', 'plan', 'output']);

export interface RunIdentityOptions {
  /** The mode the run executes in (it may differ from the plan's own). */
  readonly mode: ExecutionMode;
  readonly plan: CompiledPlan;
  /** The run's input, after the plan's and the options' are merged. */
  readonly input: JsonObject;
  /** The run's initial state, after the plan's and the options' are merged. */
  readonly state: JsonObject;
  /** The tools the run executes with. */
  readonly tools: ToolRegistry;
}

export interface RunIdentity {
  /** The journal's file name (without `.jsonl`): `journalKey([mode, planIdentity(plan), input, state])`. */
  readonly runKey: string;
  readonly digests: JournalDigests;
  /**
   * Per tool the plan calls, by name, the sha256 of its definition (as `digests.tools` makes it,
   * one tool alone): what tells a later version of the plan which tools changed. No prototype.
   */
  readonly toolDigests: Readonly<Record<string, string>>;
}

/**
 * The journal's file name and digests for a run. Each part is made canonical once and hashed
 * twice (alone, and as part of the key), so a large state costs one serialization.
 *
 * @throws {TypeError} when a part holds what JSON cannot (see canonicalJson), naming the tool
 *   for a tool definition.
 */
export function runIdentity(options: RunIdentityOptions): RunIdentity {
  const mode = canonicalJson(options.mode);
  const input = canonicalJson(options.input);
  const state = canonicalJson(options.state);
  // The same bytes as journalKey([mode, identity, input, state]) and sha256([mode, identity])
  // with identity = canonicalJson(planIdentity(plan)): file names stay as they were.
  const hashed = hashedPlan(options.plan, mode);
  const key = hashed.copy();
  for (const piece of [',', input, ',', state, ']']) key.update(piece);
  const tools = toolsIdentity(options.plan, options.tools);
  const toolDigests = Object.create(null) as Record<string, string>;
  for (const entry of tools) toolDigests[entry[0]] = sha256(canonicalJson(entry));
  return {
    runKey: key.digest('hex'),
    digests: {
      plan: hashed.copy().update(']').digest('hex'),
      input: sha256(input),
      state: sha256(state),
      tools: sha256(canonicalJson(tools)),
    },
    toolDigests,
  };
}

/**
 * Per compiled plan and mode, a sha256 fed `[mode,` and the plan's identity: what every run of
 * the plan hashes first, kept so that each later run copies it instead of making the plan
 * canonical again (about 2 µs a call). A compiled plan is not changed once made: the executor's
 * kept edge lists (compiled-plan) rest on the same rule.
 */
const hashedPlans = new WeakMap<CompiledPlan, Map<string, Hash>>();

function hashedPlan(plan: CompiledPlan, mode: string): Hash {
  let byMode = hashedPlans.get(plan);
  if (byMode === undefined) hashedPlans.set(plan, (byMode = new Map()));
  let hash = byMode.get(mode);
  if (hash === undefined) {
    const made = createHash('sha256').update(`[${mode},`);
    writePlanIdentity(plan, (text) => made.update(text));
    byMode.set(mode, (hash = made));
  }
  return hash;
}

/** What identifies a plan for its journal: every call as written, not the compiled objects. */
export function planIdentity(plan: CompiledPlan): unknown[] {
  return plan.calls.map(callIdentity);
}

function callIdentity(c: CompiledPlan['calls'][number]): unknown[] {
  const identity = [
    c.id,
    c.tool,
    c.args,
    c.outputPath?.text ?? null,
    c.hasOutput ? (c.output ?? null) : null,
  ];
  // Where a throw goes decides what a call does; absent (most calls), the identity is as it was.
  if (c.errorAlternative !== null) identity.push(c.errorAlternative);
  return identity;
}

/** Calls made canonical together: a 100k-call plan's whole copy would outlive the young generation. */
const CHUNK_CALLS = 1024;

/**
 * Writes canonicalJson(planIdentity(plan)) to `write` in pieces of CHUNK_CALLS calls: the text
 * of an array is its elements' texts between brackets, so the pieces join to the same bytes,
 * while each piece's copy dies young instead of being carried through the collector whole.
 */
function writePlanIdentity(plan: CompiledPlan, write: (text: string) => void): void {
  const { calls } = plan;
  write('[');
  for (let start = 0; start < calls.length; start += CHUNK_CALLS) {
    const chunk = calls.slice(start, start + CHUNK_CALLS).map(callIdentity);
    const text = canonicalJson(chunk);
    // Without the chunk's own brackets; a comma between chunks.
    write(start === 0 ? text.slice(1, -1) : `,${text.slice(1, -1)}`);
  }
  write(']');
}

/** The parts whose digests differ, in JOURNAL_PARTS order. */
export function differingParts(recorded: JournalDigests, expected: JournalDigests): JournalPart[] {
  return JOURNAL_PARTS.filter((part) => recorded[part] !== expected[part]);
}

/**
 * The definitions of the tools the plan calls, by name (sorted); null for a name the registry
 * lacks. A tool the plan never calls cannot change its outcome, so adding one to a tools file
 * does not invalidate a journal.
 */
function toolsIdentity(plan: CompiledPlan, tools: ToolRegistry): [name: string, definition: unknown][] {
  const names = [...new Set(plan.calls.map((c) => c.tool))].sort();
  return names.map((name) => {
    const tool = tools.get(name)?.tool;
    if (tool === undefined) return [name, null];
    const fields: Record<string, unknown> = {};
    for (const field of TOOL_FIELDS) {
      try {
        const value = tool[field];
        // A workflow's plan is what it does: a changed plan is a changed tool.
        if (value !== undefined || !LATER_FIELDS.has(field)) fields[field] = value ?? null;
      } catch (e) {
        // A getter that passed the registry's checks and throws now: a hostile definition.
        throw new TypeError(
          `cannot digest tool '${name}' for the journal: reading "${field}" threw (${thrownMessage(e)})`,
        );
      }
    }
    try {
      // Made canonical here, one tool at a time, so that a failure names its tool.
      return [name, JSON.parse(canonicalJson(fields)) as unknown];
    } catch (e) {
      throw new TypeError(`cannot digest tool '${name}' for the journal: ${thrownMessage(e)}`);
    }
  });
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
