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
import { canonicalJson } from '../../run/journal/index.js';
import type { Tool } from '../../tools/tool.js';
import type { SolveSnapshot } from './solve-types.js';

export type { SessionSideEffect, SolveSession, SolveSnapshot } from './solve-types.js';

/** The format of the snapshots this version writes and reads. */
export const SESSION_SNAPSHOT_VERSION = 1;

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
