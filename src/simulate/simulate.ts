/**
 * simulate(): the dry run. Executes nothing: samples each tool's output from its `outputSchema`,
 * walks the graph once per combination of alternatives taken, and checks every resolved argument.
 */
import { optionKeys, rejectUnknownOptions } from '../language/option-keys.js';
import { compile } from '../compile/compile.js';
import type { CompiledPlan } from '../compile/types.js';
import type { PlanInput } from '../language/document.js';
import { PlanValidationError } from '../errors.js';
import {
  compareDiagnostics,
  type Diagnostic,
  error,
  type PendingDiagnostic,
  warning,
} from '../language/diagnostics.js';
import { resolveLimits } from '../language/limits.js';
import { positionDiagnostics } from '../language/parse/index.js';
import type { SourceText } from '../language/text/index.js';
import { ToolRegistry } from '../tools/registry.js';
import { ArgumentChecker } from './argument-checks.js';
import { ShownDefaults } from './shown-defaults.js';
import { branchGroups } from './branch-groups.js';
import {
  type CriticalPath,
  criticalPath,
  toolWeight,
  type WidestLevel,
  widestLevel,
} from './critical-path.js';
import {
  DEFAULT_FOR_EACH_SAMPLES,
  DEFAULT_SIMULATED_CONCURRENCY,
  type ForEachModel,
} from './for-each-sample.js';
import { SubPlanSimulator } from './sub-plans.js';
import { decisionsOf, ownChoices, workflowChoicesOf } from './scenario-decisions.js';
import { branchingWorkflowCalls } from './workflow-branches.js';
import { walkPlanOf } from './walk-plan.js';
import { lazierMode } from '../language/execution-mode.js';
import { OutputSampler } from './sample-outputs.js';
import type { ArgumentError, Scenario, SimulateOptions, Simulation } from './types.js';
import { baselineChoice, type Walk, type WalkPlan, walk } from './walk.js';
import { rememberPlan } from '../compile/plan-of.js';
import { isCompiledPlan } from '../compile/compiled-plan.js';

export const DEFAULT_SEED = 1;
export const DEFAULT_MAX_SCENARIOS = 256;

/**
 * Simulates a plan: a compiled plan, a document from parsePlan, JSON text or a JSON value.
 *
 * Scenarios: the baseline (every branching call takes its first alternative, or its second when
 * `_onError` names the first), then, group by
 * group (see branch-groups.ts), every other combination of the alternatives of the group's
 * branching calls that run (and of those inside its workflow calls, see scenario-decisions.ts),
 * with the other groups at baseline. Within a group, combinations that differ from the
 * baseline in one choice come first.
 *
 * @throws {PlanValidationError} when the plan does not compile.
 * @throws {TypeError} for a bad option value.
 */
export function simulate(
  planOrDocument: CompiledPlan | PlanInput,
  options: SimulateOptions = {},
): Simulation {
  checkOptions(options);
  const { plan, source } = toCompiledPlan(planOrDocument, options);
  return simulateCompiled(plan, source, options);
}

const SIMULATE_OPTIONS = optionKeys<SimulateOptions>({
  tools: true,
  input: true,
  state: true,
  mode: true,
  seed: true,
  maxScenarios: true,
  forEachSamples: true,
  concurrency: true,
  limits: true,
  applyDefaults: true,
});

function checkOptions(options: SimulateOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`simulate: options must be an object, not ${String(options)}`);
  }
  rejectUnknownOptions('simulate', options, SIMULATE_OPTIONS);
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(seed)) throw new TypeError(`Expected seed to be a whole number, got ${String(seed)}`);
  const maxScenarios = options.maxScenarios ?? DEFAULT_MAX_SCENARIOS;
  if (!(Number.isInteger(maxScenarios) && maxScenarios >= 1)) {
    throw new TypeError(`Expected maxScenarios to be a whole number >= 1, got ${String(maxScenarios)}`);
  }
  for (const [name, value, least] of [
    ['forEachSamples', options.forEachSamples, 0],
    ['concurrency', options.concurrency, 1],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= least))
      throw new TypeError(`Expected ${name} to be a whole number >= ${least}, got ${String(value)}`);
  }
}

/**
 * simulate() for a plan compiled already, with the source text its diagnostics point into
 * (a CompiledPlan keeps no positions; the CLI has the document).
 */
export function simulateCompiled(
  plan: CompiledPlan,
  source: SourceText | null,
  options: SimulateOptions = {},
): Simulation {
  checkOptions(options);
  const seed = options.seed ?? DEFAULT_SEED;
  const maxScenarios = options.maxScenarios ?? DEFAULT_MAX_SCENARIOS;
  const tools = options.tools !== undefined ? ToolRegistry.from(options.tools) : plan.tools;

  const limits = resolveLimits(options.limits);
  const mode = lazierMode(plan.mode, options.mode);
  const sampler = new OutputSampler(tools, seed, mode, limits);
  const { alternatives, groups } = branchGroups(plan, branchingWorkflowCalls(plan, tools));
  const concurrency = options.concurrency ?? DEFAULT_SIMULATED_CONCURRENCY;
  const forEach: ForEachModel = {
    present: false,
    samples: options.forEachSamples ?? DEFAULT_FOR_EACH_SAMPLES,
    lanesOf: () => concurrency,
    weightOf: (tool) => toolWeight(tools, tool),
  };
  const walkPlan = walkPlanOf({
    plan,
    tools,
    sampler,
    mode,
    forEach,
    alternatives,
    input: plan.input ?? {},
    keys: groups.length > 0,
  });
  // The checker's cache keys a value by the call that wrote it and its choice: a workflow's or a
  // _forEach call's sample also depends on its own arguments, so with one of them it checks anew.
  const dynamic = walkPlan.workflows !== null || walkPlan.forEach.present;
  const applyDefaults = options.applyDefaults !== false;
  const checker = new ArgumentChecker(plan, tools, groups.length > 0 && !dynamic, applyDefaults);
  const defaults = new ShownDefaults(plan, applyDefaults ? tools : undefined);
  const subPlans = new SubPlanSimulator({ tools, sampler, forEach, applyDefaults });

  const scenarios: Scenario[] = [];
  // The plan's critical path and widest level are the largest of any scenario's: calls in
  // exclusive branches never run together, so the whole graph would overstate both.
  let critical: CriticalPath = { calls: [], weight: -1 };
  let widest: WidestLevel = { level: 0, calls: [] };
  const runScenario = (assigned: ReadonlyMap<string, number>, empty?: ReadonlySet<number>): Walk => {
    const errors: ArgumentError[] = [];
    const first = scenarios.length === 0;
    const steps = walk(
      walkPlan,
      ownChoices(assigned),
      (i, resolved) => {
        if (first) defaults.remember(i, resolved);
        for (const e of checker.check(i, resolved)) errors.push(e);
      },
      empty,
    );
    const result = subPlans.run(steps, plan, errors, assigned);
    scenarios.push(toScenario(walkPlan, result, errors, empty, tools));
    const path = criticalPath(plan, tools, result.ran, result.weights);
    if (path.weight > critical.weight) critical = path;
    const level = widestLevel(plan, result.ran);
    if (level.calls.length > widest.calls.length) widest = level;
    return result;
  };

  const baseline = runScenario(new Map());
  let truncated = false;
  for (let g = 0; g < groups.length && !truncated; g++) {
    const members = new Set(groups[g]);
    // Breadth first over the group's decisions: each queued assignment is one scenario. An
    // assignment fixes every decision made before the one it flips (to its baseline unless
    // set), so no combination is reached twice; decisions not made in a walk have no choice. A
    // decision inside a workflow call belongs to that call's group. The queue never holds more
    // than the scenarios left to `maxScenarios`: past it an assignment is not made, and the
    // simulation is truncated.
    const queue: Map<string, number>[] = [];
    let head = 0;
    const expand = (assigned: ReadonlyMap<string, number>, result: Walk) => {
      const prefix = new Map(assigned);
      for (const d of decisionsOf(walkPlan, result)) {
        if (!members.has(d.path[0]!) || prefix.has(d.key)) continue;
        for (let k = 0; k < d.alternatives; k++) {
          if (k === d.baseline) continue;
          if (scenarios.length + queue.length - head >= maxScenarios) {
            truncated = true;
            return;
          }
          queue.push(new Map(prefix).set(d.key, k));
        }
        prefix.set(d.key, d.baseline);
      }
    };
    expand(new Map(), baseline);
    while (head < queue.length) {
      const assigned = queue[head++]!;
      expand(assigned, runScenario(assigned));
    }
  }
  // Then each _forEach call that ran in the baseline with an empty array: it writes [].
  for (const i of baseline.elements.keys()) {
    if (truncated) break;
    if (scenarios.length >= maxScenarios) truncated = true;
    else runScenario(new Map(), new Set([i]));
  }

  if (critical.weight < 0) critical = { calls: [], weight: 0 };
  if (source) placeArgumentErrors(scenarios, source);
  const ids = (indices: readonly number[]) => indices.map((i) => plan.calls[i]!.id);
  const simulation: Simulation = {
    scenarios,
    truncated,
    branchGroups: groups.map(ids),
    criticalPath: ids(critical.calls),
    criticalPathWeight: critical.weight,
    maxParallelism: widest.calls.length,
    widestLevel: { level: widest.level, calls: ids(widest.calls) },
    samples: Object.fromEntries(plan.calls.map((call, i) => [call.id, baseline.samples[i]!])),
    workflows: Object.fromEntries([...baseline.subPlans].map(([i, sub]) => [plan.calls[i]!.id, sub])),
    forEach: Object.fromEntries(
      [...baseline.elements].map(([i, elements]) => [
        plan.calls[i]!.id,
        { elements, lanes: concurrency, weight: baseline.weights![i]! },
      ]),
    ),
    ...defaults.shown(baseline.ran),
    diagnostics: diagnosticsOf(plan, scenarios, source, refusedSamples(plan, sampler.refused)),
  };
  return rememberPlan(simulation, plan);
}

/**
 * Gives every argument error its line and column, all in one pass over the source text. An
 * error found in several scenarios is one object (the checker caches them): placed once.
 */
function placeArgumentErrors(scenarios: Scenario[], source: SourceText): void {
  const errors = [...new Set(scenarios.flatMap((s) => s.argumentErrors))];
  const positions = source.locateAll(errors.map((e) => ({ pointer: e.pointer })));
  const placed = new Map(
    errors.map((e, k) => [e, { ...e, line: positions[k]!.line, column: positions[k]!.column }]),
  );
  scenarios.forEach((scenario, k) => {
    scenarios[k] = { ...scenario, argumentErrors: scenario.argumentErrors.map((e) => placed.get(e)!) };
  });
}

function toScenario(
  p: WalkPlan,
  result: Walk,
  argumentErrors: ArgumentError[],
  empty: ReadonlySet<number> | undefined,
  tools: ToolRegistry | undefined,
): Scenario {
  const { plan } = p;
  const choices: Record<string, number> = {};
  const flipped = new Set<string>();
  for (const b of [...result.branched].sort((a, c) => a - c)) {
    const id = plan.calls[b]!.id;
    choices[id] = result.choice[b]!;
    if (result.choice[b] !== baselineChoice(p, b)) flipped.add(id);
  }
  const varies = Object.keys(choices).filter((id) => flipped.has(id));
  const run: string[] = [];
  const skipped: string[] = [];
  plan.calls.forEach((call, i) => (result.ran[i] ? run : skipped).push(call.id));
  const emptyForEach = [...(empty ?? [])].map((i) => plan.calls[i]!.id);
  const inner = result.decisions && workflowChoicesOf(plan, tools, result.decisions);
  const scenario: Scenario = { choices, run, skipped, argumentErrors, varies, emptyForEach };
  return inner ? { ...scenario, workflowChoices: inner } : scenario;
}

/** The compile warnings and one E_SIM_ARGS per distinct argument error, in source order. */
function diagnosticsOf(
  plan: CompiledPlan,
  scenarios: readonly Scenario[],
  source: SourceText | null,
  refused: readonly PendingDiagnostic[],
): Diagnostic[] {
  const seen = new Set<string>();
  const found: ArgumentError[] = [];
  for (const scenario of scenarios) {
    for (const e of scenario.argumentErrors) {
      const key = `${e.pointer}\u0000${e.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(e);
    }
  }
  const pending: PendingDiagnostic[] = found.map((e) =>
    error('E_SIM_ARGS', e.pointer, e.message, { call: e.call }),
  );
  pending.push(...refused);
  const positioned: Diagnostic[] = source
    ? positionDiagnostics(pending, source)
    : pending.map((d) => ({ ...d, line: 1, column: 1 }));
  return [...plan.diagnostics, ...positioned].sort(compareDiagnostics);
}

/** One W_LIMIT per tool whose output was not sampled, at the `_tool` of its first call. */
function refusedSamples(plan: CompiledPlan, refused: ReadonlyMap<string, string>): PendingDiagnostic[] {
  const found: PendingDiagnostic[] = [];
  for (const [tool, reason] of refused) {
    const call = plan.calls.find((c) => c.tool === tool);
    if (!call) continue;
    found.push(
      warning(
        'W_LIMIT',
        `${call.pointer}/_tool`,
        `tool "${tool}"'s outputSchema is not sampled: ${reason}; the outputs of its calls are unknown in this dry run`,
        {
          call: call.id,
          hint: 'bound the schema (a smaller minItems, minProperties or minLength), or raise the limit it names (--limit name=value)',
        },
      ),
    );
  }
  return found;
}

function toCompiledPlan(
  value: CompiledPlan | PlanInput,
  options: SimulateOptions,
): { plan: CompiledPlan; source: SourceText | null } {
  if (isCompiledPlan(value)) return { plan: value, source: null };
  const compiled = compile(value, {
    ...(options.tools !== undefined && { tools: options.tools }),
    ...(options.input && { input: options.input }),
    ...(options.state && { state: options.state }),
    ...(options.mode && { mode: options.mode }),
  });
  if (!compiled.ok) throw new PlanValidationError(compiled.diagnostics);
  return { plan: compiled.plan!, source: compiled.document?.source ?? null };
}
