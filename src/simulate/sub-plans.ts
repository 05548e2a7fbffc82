/**
 * Workflow calls in the dry run. A walk stops at each workflow call (or element of a `_forEach`
 * over one) with the call's resolved arguments; this driver walks the workflow's compiled plan
 * with them as its `†input` (its branching calls as the scenario chooses), fills in its `output`
 * from the walk's final state, and answers the walk with that sample, the sub-plan's critical
 * path weight as the call's duration, what the sub-plan did and the choices made in it. A
 * sub-plan's branching calls take the alternatives the scenario chooses for them (keyed by the
 * path of call indices down to them, see scenario-decisions.ts), else their baseline. A
 * sub-plan's walk may stop at a workflow call of its own: the walks under way are an explicit
 * stack, never recursion, at most MAX_WORKFLOW_DEPTH deep (past it a call's output is its
 * outputSchema's sample, as for a plain tool). The same workflow with the same arguments and
 * the same choices inside is walked once per simulation.
 */
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import type { JsonObject } from '../language/document.js';
import { setOwnProperty } from '../language/json/index.js';
import { coveredPath, pathsOverlap } from '../language/paths.js';
import { resolveExpression } from '../language/resolve.js';
import { MAX_WORKFLOW_DEPTH, type WorkflowPlan, workflowPlan } from '../run/workflow/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import { ArgumentChecker } from './argument-checks.js';
import { branchGroups } from './branch-groups.js';
import { criticalPath } from './critical-path.js';
import type { ForEachModel } from './for-each-sample.js';
import type { OutputSampler } from './sample-outputs.js';
import type { ArgumentError, Sample, WorkflowCallSimulation } from './types.js';
import { decisionsOf } from './scenario-decisions.js';
import { type Decision, type SubPlanAnswer, type Walk, type WalkPlan, type WalkSteps, walk } from './walk.js';
import { walkPlanOf } from './walk-plan.js';

export interface SubPlanOptions {
  readonly tools: ToolRegistry | undefined;
  readonly sampler: OutputSampler;
  readonly forEach: ForEachModel;
  /** SimulateOptions.applyDefaults. */
  readonly applyDefaults: boolean;
}

/** One walk under way: the simulated plan's (the bottom of the stack) or a workflow's. */
interface Frame {
  readonly steps: WalkSteps;
  readonly plan: CompiledPlan;
  /** The key of its plan's choices: '' for the simulated plan, `3/` for call 3's sub-plan. */
  readonly prefix: string;
  /** Argument errors found in this walk, and those lifted from the workflows it called. */
  readonly errors: ArgumentError[];
  /** For a workflow's walk: which, called by which call, with what, cached under which key. */
  readonly workflow?: {
    readonly name: string;
    readonly definition: WorkflowPlan;
    readonly caller: CompiledCall;
    readonly input: JsonObject;
    readonly key: string;
    readonly walkPlan: WalkPlan;
  };
}

export class SubPlanSimulator {
  readonly #plans = new Map<string, { walkPlan: WalkPlan; checker: ArgumentChecker }>();
  readonly #answers = new Map<string, SubPlanAnswer>();

  constructor(private readonly options: SubPlanOptions) {}

  /**
   * Drives `steps` (a walk of `plan`) to its end, walking into the workflows it calls; the
   * argument errors found inside them are added to `errors` at the workflow call.
   */
  run(
    steps: WalkSteps,
    plan: CompiledPlan,
    errors: ArgumentError[],
    choices: ReadonlyMap<string, number> = NO_CHOICES,
  ): Walk {
    const stack: Frame[] = [{ steps, plan, errors, prefix: '' }];
    let answer: SubPlanAnswer | undefined;
    for (;;) {
      const top = stack[stack.length - 1]!;
      const step = top.steps.next(answer!);
      if (step.done) {
        stack.pop();
        if (stack.length === 0) return step.value;
        answer = this.#finish(top, step.value);
        this.#answers.set(top.workflow!.key, answer);
        lift(stack[stack.length - 1]!, top.workflow!.caller, answer);
        continue;
      }
      const caller = top.plan.calls[step.value.call]!;
      const input = step.value.args;
      const prefix = `${top.prefix}${step.value.call}/`;
      const inside = choicesInside(choices, prefix);
      const key = `${caller.tool}\u0000${JSON.stringify(input)}\u0000${inside.key}`;
      const known = this.#answers.get(key);
      const definition = this.#definition(caller.tool);
      if (known !== undefined || definition === undefined || stack.length > MAX_WORKFLOW_DEPTH) {
        answer = known ?? this.#unwalked(caller, definition);
        lift(top, caller, answer);
        continue;
      }
      const sub = this.#setup(caller.tool, definition);
      const found: ArgumentError[] = [];
      const walkPlan: WalkPlan = { ...sub.walkPlan, input };
      stack.push({
        steps: walk(walkPlan, inside.own, (i, resolved) => {
          for (const e of sub.checker.check(i, resolved)) found.push(e);
        }),
        plan: definition.plan,
        prefix,
        errors: found,
        workflow: { name: caller.tool, definition, caller, input, key, walkPlan },
      });
      answer = undefined;
    }
  }

  #definition(tool: string): WorkflowPlan | undefined {
    const registered = this.options.tools?.get(tool)?.tool;
    return registered === undefined ? undefined : workflowPlan(registered);
  }

  #setup(name: string, definition: WorkflowPlan): { walkPlan: WalkPlan; checker: ArgumentChecker } {
    let setup = this.#plans.get(name);
    if (setup === undefined) {
      const { plan } = definition;
      const tools = this.options.tools;
      setup = {
        walkPlan: walkPlanOf({
          plan,
          tools,
          sampler: this.options.sampler,
          mode: plan.mode,
          forEach: this.options.forEach,
          alternatives: branchGroups(plan).alternatives,
          input: {},
          keys: false,
        }),
        checker: new ArgumentChecker(plan, tools, false, this.options.applyDefaults),
      };
      this.#plans.set(name, setup);
    }
    return setup;
  }

  /** A workflow call whose sub-plan is not walked: too deep, or not a bound workflow. */
  #unwalked(caller: CompiledCall, definition: WorkflowPlan | undefined): SubPlanAnswer {
    const sample = this.options.sampler.sample(caller);
    const weight = this.options.forEach.weightOf(caller.tool);
    if (definition === undefined) return { sample, weight, simulation: null, decisions: NO_DECISIONS };
    const simulation: WorkflowCallSimulation = {
      workflow: caller.tool,
      calls: definition.plan.calls.length,
      run: [],
      skipped: [],
      criticalPath: [],
      criticalPathWeight: 0,
      argumentErrors: [],
      workflows: {},
      tooDeep: true,
    };
    return { sample, weight, simulation, decisions: NO_DECISIONS };
  }

  #finish(frame: Frame, result: Walk): SubPlanAnswer {
    const { name, definition, caller, input } = frame.workflow!;
    const { plan, source } = definition;
    const path = criticalPath(plan, this.options.tools, result.ran, result.weights);
    const run: string[] = [];
    const skipped: string[] = [];
    plan.calls.forEach((call, i) => (result.ran[i] ? run : skipped).push(call.id));
    const workflows: Record<string, WorkflowCallSimulation> = {};
    for (const [i, simulation] of result.subPlans) workflows[plan.calls[i]!.id] = simulation;
    const positions = source.locateAll(frame.errors.map((e) => ({ pointer: e.pointer })));
    const simulation: WorkflowCallSimulation = {
      workflow: name,
      calls: plan.calls.length,
      run,
      skipped,
      criticalPath: path.calls.map((i) => plan.calls[i]!.id),
      criticalPathWeight: path.weight,
      argumentErrors: frame.errors.map((e, k) => ({ ...e, ...positions[k]! })),
      workflows,
      tooDeep: false,
    };
    const output = outputOf(definition, input, result);
    // An output read through a call whose output is unknown, or missing: the workflow's
    // outputSchema says what it returns, as for a plain tool.
    const sample = output ?? this.options.sampler.sample(caller);
    return {
      sample,
      weight: path.weight,
      simulation,
      decisions: decisionsOf(frame.workflow!.walkPlan, result),
    };
  }
}

const NO_CHOICES: ReadonlyMap<string, number> = new Map();
const NO_DECISIONS: readonly Decision[] = [];

/**
 * The choices a scenario makes inside the sub-plan whose key starts with `prefix`: `own`, its
 * plan's branching calls' (by call index), and `key`, all of them (nested ones too) as text
 * relative to it, for the cache of walks: '' when it makes none, the baseline.
 */
function choicesInside(
  choices: ReadonlyMap<string, number>,
  prefix: string,
): { own: ReadonlyMap<number, number>; key: string } {
  if (choices.size === 0) return { own: NO_OWN, key: '' };
  const own = new Map<number, number>();
  const relative: string[] = [];
  for (const [key, choice] of choices) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    relative.push(`${rest}=${choice}`);
    if (!rest.includes('/')) own.set(Number(rest), choice);
  }
  return { own, key: relative.sort().join(',') };
}

const NO_OWN: ReadonlyMap<number, number> = new Map();

/** Each argument error inside a workflow's walk, once more at the call that called it. */
function lift(frame: Frame, caller: CompiledCall, answer: SubPlanAnswer): void {
  const inner = answer.simulation;
  if (inner === null) return;
  for (const e of inner.argumentErrors) {
    frame.errors.push({
      call: caller.id,
      tool: caller.tool,
      path: '',
      pointer: caller.pointer,
      line: 1,
      column: 1,
      writer: null,
      reference: null,
      message: `inside workflow "${inner.workflow}" (call "${caller.id}" → "${e.call}"): ${e.message}`,
    });
  }
}

/** The workflow's `output` on the walk's final state; null when unknown or missing there. */
function outputOf(definition: WorkflowPlan, input: JsonObject, result: Walk): Sample | null {
  const { plan, output } = definition;
  const roots = { input, state: result.state };
  const values: unknown[] = [];
  for (const leaf of output.leaves) {
    for (const ref of leaf.expression.refs)
      if (ref.root === 'state' && readsUnknown(plan, result, ref)) return null;
    const found = resolveExpression(leaf.expression, roots);
    if (!found.exists) return null;
    values.push(found.value);
  }
  if (output.leaves.length === 1 && output.leaves[0]!.at.length === 0)
    return { source: 'workflow', value: values[0] };
  const value = structuredClone(output.base) as Record<string | number, unknown>;
  output.leaves.forEach((leaf, k) => {
    let container = value;
    const { at } = leaf;
    for (let t = 0; t < at.length - 1; t++) container = container[at[t]!] as Record<string | number, unknown>;
    setOwnProperty(container as JsonObject, at[at.length - 1]! as string, values[k] as JsonObject[string]);
  });
  return { source: 'workflow', value };
}

/** True when a call that ran in the walk with an unknown output wrote where `ref` reads. */
function readsUnknown(plan: CompiledPlan, result: Walk, ref: Parameters<typeof coveredPath>[0]): boolean {
  const path = coveredPath(ref);
  for (let i = 0; i < plan.calls.length; i++) {
    if (!result.ran[i] || result.samples[i]!.source !== 'unknown') continue;
    const written = plan.calls[i]!.outputPath;
    if (written && written.paths.some((q) => pathsOverlap(q, path))) return true;
  }
  return false;
}
