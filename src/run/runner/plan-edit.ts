/**
 * A lazy plan's approval, where the answer may edit the plan: `{ approved: true, plan }`. The
 * edit is compiled against what the plan asked about was (the tools, the run's input and
 * initial state, the state schema, the mode, the limits); one with errors is asked about again
 * with its diagnostics, a bounded number of times (RunOptions.maxEditRetries), so a callback
 * that keeps answering a broken plan cannot hold the run forever. An edit that compiles to the
 * same calls as the plan asked about is no edit.
 */
import { compile } from '../../compile/compile.js';
import type { CompiledPlan } from '../../compile/types.js';
import { PlanValidationError } from '../../errors.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { JsonObject } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import { type PlanEditProblem, readPlanApproval } from '../approval.js';
import { canonicalJson } from '../journal/index.js';
import { planIdentity } from '../journal/journal-digests.js';
import { DEFAULT_MAX_EDIT_RETRIES } from '../run-options.js';
import { approvalAnswered, approvalAsked, type ApprovalHost, unlessAborted } from './call-approval.js';

/** The reason a lazy plan's request gives. */
export const LAZY_PLAN_REASON = 'a lazy plan runs only once approved';

/** What editing needs of the run beyond asking (the Runner is one). */
export interface PlanEditHost extends ApprovalHost {
  readonly input: JsonObject;
  readonly roots: { readonly state: JsonObject };
  readonly limits: Limits;
  readonly mode: 'eager' | 'lazy';
}

/** The answer about a lazy plan, with an edit when it was one. */
export type PlanVerdict =
  | { readonly approved: false; readonly error?: PlanValidationError }
  | { readonly approved: true; readonly edited?: EditedPlan };

/** An edit that compiled and changes the plan. */
export interface EditedPlan {
  readonly plan: CompiledPlan;
  /** The edit as given (a text answer parsed): the result's `editedPlan`. */
  readonly value: unknown;
}

/**
 * Asks `approve` about the run's plan, and again after each edit with errors, at most
 * `maxEditRetries` times; an edit with errors after that is a no, with the error to throw.
 * @throws {TypeError} for an answer that is not one, or an edit JSON cannot hold.
 */
export async function askAboutPlan(run: PlanEditHost): Promise<PlanVerdict> {
  run.event({ type: 'approval:requested', kind: 'plan' });
  const approve = run.options.approve;
  if (!approve) return { approved: false };
  const maxRetries = run.options.maxEditRetries ?? DEFAULT_MAX_EDIT_RETRIES;
  let edit: PlanEditProblem | undefined;
  approvalAsked(run);
  try {
    for (let attempt = 1; ; attempt++) {
      const request = {
        kind: 'plan',
        plan: run.plan,
        reason: LAZY_PLAN_REASON,
        ...(edit && { edit }),
      } as const;
      const decision = readPlanApproval(await unlessAborted(run, approve(request)));
      if (!decision.approved || run.options.signal?.aborted) return { approved: false };
      if (decision.plan === undefined) return { approved: true };
      const text = editText(decision.plan);
      const compiled = compileEdit(run, text);
      if (compiled.plan) {
        if (sameCalls(run.plan, compiled.plan)) return { approved: true };
        return { approved: true, edited: { plan: compiled.plan, value: editValue(decision.plan, text) } };
      }
      if (attempt > maxRetries)
        return { approved: false, error: tooManyEdits(compiled.diagnostics, attempt) };
      edit = { text, diagnostics: compiled.diagnostics, attempt, retriesLeft: maxRetries - attempt };
      run.event({ type: 'approval:requested', kind: 'plan' });
    }
  } finally {
    approvalAnswered(run);
  }
}

/** The edit as JSON text: a text answer as is, a value with a 2-space indent (its diagnostics' lines). */
function editText(plan: unknown): string {
  if (typeof plan === 'string') return plan;
  let text: string | undefined;
  try {
    text = JSON.stringify(plan, null, 2);
  } catch (e) {
    throw new TypeError(`the edited plan an approval callback answered is not JSON: ${(e as Error).message}`);
  }
  if (text === undefined)
    throw new TypeError(`the edited plan an approval callback answered is not JSON (${typeof plan})`);
  return text;
}

function editValue(plan: unknown, text: string): unknown {
  if (typeof plan !== 'string') return plan;
  return JSON.parse(text) as unknown;
}

function compileEdit(run: PlanEditHost, text: string): { plan?: CompiledPlan; diagnostics: Diagnostic[] } {
  const { options, plan } = run;
  const compiled = compile(text, {
    tools: run.tools,
    input: run.input,
    // Nothing has run yet: the state is the initial state the plan asked about was compiled with.
    state: run.roots.state,
    ...(plan.stateSchema !== undefined && { stateSchema: plan.stateSchema }),
    mode: run.mode,
    source: 'edited plan',
    ...(options.limits !== undefined && { limits: options.limits }),
    ...(options.strict === true && { strict: true }),
  });
  return compiled.ok && compiled.plan
    ? { plan: compiled.plan, diagnostics: [] }
    : { diagnostics: compiled.diagnostics };
}

/**
 * The same calls, written alike, with the same ordering edges: what the journal identifies a
 * plan by, plus each call's dependencies (an added `_after` changes the order, not the calls).
 */
function sameCalls(a: CompiledPlan, b: CompiledPlan): boolean {
  if (a.mode !== b.mode || a.calls.length !== b.calls.length) return false;
  const order = (plan: CompiledPlan) =>
    plan.calls.map((call) => call.dependencies.map((d) => [d.from, d.kind]));
  return canonicalJson([planIdentity(a), order(a)]) === canonicalJson([planIdentity(b), order(b)]);
}

function tooManyEdits(diagnostics: readonly Diagnostic[], attempt: number): PlanValidationError {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0];
  const where = first ? `: ${first.line}:${first.column}: ${first.code}: ${first.message}` : '';
  return new PlanValidationError(
    diagnostics,
    `the plan was not approved: edited plan ${attempt} still does not compile${where}, and maxEditRetries (${attempt - 1}) allows no more tries; answer with a plan that compiles, or raise maxEditRetries`,
  );
}
