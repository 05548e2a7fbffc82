/**
 * The ToolContext.run a workflow call gets when the run journals what runs inside calls: the
 * run's own, tied to the journal of the sub-run at the call's path (see journal-scope), so that
 * the workflow's sub-run journals its calls there and, on resume, reuses those that completed.
 * Any other call, and any run whose journal records no parts, gets the run's shared one.
 */
import type { PartPath, RunJournal } from '../journal/index.js';
import { handJournal } from '../journal/index.js';
import type { Tool } from '../../tools/tool.js';
import type { ParentRun } from '../types.js';

export interface JournalParentHost {
  readonly asParent: ParentRun;
  readonly journal: RunJournal | undefined;
}

export function parentRunFor(run: JournalParentHost, tool: Tool, at: PartPath): ParentRun {
  const parts = run.journal?.parts;
  if (parts === undefined || tool.plan === undefined) return run.asParent;
  const sub = parts.within(at);
  if (sub === undefined) return run.asParent;
  const parent: ParentRun = Object.freeze({ ...run.asParent });
  handJournal(parent, sub);
  return parent;
}
