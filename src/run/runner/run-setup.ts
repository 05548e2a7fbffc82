/**
 * What the Runner is built from, before anything runs: the calls and who waits for whom (of a
 * whole plan, or of a plan that arrives as a stream), and the journal a run resumes from. Kept
 * apart from runner.ts, which is the scheduling itself.
 */
import { setMaxListeners } from 'node:events';
import { PlanBuilder } from '../../compile/plan-builder.js';
import type { OrderGates } from '../../compile/order/index.js';
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import { DiagnosticList } from '../../language/diagnostics.js';
import type { JsonObject } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { type CallRecord, newRecord } from '../call-record.js';
import { checkedInitial } from './initial-values.js';
import { handedJournal, Journal, planRecordCheck, type RunJournal, runIdentity } from '../journal/index.js';
import { partCheck } from './part-check.js';
import { planWiring } from '../schedule/index.js';
import { type StreamState, streamedPlan } from './streamed-plan.js';
import { Successors } from '../schedule/index.js';
import type { RunOptions } from '../types.js';
import { CALLERS_SIGNAL } from '../sub-run-types.js';

/** A run's calls, their records, and who waits for whom. */
export interface RunCalls {
  readonly plan: CompiledPlan;
  readonly calls: readonly CompiledCall[];
  /** Set while a plan arrives as a stream. */
  readonly stream: StreamState | null;
  readonly records: CallRecord[];
  readonly remaining: number[];
  readonly successors: Successors;
  readonly gates: OrderGates;
  readonly outputPathTexts: (readonly string[] | undefined)[];
}

/** The calls of a whole compiled plan, wired by the compile's edges and program order. */
export function wholePlanCalls(plan: CompiledPlan, tools: ToolRegistry): RunCalls {
  const { remaining, successors, gates } = planWiring(plan, tools);
  return {
    plan,
    calls: plan.calls,
    stream: null,
    records: plan.calls.map(newRecord),
    remaining,
    successors,
    gates,
    outputPathTexts: outputPathTextsOf(plan),
  };
}

/** No calls yet: they are bound one by one as the stream brings them (see streamed-plan.ts). */
export function streamedCalls(options: RunOptions, tools: ToolRegistry, limits: Limits): RunCalls {
  const builder = new PlanBuilder({
    tools,
    input: options.input,
    state: checkedInitial('state', undefined, options.state, limits).value,
    stateSchema: undefined,
    mode: 'eager',
    limits,
    callsPointer: '',
    // Every diagnostic is kept while the stream runs: each decides whether its call may
    // run. The calls are bounded (limits.maxCalls), and the result's list is capped.
    diagnostics: new DiagnosticList(Number.MAX_SAFE_INTEGER, { strict: options.strict === true }),
  });
  const calls = builder.calls as readonly CompiledCall[];
  return {
    plan: streamedPlan(calls),
    calls,
    stream: { builder, held: [], received: [] },
    records: [],
    remaining: [],
    successors: new Successors({ calls: 64, edges: 64 }),
    gates: builder.gates,
    outputPathTexts: [],
  };
}

/** What the journal of a run is opened with. */
export interface RunJournalOptions {
  /** The whole plan; null for a streamed plan, which cannot have a journal. */
  readonly plan: CompiledPlan | null;
  /** The journal's folder (`RunOptions.journal`). */
  readonly dir: string;
  /** `RunOptions.resume`. */
  readonly resume: boolean;
  readonly mode: 'eager' | 'lazy';
  readonly input: JsonObject;
  readonly state: JsonObject;
  readonly tools: ToolRegistry;
  readonly limits: Limits;
  /** The plan was edited at its approval (recorded in the journal's header). */
  readonly edited?: boolean;
}

/** What runJournal needs: the run's options and what the Runner made of them. */
export interface RunJournalSource extends Omit<RunJournalOptions, 'dir' | 'resume'> {
  readonly options: RunOptions;
}

/**
 * The run's journal: its own (RunOptions.journal, opened or resumed), the calling run's for a
 * workflow call's sub-run (its calls are journaled there), or none.
 */
export function runJournal(source: RunJournalSource): RunJournal | undefined {
  const { options, ...rest } = source;
  if (options.journal === undefined) return handedJournal(options);
  return openRunJournal({ ...rest, dir: options.journal, resume: options.resume === true });
}

/** Opens (or resumes) the run's journal, bound to its plan, input, state and tools. */
export function openRunJournal(options: RunJournalOptions): Journal {
  const { plan, dir, resume, mode, input, state, tools, limits } = options;
  if (!plan) {
    throw new TypeError('Expected a whole plan with journal: a streamed plan has no identity to resume by');
  }
  const identity = runIdentity({ mode, plan, input, state, tools });
  return Journal.open({
    dir,
    // The run key, its digests and those of each tool.
    ...identity,
    resume,
    ...(options.edited === true && { edited: true }),
    callTool: (id) => plan.calls[plan.indexOf(id) ?? -1]?.tool,
    limits,
    // Every record is judged against this plan before anything runs, not when its call is reached.
    checkRecord: planRecordCheck({ plan, tools, mode }),
    checkPart: partCheck(plan, tools),
    dependenciesOf: (id) => {
      const call = plan.calls[plan.indexOf(id) ?? -1];
      return call?.dependencies.map((dependency) => plan.calls[dependency.from]!.id);
    },
  });
}

const outputPathTextsCache = new WeakMap<CompiledPlan, (readonly string[] | undefined)[]>();

/**
 * Per call of a compiled plan, its output paths as written: filled in lazily, one call at a
 * time, as calls run, and shared by every run of the plan (none changes them).
 */
function outputPathTextsOf(plan: CompiledPlan): (readonly string[] | undefined)[] {
  let texts = outputPathTextsCache.get(plan);
  if (!texts) {
    texts = [];
    outputPathTextsCache.set(plan, texts);
  }
  return texts;
}

/**
 * A controller many attempts listen to at once (up to the concurrency): no leak warning. A
 * sub-run's attempts share the signal of the workflow call it runs for instead (see
 * CALLERS_SIGNAL): making an AbortSignal was ~10% of a small run's time. Aborting that one is
 * the calling run's to do (the sub-run aborts only once it has), so this controller's does nothing.
 */
export function sharedController(options: RunOptions): AbortController {
  const borrowed = (options as { [CALLERS_SIGNAL]?: true })[CALLERS_SIGNAL] ? options.signal : undefined;
  if (borrowed) {
    // A workflow call with a time limit hands over its attempt's own signal, made without this.
    setMaxListeners(0, borrowed);
    return { signal: borrowed, abort: () => {} };
  }
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
