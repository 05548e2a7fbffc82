/**
 * A lazy run taking the plan a person edited at its approval in place of the one it was built
 * with. Nothing has run yet (approval comes first), so every part that belongs to the plan is
 * made again from the edit; what belongs to the run (its id, tools, input, state, limits, slots,
 * observers) stays. A journal opened for the plan asked about is closed, and one is opened for
 * the plan that runs: a resume finds it by that plan (see openRunJournal).
 */
import type { OrderGates } from '../../compile/order/index.js';
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import type { JsonObject } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { type ArgumentSources, argumentSources } from '../call/index.js';
import type { CallRecord } from '../call-record.js';
import type { RunJournal } from '../journal/index.js';
import { isoNow } from '../run-event.js';
import type { Successors } from '../schedule/index.js';
import type { RunState } from '../state/index.js';
import type { RunOptions } from '../types.js';
import { openRunJournal, wholePlanCalls } from './run-setup.js';
import { type AheadRun, StartsAhead } from './start-ahead.js';

/** What a run rebuilds from its plan (the Runner is one). */
export interface AdoptingHost extends AheadRun {
  plan: CompiledPlan;
  calls: readonly CompiledCall[];
  records: CallRecord[];
  remaining: number[];
  successors: Successors;
  gates: OrderGates;
  outputPathTexts: (readonly string[] | undefined)[];
  argumentSources: ArgumentSources;
  journal: RunJournal | undefined;
  ahead: StartsAhead | null;
  readonly tools: ToolRegistry;
  readonly options: RunOptions;
  readonly input: JsonObject;
  readonly state: RunState;
  readonly roots: { input: JsonObject; state: JsonObject };
  readonly limits: Limits;
  readonly runId: string;
  readonly mode: 'eager' | 'lazy';
}

export function adoptPlan(run: AdoptingHost, plan: CompiledPlan): void {
  const wired = wholePlanCalls(plan, run.tools);
  run.plan = wired.plan;
  run.calls = wired.calls;
  run.records = wired.records;
  run.remaining = wired.remaining;
  run.successors = wired.successors;
  run.gates = wired.gates;
  run.outputPathTexts = wired.outputPathTexts;
  run.argumentSources = argumentSources(run.roots, run.state, run.calls);
  run.ahead = null;
  if (run.journal === undefined) return;
  run.journal.close();
  run.journal = undefined;
  // A workflow's sub-plan edited at its approval: its calls are not journaled (it runs again whole).
  if (run.options.journal === undefined) return;
  const journal = openRunJournal({
    plan,
    dir: run.options.journal!,
    resume: run.options.resume === true,
    mode: run.mode,
    input: run.input,
    state: run.state.value,
    tools: run.tools,
    limits: run.limits,
    edited: true,
  });
  run.journal = journal;
  // The run started before its plan changed: the journal of the plan that runs starts as any does.
  journal.append({
    type: 'run:start',
    at: isoNow(),
    runId: run.runId,
    mode: run.mode,
    calls: run.calls.length,
  });
  run.ahead = StartsAhead.for(run, journal);
}
