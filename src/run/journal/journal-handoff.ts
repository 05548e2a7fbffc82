/**
 * Handing a sub-run its journal without a public option: the calling run ties the journal to the
 * ToolContext's `run` it gives a workflow call, the workflow ties it to the options of the run it
 * starts, and that Runner takes it. Keyed weakly: it goes with the objects.
 */
import type { RunJournal } from './journal-scope.js';

const handed = new WeakMap<object, RunJournal>();

export function handJournal(to: object, journal: RunJournal): void {
  handed.set(to, journal);
}

export function handedJournal(from: object): RunJournal | undefined {
  return handed.get(from);
}
