/**
 * The results of a run's workflow sub-runs, kept for the calls' reports: a workflow call's report
 * says what its sub-plan's calls did (`workflow`), and so does each element of a `_forEach` over
 * a workflow. Nothing is made for a run that calls no workflow; a sub-run's own call reports are
 * made only when the caller reads them.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { CallReport, ElementReport, RunResult, SubRunResults, WorkflowRunReport } from '../types.js';

export class SubRuns implements SubRunResults {
  /** By call index: the call's sub-run, or its elements' by position. Made on first use. */
  #byCall: Map<number, RunResult | Map<number, RunResult>> | null = null;

  constructor(private readonly run: { readonly plan: CompiledPlan }) {}

  ended(toolCallId: string, element: number | undefined, result: RunResult): void {
    const id =
      element === undefined ? toolCallId : toolCallId.slice(0, toolCallId.length - `[${element}]`.length);
    const i = this.run.plan.indexOf(id);
    if (i === undefined) return;
    this.#byCall ??= new Map();
    if (element === undefined) this.#byCall.set(i, result);
    else {
      let elements = this.#byCall.get(i);
      if (!(elements instanceof Map)) this.#byCall.set(i, (elements = new Map()));
      elements.set(element, result);
    }
  }

  /** Adds what the sub-runs did to the reports (made from the records, so theirs to change). */
  addTo(reports: { -readonly [K in keyof CallReport]: CallReport[K] }[]): void {
    if (this.#byCall === null) return;
    for (const [i, ran] of this.#byCall) {
      const report = reports[i];
      if (report === undefined) continue;
      if (!(ran instanceof Map)) report.workflow = workflowReport(ran);
      else if (report.elements !== undefined)
        report.elements = report.elements.map((e, k): ElementReport => {
          const sub = ran.get(k);
          return sub === undefined ? e : { ...e, workflow: workflowReport(sub) };
        });
    }
  }
}

function workflowReport(result: RunResult): WorkflowRunReport {
  return { status: result.status, calls: result.calls };
}
