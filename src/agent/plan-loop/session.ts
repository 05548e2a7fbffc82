/**
 * A plan loop you can stop and resume: after every turn, solve() hands its session a snapshot
 * (the tools by name and digest, the state, the last plan and how its calls ended, the turn
 * count, the budget spent, the conversation and the side effects that already ran), and a
 * loop given a session that loads a snapshot goes on from there. The side effects go back into
 * the loop's ledger, so a mutating call that ran before the stop is not run again after it.
 *
 * A snapshot is checked before anything is resumed from it: its shape (session-read.ts), and
 * its tools against the tools offered now, so a loop never resumes silently against tools that
 * are gone or that changed: that is a SessionError naming the tool, unless `allowToolChanges`.
 */
import { createHash } from 'node:crypto';
import { SessionError } from '../../errors.js';
import type { JsonObject } from '../../language/document.js';
import { canonicalJson } from '../../run/journal/index.js';
import type { CallReport } from '../../run/types.js';
import type { Tool } from '../../tools/tool.js';
import type { Message } from '../model.js';
import type { BudgetSpent } from './budget.js';
import type { FailedCallRecord, SolveResult } from './solve-types.js';

/** The format of the snapshots this version writes and reads. */
export const SESSION_SNAPSHOT_VERSION = 1;

/** A side effect that ran: a mutating call that succeeded, by its tool and resolved arguments. */
export interface SessionSideEffect {
  readonly tool: string;
  readonly args: JsonObject;
  readonly output: unknown;
  readonly branch: number | null;
}

/** Where the plan loop stood after a turn; plain JSON, written as it is by fileSession(). */
export interface SolveSnapshot {
  /** {@link SESSION_SNAPSHOT_VERSION}. */
  readonly version: 1;
  /** Each tool offered when the snapshot was taken: its name and definitionDigest(). */
  readonly tools: readonly { readonly name: string; readonly digest: string }[];
  /** The task's input, as the loop read it. */
  readonly input: JsonObject;
  readonly state: JsonObject;
  /** Turns (solutions asked for) that have ended; the resumed loop's next turn is turn + 1. */
  readonly turn: number;
  /** What was spent against the budget so far (the resumed loop goes on counting from it). */
  readonly spent: BudgetSpent;
  /** The conversation: the earlier turns sent before the context in every request. */
  readonly history: readonly Message[];
  /** What the model is shown next: its last plan, how each of its calls ended, what failed, a note. */
  readonly context: {
    readonly plan: readonly unknown[];
    readonly progress: readonly CallReport[] | null;
    readonly failures: readonly FailedCallRecord[];
    readonly note: string | null;
  };
  /** The side effects that already ran: not run again when the model lists them again. */
  readonly sideEffects: readonly SessionSideEffect[];
  /** Set when the loop ended: resuming from it gives this result at once, asking nothing. */
  readonly ended: { readonly status: SolveResult['status']; readonly output: unknown } | null;
}

/** solve()'s `session` option: where snapshots go, and where the one to resume from comes from. */
export interface SolveSession {
  /**
   * Called after every turn, and once when the loop ends, with the snapshot; the loop waits
   * for it. A save that throws ends the loop with that error (a session that cannot be kept
   * is not silently dropped).
   */
  save(snapshot: SolveSnapshot): void | Promise<void>;
  /**
   * The snapshot to resume from, or undefined to start afresh. Untrusted: its shape is checked
   * (a SessionError with the field's pointer when it is wrong), then its tools.
   * @default undefined: the loop starts afresh
   */
  load?(): unknown;
  /**
   * Resume even when a tool of the snapshot is missing or its definition changed.
   * @default false: a SessionError naming the tool
   */
  readonly allowToolChanges?: boolean;
}

/** sha256 of a tool's definition as the model sees it: name, description and schemas, canonical JSON. */
export function definitionDigest(tool: Tool): string {
  const definition = {
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema ?? null,
    outputSchema: tool.outputSchema ?? null,
  };
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

/** The snapshot's `tools`: each tool offered, by name and digest. */
export function toolDigests(tools: readonly Tool[]): SolveSnapshot['tools'] {
  return tools.map((tool) => ({ name: tool.name, digest: definitionDigest(tool) }));
}

/**
 * Refuses to resume against tools other than the snapshot's.
 * @throws {SessionError} tool-missing or tool-changed, naming the first tool at fault.
 */
export function checkSessionTools(snapshot: SolveSnapshot, tools: readonly Tool[], allow: boolean): void {
  if (allow) return;
  const offered = new Map(tools.map((tool) => [tool.name, tool]));
  for (const { name, digest } of snapshot.tools) {
    const tool = offered.get(name);
    if (!tool) {
      throw new SessionError(
        `cannot resume the session: its tool '${name}' is not offered now; offer the tool again, start a new session, or pass allowToolChanges: true to resume without it`,
        { kind: 'tool-missing', tool: name },
      );
    }
    if (definitionDigest(tool) !== digest) {
      throw new SessionError(
        `cannot resume the session: the definition of tool '${name}' (its description or schemas) changed since the snapshot was saved; restore the definition, start a new session, or pass allowToolChanges: true to resume with the new one`,
        { kind: 'tool-changed', tool: name },
      );
    }
  }
}
