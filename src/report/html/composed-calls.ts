/**
 * The report's view of calls that compose: a `_forEach` call's node says what it loops over and
 * how its elements ended, and its details list each element's status and error; a workflow
 * call's node opens onto its plan's graph, drawn once per workflow into a `<template>` the
 * page's script shows on demand (a workflow inside it opens the same way).
 *
 * Given a run, a workflow call whose report carries its sub-run (CallReport.workflow) opens onto
 * a graph of its own, each call in the colour of how it ended there; a workflow call without one
 * (a dry run, a `_forEach` over a workflow, a call that never ran) opens onto its workflow's
 * plan, drawn once however often it is called, without statuses. Workflows are walked with an
 * explicit stack, and at most MAX_DRAWN_CALLS calls in all are drawn.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { CallReport } from '../../run/types.js';
import { runStatusOf } from './status.js';
import { elementCounts, elementSummary, workflowPlanOf } from '../workflow-plan.js';
import { renderGraphSvg } from './graph-svg.js';

/** Most calls drawn over every workflow's graph, so a page stays a page. */
const MAX_DRAWN_CALLS = 2000;
/** Most elements a for-each call's details list; the rest are counted. */
const MAX_LISTED_ELEMENTS = 1000;

/** What the details panel gets of a `_forEach` call (see client.ts). */
export interface ForEachData {
  readonly source: string;
  /** The count line, or null when the call never started its elements (or in a dry run). */
  readonly summary: string | null;
  /** `[status, error message or null]` per element, the first MAX_LISTED_ELEMENTS of them. */
  readonly elements: readonly (readonly [string, string | null])[];
  readonly more: number;
}

export function forEachData(plan: CompiledPlan, i: number, report?: CallReport): ForEachData | undefined {
  const forEach = plan.calls[i]!.forEach;
  if (!forEach) return undefined;
  const counts = elementCounts(report);
  const all = report?.elements ?? [];
  return {
    source: forEach.text,
    summary: counts === null ? null : elementSummary(counts),
    elements: all
      .slice(0, MAX_LISTED_ELEMENTS)
      .map((e) => [e.status.replace('_', ' '), e.error === null ? null : e.error.message] as const),
    more: Math.max(0, all.length - MAX_LISTED_ELEMENTS),
  };
}

/** The lines a node shows under its tool: for-each source and counts, a workflow's hint. */
export function nodeNotes(plan: CompiledPlan, i: number, report?: CallReport): string[] {
  const call = plan.calls[i]!;
  const notes: string[] = [];
  if (call.forEach) {
    notes.push(`for each ${call.forEach.text}`);
    const counts = elementCounts(report);
    if (counts !== null) notes.push(elementSummary(counts));
  }
  if (workflowPlanOf(plan, call) !== undefined) notes.push('workflow ▸ click to open');
  return notes;
}

export interface WorkflowGraphs {
  /** `<template id="wf-<k>">` per workflow drawn (escaped markup), for the page. */
  readonly templates: string;
  /** Per call of the top plan, the index of its workflow's graph, or null. */
  readonly byCall: readonly (number | null)[];
  /** Per graph: the workflow's name and the number of its calls, for the page's script. */
  readonly graphs: readonly { readonly tool: string; readonly calls: number }[];
  /** Workflows not drawn because the page had drawn MAX_DRAWN_CALLS calls already. */
  readonly left: number;
}

export interface WorkflowGraphOptions {
  readonly engine: 'auto' | 'dagre' | 'layered';
  readonly dagreLimit: number;
  /** The run's reports of the top plan's calls; undefined for a dry run. */
  readonly reports?: readonly CallReport[];
}

/** A graph to draw: a workflow's plan, with the reports of its calls when a run gave them. */
interface Pending {
  readonly plan: CompiledPlan;
  readonly reports: readonly CallReport[] | undefined;
}

export function workflowGraphs(top: CompiledPlan, o: WorkflowGraphOptions): WorkflowGraphs {
  const index = new Map<string, number | null>();
  const graphs: { tool: string; calls: number }[] = [];
  const templates: string[] = [];
  let budget = MAX_DRAWN_CALLS;
  let left = 0;
  /**
   * The graph of call i's workflow in `plan`: numbered when first met, drawn when popped. With
   * the call's sub-run report, a graph of its own; without, the workflow's, shared by its calls.
   */
  const number = (plan: CompiledPlan, i: number, report: CallReport | undefined): number | null => {
    const call = plan.calls[i]!;
    const ran = report?.id === call.id ? report.workflow?.calls : undefined;
    if (ran === undefined && index.has(call.tool)) return index.get(call.tool)!;
    const inner = workflowPlanOf(plan, call);
    if (inner === undefined) return null;
    if (inner.calls.length > budget) {
      if (ran === undefined) index.set(call.tool, null);
      left++;
      return null;
    }
    budget -= inner.calls.length;
    const k = graphs.length;
    if (ran === undefined) index.set(call.tool, k);
    graphs.push({ tool: call.tool, calls: inner.calls.length });
    pending.push({ plan: inner, reports: ran });
    return k;
  };
  const pending: Pending[] = [];
  const byCall = top.calls.map((_, i) => number(top, i, o.reports?.[i]));
  // A workflow without reports is drawn once: the list grows by those not met before.
  for (let k = 0; k < pending.length; k++) {
    const { plan, reports } = pending[k]!;
    const reportOf = (i: number) => (reports?.[i]?.id === plan.calls[i]!.id ? reports[i] : undefined);
    const inner = plan.calls.map((_, i) => number(plan, i, reportOf(i)));
    const svg = renderGraphSvg({
      plan,
      statuses: plan.calls.map((_, i) => {
        const report = reportOf(i);
        return report === undefined ? 'static' : runStatusOf(report);
      }),
      branches: plan.calls.map(() => null),
      criticalPath: [],
      engine: o.engine,
      dagreLimit: o.dagreLimit,
      direction: 'auto',
      notes: plan.calls.map((_, i) => nodeNotes(plan, i, reportOf(i))),
      svgId: `wf-svg-${k}`,
      nodeAttributes: (i) => (inner[i] === null ? '' : ` data-wf="${inner[i]}"`),
    });
    templates.push(`<template id="wf-${k}">${svg.svg}</template>`);
  }
  return { templates: templates.join(''), byCall, graphs, left };
}
