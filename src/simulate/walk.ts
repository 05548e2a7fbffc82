/**
 * One walk of the graph for one combination of choices: what the executor would do if every
 * tool returned its sample. Calls are visited in topological order against one state object;
 * the graph's edges make that state, for every path a call reads, the one the executor would
 * show it. A call whose arguments resolve runs and writes its sample (to the alternative
 * chosen for it); one whose arguments do not is skipped (the same resolution rules and
 * terminal states as `run`). A choice of a call's declared error alternative (`_onError`, or the
 * tool's `errorBranch: true`) writes the error object a throw would: `{message, code?}`; every
 * other alternative gets the sample, which never carries the error object.
 */
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import type { JsonObject } from '../language/document.js';
import { coveredPath, type Path, pathsOverlap } from '../language/paths.js';
import type { Expression, Reference } from '../language/reference.js';
import { buildArguments, type ResolvedArgument } from './call-arguments.js';
import {
  elementArguments,
  elementCount,
  forEachArray,
  type ForEachModel,
  repeatSample,
} from './for-each-sample.js';
import { resolveReference, type Roots } from '../language/resolve.js';
import { cloneJson, jsonSize } from '../language/json/index.js';
import { DEFAULT_LIMITS } from '../language/limits.js';
import { RunState, StateWriteError } from '../run/state/index.js';
import { forEachSource, writersOf } from './value-sources.js';
import type { Sample, WorkflowCallSimulation } from './types.js';

/** What a simulated throw writes to the error alternative. */
export const SIMULATED_ERROR = Object.freeze({ message: 'simulated error', code: 'SIMULATED' });

export type { ResolvedArgument } from './call-arguments.js';

export interface WalkPlan {
  readonly plan: CompiledPlan;
  /** Per call: its position in `plan.order`. */
  readonly rank: Int32Array;
  /** Per call: its `||` alternatives when it branches, else 0. */
  readonly alternatives: Int32Array;
  /** Per call: its declared error alternative (CompiledCall.errorAlternative), or -1. */
  readonly errorAlternative: Int32Array;
  readonly samples: readonly Sample[];
  readonly input: JsonObject;
  readonly state: JsonObject;
  /** Build each argument's `key` (needed only when there is more than one walk). */
  readonly keys: boolean;
  /**
   * Per call: 1 when its tool is a bound workflow (its output is its sub-plan's, asked of the
   * driver with a {@link SubPlanRequest}); null when the plan calls none.
   */
  readonly workflows: Uint8Array | null;
  /** How elements of a `_forEach` call are counted and timed (see for-each-sample.ts). */
  readonly forEach: ForEachModel;
}

export interface Walk {
  /** Per call: 1 ran, 0 skipped. */
  readonly ran: Uint8Array;
  /** Per call that ran: the alternative written (0 without alternatives). */
  readonly choice: Int32Array;
  /** The branching calls that ran, in walk order. */
  readonly branched: readonly number[];
  /** Per call: what it wrote in this walk (a workflow's or a `_forEach` call's depends on it). */
  readonly samples: readonly Sample[];
  /**
   * Per call: its duration in this walk when it is not its tool's (a workflow's sub-plan, a
   * `_forEach` call's lanes of elements), else NaN; null when no call has one.
   */
  readonly weights: Float64Array | null;
  /** Per `_forEach` call that ran: how many elements it had in this walk. */
  readonly elements: ReadonlyMap<number, number>;
  /** Per workflow call that ran: what its sub-plan did (a `_forEach` call's: its first element's). */
  readonly subPlans: ReadonlyMap<number, WorkflowCallSimulation>;
  /** The state at the end of the walk. */
  readonly state: JsonObject;
  /**
   * The choices made in this walk, in walk order: its branching calls' and, for each workflow
   * call, those made in its sub-plan (see Decision); null for a plan that calls no workflow
   * (`branched` says it all).
   */
  readonly decisions: readonly Decision[] | null;
}

/**
 * A choice made in a walk: by a branching call of the plan, or by one inside the sub-plan of a
 * workflow call (at any depth; the elements of a `_forEach` call over a workflow share one).
 */
export interface Decision {
  /** Call indices, each in its own plan: the workflow calls leading to it, then the branching call. */
  readonly path: readonly number[];
  /** `path` joined with `/`: what a choice is keyed by (see scenario-decisions.ts). */
  readonly key: string;
  /** How many alternatives it has, the one a walk takes unless told, and the one taken. */
  readonly alternatives: number;
  readonly baseline: number;
  readonly choice: number;
}

/** What the walk asks of its driver for a workflow call (or one element of a `_forEach` over one). */
export interface SubPlanRequest {
  readonly call: number;
  /** The element's index, or -1 for a call without `_forEach`. */
  readonly element: number;
  /** The call's (or element's) resolved arguments: the sub-plan's `†input`. */
  readonly args: JsonObject;
}

/** The driver's answer: the workflow's output sample, its duration and what its sub-plan did. */
export interface SubPlanAnswer {
  readonly sample: Sample;
  readonly weight: number;
  readonly simulation: WorkflowCallSimulation | null;
  /** The choices made in its sub-plan, their paths from its plan (empty when it has none). */
  readonly decisions: readonly Decision[];
}

/** A walk that stops at each workflow call for its driver (simulate/sub-plans.ts) to answer. */
export type WalkSteps = Generator<SubPlanRequest, Walk, SubPlanAnswer>;

/**
 * Walks the plan with `choices` (call index to alternative; absent means the call's baseline,
 * {@link baselineChoice}) and hands every
 * call that runs with references to `onArguments`, at the moment its arguments resolve. The
 * `_forEach` calls in `empty` see an empty array (they write `[]`).
 */
export function* walk(
  p: WalkPlan,
  choices: ReadonlyMap<number, number>,
  onArguments: (call: number, resolved: readonly ResolvedArgument[]) => void,
  empty: ReadonlySet<number> = NONE,
): WalkSteps {
  const { plan } = p;
  const n = plan.calls.length;
  const ran = new Uint8Array(n);
  const choice = new Int32Array(n);
  const branched: number[] = [];
  // A plan of plain tools writes the samples made before the walk: no copy, no weights.
  const dynamic = p.workflows !== null || p.forEach.present;
  const samples: Sample[] | readonly Sample[] = dynamic ? p.samples.slice() : p.samples;
  const weights = dynamic ? new Float64Array(n).fill(Number.NaN) : null;
  const elements = new Map<number, number>();
  const subPlans = new Map<number, WorkflowCallSimulation>();
  // With workflows, the choices made inside them count as this walk's (once per call: the
  // elements of a `_forEach` over one make the same).
  const decisions: Decision[] | null = p.workflows !== null ? [] : null;
  const decided = decisions !== null ? new Set<string>() : null;
  const w: WalkFrame = { p, ran, choice, samples };
  // Copy-on-write, as in a run: a walk copies what it writes over, never the whole state.
  const state = new RunState(p.state, { limits: UNBOUNDED, size: 0 });
  const roots: { input: JsonObject; state: JsonObject } = { input: p.input, state: state.value };
  for (const i of plan.order) {
    const call = plan.calls[i]!;
    // The references are read from the compile's columns, not made as objects.
    const refCount = call.refCount;
    // A list of the call's size, made only for a call with references (not one list emptied
    // with `length = 0`, which drops its storage, so each push after it made storage again).
    const resolved: ResolvedArgument[] | null = refCount > 0 ? new Array(refCount) : null;
    let missing = false;
    for (let k = 0; k < refCount; k++) {
      const value = resolveArgument(w, call, call.refAt(k), call.refExpression(k), roots);
      if (!value) {
        missing = true;
        break;
      }
      resolved![k] = value;
    }
    if (missing) continue;
    ran[i] = 1;
    if (resolved) onArguments(i, resolved);
    if (dynamic) {
      const workflow = p.workflows !== null && p.workflows[i] === 1;
      if (call.forEach) {
        const count = empty.has(i) ? 0 : elementCount(resolved, p.forEach.samples);
        elements.set(i, count);
        let slowest = p.forEach.weightOf(call.tool);
        if (workflow) {
          const args = buildArguments(call, resolved ?? []);
          const array = forEachArray(resolved);
          const values: unknown[] = [];
          let known = true;
          slowest = 0;
          for (let k = 0; k < count; k++) {
            const answer = yield { call: i, element: k, args: elementArguments(call, args, array[k], k) };
            values.push(answer.sample.value);
            if (answer.sample.source === 'unknown') known = false;
            slowest = Math.max(slowest, answer.weight);
            if (k === 0 && answer.simulation) subPlans.set(i, answer.simulation);
            if (decisions !== null) addInner(decisions, decided!, i, answer.decisions);
          }
          (samples as Sample[])[i] = known ? { source: 'workflow', value: values } : UNKNOWN;
        } else (samples as Sample[])[i] = repeatSample(p.samples[i]!, count);
        weights![i] = Math.ceil(count / p.forEach.lanesOf(call.tool)) * slowest;
      } else if (workflow) {
        const answer = yield { call: i, element: -1, args: buildArguments(call, resolved ?? []) };
        (samples as Sample[])[i] = answer.sample;
        weights![i] = answer.weight;
        if (answer.simulation) subPlans.set(i, answer.simulation);
        if (decisions !== null) addInner(decisions, decided!, i, answer.decisions);
      }
    }
    const output = call.outputPath;
    if (!output) continue;
    const count = p.alternatives[i]!;
    const k = count > 0 ? Math.min(choices.get(i) ?? baselineChoice(p, i), count - 1) : 0;
    choice[i] = k;
    if (count > 0) {
      branched.push(i);
      const baseline = baselineChoice(p, i);
      decisions?.push({ path: [i], key: `${i}`, alternatives: count, baseline, choice: k });
    }
    const sample = samples[i]!;
    const value = count > 0 && k === p.errorAlternative[i] ? SIMULATED_ERROR : sample.value;
    const targets = output.op === '&&' ? output.paths : [output.paths[k]!];
    for (const path of targets) {
      try {
        state.write(path.segments, cloneJson(value), jsonSize(value));
      } catch (e) {
        // A key into an array: the run would fail that call; here its write simply does not land.
        if (!(e instanceof StateWriteError)) throw e;
      }
    }
    roots.state = state.value;
  }
  return { ran, choice, branched, samples, weights, elements, subPlans, state: state.value, decisions };
}

/** The choices made inside workflow call i's sub-plan, as this walk's: their paths from here. */
function addInner(into: Decision[], decided: Set<string>, i: number, inner: readonly Decision[]): void {
  for (const d of inner) {
    const key = `${i}/${d.key}`;
    if (decided.has(key)) continue;
    decided.add(key);
    into.push({ ...d, path: [i, ...d.path], key });
  }
}

const NONE: ReadonlySet<number> = new Set();
const UNKNOWN: Sample = Object.freeze({ source: 'unknown', value: null });

/** What resolving a reference needs of the walk under way. */
interface WalkFrame {
  readonly p: WalkPlan;
  readonly ran: Uint8Array;
  readonly choice: Int32Array;
  readonly samples: readonly Sample[];
}

/**
 * A dry run writes samples the compiler bounded (depth) and json-schema-faker kept small: the
 * state's size is not what a simulation is about.
 */
const UNBOUNDED = { ...DEFAULT_LIMITS, maxTextLength: Number.MAX_SAFE_INTEGER };

/**
 * An argument's value, as `run` resolves it: a single reference, the first of a `||` that exists,
 * the last of an `&&` once all exist.
 */
function resolveArgument(
  w: WalkFrame,
  call: CompiledCall,
  at: string,
  expression: Expression,
  roots: Roots,
): ResolvedArgument | null {
  let last: ResolvedArgument | null = null;
  for (const ref of expression.refs) {
    const value = resolveOne(w, call, at, ref, roots);
    if (expression.op === '&&') {
      if (!value) return null;
      last = value;
    } else if (value) return value;
  }
  return last;
}

function resolveOne(
  w: WalkFrame,
  call: CompiledCall,
  at: string,
  ref: Reference,
  roots: Roots,
): ResolvedArgument | null {
  const { p, ran, choice } = w;
  let writer = -1;
  let key = '';
  if (ref.root === 'state') {
    const path = coveredPath(ref);
    let wrote = false;
    forEachSource(
      p.plan,
      writersOf(call, ref),
      path,
      () => wrote,
      (w) => {
        wrote = ran[w] === 1 && writtenPath(p, w, choice[w]!, path) !== null;
        if (p.keys) key += ran[w] ? `${w}.${choice[w]},` : 'x';
        if (wrote && (writer < 0 || p.rank[w]! > p.rank[writer]!)) writer = w;
      },
    );
  }
  let value = resolveReference(ref, roots);
  const unknown = writer >= 0 && w.samples[writer]!.source === 'unknown' && !isErrorWrite(p, writer, choice);
  if (value === undefined) {
    // Reads through an unknown output exist (with an unknown value): the dry run cannot know
    // that a field is missing from a result it never saw.
    if (!unknown) return null;
    value = null;
  }
  return { at, value, ref, writer, unknown, key: p.keys ? `${ref.text}:${key}` : '' };
}

/** The path call w wrote (with its choice k) that overlaps `path`, or null. */
function writtenPath(p: WalkPlan, w: number, k: number, path: Path): Path | null {
  const output = p.plan.calls[w]!.outputPath;
  if (!output) return null;
  if (output.op === '&&') return output.paths.find((q) => pathsOverlap(q, path)) ?? null;
  const q = output.paths[k]!;
  return pathsOverlap(q, path) ? q : null;
}

function isErrorWrite(p: WalkPlan, w: number, choice: Int32Array): boolean {
  return p.alternatives[w]! > 0 && choice[w] === p.errorAlternative[w];
}

/**
 * The alternative call i takes when no choice is made for it: where a plain value goes (the
 * first, or the second when the first is the error alternative), as in a run without errors.
 */
export function baselineChoice(p: Pick<WalkPlan, 'errorAlternative'>, i: number): number {
  return p.errorAlternative[i] === 0 ? 1 : 0;
}
