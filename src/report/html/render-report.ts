/**
 * `renderReport`: one self-contained HTML page about a run or a dry run of a compiled plan: the
 * graph laid out left to right, a timeline, and a details panel per call. No network, no
 * runtime layout: the SVGs are drawn here, the page's script only shows details.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { JsonObject } from '../../language/document.js';
import { prettyJsonPreview } from '../../language/json/index.js';
import type { CallReport, RunResult } from '../../run/types.js';
import type { Simulation } from '../../simulate/types.js';
import { escapeHtml } from './escape.js';
import { clip, type GraphSvg, renderGraphSvg } from './graph-svg.js';
import { renderPage } from './page.js';
import { REPORT_STATUSES, type ReportStatus, runStatusOf } from './status.js';
import { formatMs, runTimeline, stepTimeline } from './timeline.js';
import { edgeLabel } from '../edge-label.js';
import { planOf } from '../../compile/plan-of.js';
import { explainPanelData } from './explain-data.js';
import { forEachData, nodeNotes, workflowGraphs } from './composed-calls.js';
import { stepsNote, variedChoices, widestStepText } from './dry-run-notes.js';
import { checkOptions as checkOptionSpec, type OptionSpec } from '../../language/option-keys.js';

/** How a run's calls can end, in legend order (the rest of REPORT_STATUSES are the dry run's). */
const RUN_STATUSES: readonly ReportStatus[] = REPORT_STATUSES.slice(0, REPORT_STATUSES.indexOf('runs'));

/** What a report is about: a compiled plan with the result of running it, or of simulating it. */
export type ReportInput =
  | { readonly plan: CompiledPlan; readonly result: RunResult }
  | { readonly plan: CompiledPlan; readonly simulation: Simulation };

export const REPORT_LAYOUTS = ['auto', 'dagre', 'layered'] as const;

/** Which way the graph runs: `LR` left to right, `TB` top to bottom, or `auto`. */
export const REPORT_DIRECTIONS = ['auto', 'LR', 'TB'] as const;

export interface ReportOptions {
  /**
   * The page's title.
   * @default 'planmode run report' (a run) or 'planmode dry run' (a simulation)
   */
  readonly title?: string;
  /**
   * How the graph is laid out: `dagre` (fewest crossings, routed edges; seconds at 1,000 calls),
   * `layered` (columns by level, rows by barycenter; milliseconds), or `auto`: dagre up to
   * `dagreLimit` calls plus edges, layered above.
   * @default 'auto'
   */
  readonly layout?: (typeof REPORT_LAYOUTS)[number];
  /**
   * With `layout: 'auto'`, the most calls plus edges laid out with dagre.
   * @default 300
   */
  readonly dagreLimit?: number;
  /**
   * Which way the graph runs: `LR` (left to right), `TB` (top to bottom), or `auto`: the one
   * a reader scrolls least in at the page's default zoom (the column's width, with a call's text
   * at 11 px or more), so a long chain runs down and a wide fan-out runs right.
   * @default 'auto'
   */
  readonly direction?: (typeof REPORT_DIRECTIONS)[number];
  /**
   * Longest text kept per value shown in the details panel (arguments, output, error, sample),
   * as pretty-printed JSON; longer values are cut and say how much was left out.
   * @default 20000
   */
  readonly maxValueLength?: number;
}

const DEFAULTS = { layout: 'auto', dagreLimit: 300, direction: 'auto', maxValueLength: 20_000 } as const;

/**
 * Renders the report as one HTML string (inline CSS and script; no external resources).
 * `input` is `{ plan, result }`, `{ plan, simulation }`, or a result of `run()` or `simulate()`
 * made in this process (which knows its plan).
 *
 * @throws TypeError when the input is not a plan with a result or simulation of that plan, a
 *   bare result whose plan is not known, or an option is out of range.
 */
export function renderReport(
  input: ReportInput | RunResult | Simulation,
  options: ReportOptions = {},
): string {
  const o = checkOptions(options);
  if (isBareResult(input)) input = withItsPlan(input);
  const plan = checkPlan(input);
  if ('result' in input && input.result !== undefined)
    return renderRun(plan, checkResult(plan, input.result), o);
  if ('simulation' in input && input.simulation !== undefined)
    return renderSimulation(plan, checkSimulation(input.simulation), o);
  throw new TypeError(
    'renderReport: expected { plan, result } (a RunResult) or { plan, simulation } (a Simulation)',
  );
}

/** A RunResult or a Simulation on its own, without `{ plan }` around it. */
function isBareResult(input: unknown): input is RunResult | Simulation {
  if (input === null || typeof input !== 'object' || 'plan' in input) return false;
  const value = input as { calls?: unknown; status?: unknown; scenarios?: unknown };
  return (Array.isArray(value.calls) && typeof value.status === 'string') || Array.isArray(value.scenarios);
}

/**
 * A result of `run()` or `simulate()` in this process, with the plan it came from: what lets
 * `renderReport(result)` go without `{ plan }`.
 */
function withItsPlan(input: RunResult | Simulation): ReportInput {
  const plan = planOf(input);
  const what = 'scenarios' in input ? 'simulation' : 'result';
  if (!plan) {
    throw new TypeError(
      `renderReport: this ${what} has no plan attached (it was copied, came from another process, or from a streamed run); pass { plan, ${what} } with the CompiledPlan it belongs to`,
    );
  }
  return 'scenarios' in input ? { plan, simulation: input } : { plan, result: input };
}

type Options = Required<Omit<ReportOptions, 'title'>> & Pick<ReportOptions, 'title'>;

function renderRun(plan: CompiledPlan, result: RunResult, o: Options): string {
  const statuses = result.calls.map(runStatusOf);
  const cp = plan.criticalPath;
  const graph = renderGraphSvg({
    plan,
    statuses,
    branches: result.calls.map((c) => c.branch),
    criticalPath: cp,
    engine: o.layout,
    dagreLimit: o.dagreLimit,
    direction: o.direction,
    notes: plan.calls.map((_, i) => nodeNotes(plan, i, result.calls[i])),
  });
  const workflows = workflowGraphs(plan, {
    engine: o.layout,
    dagreLimit: o.dagreLimit,
    reports: result.calls,
  });
  const timeline = runTimeline(result, statuses, new Set(cp));
  const t0 = Date.parse(result.startedAt);
  const calls = plan.calls.map((call, i) => {
    const r = result.calls[i]!;
    return {
      ...common(plan, i, o, workflows.byCall[i] ?? null, r),
      view: statuses[i],
      attempts: r.attempts,
      branch: r.branch,
      handled: r.handled,
      startedAt: r.startedAt,
      endedAt: r.endedAt,
      error: r.error
        ? clipText(`${r.error.message}${r.error.code !== undefined ? `\ncode: ${r.error.code}` : ''}`, o)
        : null,
      // A handled throw's output is its error, written to its error alternative: shown once, as the error.
      ...(r.output !== undefined && !r.handled && { output: text(r.output, o) }),
      ...(r.args !== undefined && { args: text(r.args, o) }),
      ...(call.hasOutput && r.output === undefined && { output: text(call.output, o) }),
    };
  });
  const never = [...timeline.notStarted].map(([s, n]) => `${n} ${s.replace('_', ' ')}`).join(', ');
  const started = result.calls.length - [...timeline.notStarted.values()].reduce((a, b) => a + b, 0);
  return renderPage({
    title: o.title ?? 'planmode run report',
    summary: [
      `Run ${result.status} · ${plan.calls.length} calls, ${plan.edgeCount} edges · ${plan.mode} mode · started ${result.startedAt} · took ${formatMs(Math.max(0, Date.parse(result.endedAt) - t0))}`,
    ],
    legend: legend(statuses, RUN_STATUSES),
    graphSvg: graph.svg,
    graphNote: graphNote(plan, graph),
    timelineTitle: 'Timeline',
    timelineSvg: timeline.svg,
    timelineNote: `${started} calls started; at most ${timeline.lanes} ran at once (one lane each); times from the run's start${never ? `; never started: ${never}` : ''}`,
    scenarios: '',
    diagnostics: diagnosticsMarkup(result.diagnostics),
    workflows: workflows.templates,
    data: { kind: 'run', startedAt: t0, calls, workflows: workflows.graphs, explain: explainPanelData(plan) },
  });
}

function renderSimulation(plan: CompiledPlan, sim: Simulation, o: Options): string {
  const index = (id: string, where: string): number => {
    const i = plan.indexOf(id);
    if (i === undefined)
      throw new TypeError(
        `renderReport: the simulation names call '${clip(id, 60)}' (${where}), which the plan does not have`,
      );
    return i;
  };
  const scenarios = sim.scenarios.map((s, k) => ({
    choices: Object.fromEntries(
      Object.entries(s.choices).map(([id, alt]) => [index(id, `scenario ${k}`), alt]),
    ),
    skipped: s.skipped.map((id) => index(id, `scenario ${k}`)),
    errors: s.argumentErrors.map((e) => [index(e.call, `scenario ${k}`), e.path, e.message] as const),
  }));
  const first = scenarios[0];
  const skipped = new Set(first?.skipped);
  const wrong = new Set(first?.errors.map((e) => e[0]));
  const statuses: ReportStatus[] = plan.calls.map((_, i) =>
    skipped.has(i) ? 'skipped' : wrong.has(i) ? 'argument_error' : 'runs',
  );
  const cp = sim.criticalPath.map((id) => index(id, 'criticalPath'));
  const graph = renderGraphSvg({
    plan,
    statuses,
    branches: plan.calls.map((_, i) => first?.choices[i] ?? null),
    criticalPath: cp,
    engine: o.layout,
    dagreLimit: o.dagreLimit,
    direction: o.direction,
    notes: plan.calls.map((_, i) => nodeNotes(plan, i)),
  });
  const workflows = workflowGraphs(plan, { engine: o.layout, dagreLimit: o.dagreLimit });
  const timeline = stepTimeline(plan, statuses, new Set(cp));
  const calls = plan.calls.map((call, i) => {
    const sample = sim.samples[call.id];
    return {
      ...common(plan, i, o, workflows.byCall[i] ?? null),
      view: statuses[i],
      level: plan.levels[i] ?? 0,
      ...(sample && { sample: text(sample.value, o), sampleSource: sample.source }),
    };
  });
  const buttons = scenarios
    .map((s, k) => {
      const choices = variedChoices(sim.scenarios[k]!);
      const label = `#${k} ${k === 0 ? 'baseline' : choices.join(', ')}: ${plan.calls.length - s.skipped.length} run, ${s.skipped.length} skipped${s.errors.length ? `, ${s.errors.length} argument errors` : ''}`;
      return `<button type="button" class="sc${k === 0 ? ' on' : ''}" data-sc="${k}">${escapeHtml(label)}</button>`;
    })
    .join('');
  return renderPage({
    title: o.title ?? 'planmode dry run',
    summary: [
      `Dry run · ${plan.calls.length} calls, ${plan.edgeCount} edges · ${plan.mode} mode · ${sim.scenarios.length} scenario${sim.scenarios.length === 1 ? '' : 's'}${sim.truncated ? ' (truncated)' : ''} · nothing was executed`,
      `Critical path (${cp.length} calls, weight ${sim.criticalPathWeight}): ${clip(sim.criticalPath.join(' → '), 400)} · ${widestStepText(sim)}`,
    ],
    legend: legend(statuses, ['runs', 'argument_error', 'skipped']),
    graphSvg: graph.svg,
    graphNote: `${graphNote(plan, graph)}; colors show the scenario chosen below`,
    timelineTitle: 'Steps',
    timelineSvg: timeline.svg,
    timelineNote: stepsNote(sim, timeline.lanes),
    scenarios: `<div class="scenarios" role="group" aria-label="scenarios">${buttons}</div>`,
    diagnostics: diagnosticsMarkup(sim.diagnostics),
    workflows: workflows.templates,
    data: {
      kind: 'simulation',
      calls,
      scenarios,
      workflows: workflows.graphs,
      explain: explainPanelData(plan),
    },
  });
}

/**
 * What the details panel shows of any call; `wf` is the index of its workflow's graph, `each`
 * a for-each call's source and elements (with the run's report of it).
 */
function common(plan: CompiledPlan, i: number, o: Options, wf: number | null, report?: CallReport) {
  const call = plan.calls[i]!;
  const output = call.outputPath;
  const each = forEachData(plan, i, report);
  return {
    ...(wf !== null && { wf }),
    ...(each !== undefined && { each }),
    id: call.id,
    tool: call.tool,
    out: output?.text ?? null,
    alts: output?.op === '||' ? output.refs.map((r) => r.text) : null,
    deps: call.dependencies.map((d) => [d.from, edgeLabel(call, d), d.kind] as const),
    raw: text(call.args as JsonObject, o),
  };
}

function graphNote(plan: CompiledPlan, { layout, hiddenLabels }: GraphSvg): string {
  const way = layout.direction === 'LR' ? 'left to right' : 'top to bottom';
  const levels = layout.direction === 'LR' ? 'columns by level' : 'rows by level';
  const laidOut =
    layout.bands !== undefined
      ? `${levels}, folded into ${layout.bands} band${layout.bands === 1 ? '' : 's'} to show the whole graph (an edge to the next band crosses over)`
      : layout.engine === 'dagre'
        ? 'laid out with dagre'
        : `${plan.calls.length + plan.edgeCount} calls plus edges: ${levels}`;
  return `${way}: an edge runs from a call to one that needs it, labeled with the state path; ${laidOut}; click a call${hiddenLabels > 0 ? `; ${hiddenLabels} edge label${hiddenLabels === 1 ? '' : 's'} left out where edges crowd (a call's details list the paths it reads)` : ''}`;
}

function legend(statuses: readonly ReportStatus[], shown: readonly ReportStatus[]) {
  const counts = new Map<ReportStatus, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return shown.map((status) => ({ status, count: counts.get(status) ?? 0 }));
}

function diagnosticsMarkup(
  diagnostics: readonly { severity: string; code: string; message: string; call?: string }[],
): string {
  if (diagnostics.length === 0) return '';
  const items = diagnostics
    .slice(0, 200)
    .map(
      (d) =>
        `<li>${escapeHtml(`${d.severity} ${d.code}${d.call !== undefined ? ` [${d.call}]` : ''}: ${d.message}`)}</li>`,
    )
    .join('');
  const more = diagnostics.length > 200 ? `<li>… and ${diagnostics.length - 200} more</li>` : '';
  return `<details class="diags"><summary>${diagnostics.length} diagnostic${diagnostics.length === 1 ? '' : 's'}</summary><ul>${items}${more}</ul></details>`;
}

/**
 * A value as the panel shows it: pretty JSON, cut at maxValueLength. Values many calls share
 * (one read by every call's arguments) are serialised once, and only the part shown is built.
 */
function text(value: unknown, o: Options): string {
  try {
    const { head, length } = prettyJsonPreview(value, o.maxValueLength);
    return length <= o.maxValueLength
      ? head
      : `${head}\n… ${length - o.maxValueLength} more characters not shown`;
  } catch (e) {
    return clipText(`[not JSON: ${(e as Error).message}]`, o);
  }
}

function clipText(s: string, o: Options): string {
  return s.length <= o.maxValueLength
    ? s
    : `${s.slice(0, o.maxValueLength)}\n… ${s.length - o.maxValueLength} more characters not shown`;
}

/** layout, dagreLimit, direction and maxValueLength have their own checks (below). */
const REPORT_OPTIONS: OptionSpec<ReportOptions> = {
  title: 'string',
  layout: 'any',
  dagreLimit: 'any',
  direction: 'any',
  maxValueLength: 'any',
};

function checkOptions(options: ReportOptions): Options {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`renderReport: options must be an object, not ${String(options)}`);
  checkOptionSpec('renderReport', options, REPORT_OPTIONS);
  const layout = options.layout ?? DEFAULTS.layout;
  if (!(REPORT_LAYOUTS as readonly string[]).includes(layout))
    throw new TypeError(
      `renderReport: layout must be one of ${REPORT_LAYOUTS.join(', ')}, not '${String(layout)}'`,
    );
  const dagreLimit = options.dagreLimit ?? DEFAULTS.dagreLimit;
  if (!Number.isSafeInteger(dagreLimit) || dagreLimit < 0)
    throw new TypeError(`renderReport: dagreLimit must be a whole number >= 0, not ${String(dagreLimit)}`);
  const direction = options.direction ?? DEFAULTS.direction;
  if (!(REPORT_DIRECTIONS as readonly string[]).includes(direction))
    throw new TypeError(
      `renderReport: direction must be one of ${REPORT_DIRECTIONS.join(', ')}, not '${String(direction)}'`,
    );
  const maxValueLength = options.maxValueLength ?? DEFAULTS.maxValueLength;
  if (!Number.isSafeInteger(maxValueLength) || maxValueLength < 1)
    throw new TypeError(
      `renderReport: maxValueLength must be a whole number >= 1, not ${String(maxValueLength)}`,
    );
  if (options.title !== undefined && typeof options.title !== 'string')
    throw new TypeError(`renderReport: title must be a string, not ${typeof options.title}`);
  return {
    layout,
    dagreLimit,
    direction,
    maxValueLength,
    ...(options.title !== undefined && { title: options.title }),
  };
}

function checkPlan(input: ReportInput): CompiledPlan {
  const plan = (input as { plan?: Partial<CompiledPlan> } | null)?.plan;
  if (
    !plan ||
    !Array.isArray(plan.calls) ||
    !Array.isArray(plan.levels) ||
    typeof plan.indexOf !== 'function'
  )
    throw new TypeError(
      'renderReport: expected { plan, result } or { plan, simulation }, with plan a CompiledPlan (compile(...).plan)',
    );
  return plan as CompiledPlan;
}

function checkResult(plan: CompiledPlan, result: RunResult): RunResult {
  if (!Array.isArray(result.calls) || typeof result.startedAt !== 'string')
    throw new TypeError('renderReport: result must be the RunResult of run()');
  if (result.calls.length !== plan.calls.length || result.calls.some((c, i) => c.id !== plan.calls[i]!.id))
    throw new TypeError(
      `renderReport: the result (${result.calls.length} calls) is not a run of this plan (${plan.calls.length} calls): ids differ`,
    );
  return result;
}

function checkSimulation(sim: Simulation): Simulation {
  if (!Array.isArray(sim.scenarios) || !Array.isArray(sim.criticalPath) || typeof sim.samples !== 'object')
    throw new TypeError('renderReport: simulation must be the Simulation of simulate()');
  return sim;
}
