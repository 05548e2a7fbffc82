/**
 * A lazy plan's approval, where the answer may edit the plan: `{ approved: true, plan }`. The
 * edit is compiled against what the plan asked about was (the tools, the run's input and
 * initial state, the state schema, the mode, the limits); one with errors is asked about again
 * with its diagnostics, a bounded number of times (RunOptions.maxEditRetries), so a callback
 * that keeps answering a broken plan cannot hold the run forever. An edit that compiles to the
 * same calls as the plan asked about is no edit.
 */
import { compile, type CompileOptions } from '../../compile/compile.js';
import type { CompiledPlan } from '../../compile/types.js';
import { PlanValidationError } from '../../errors.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { JsonObject } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import {
  type ApprovalDecision,
  type ApprovalResponse,
  type PlanEditProblem,
  readPlanApproval,
} from '../approval.js';
import { canonicalJson, planIdentity } from '../journal/index.js';
import { DEFAULT_MAX_EDIT_RETRIES } from '../run-options.js';
import { workflowListing } from '../workflow-listing.js';
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
  | { readonly approved: false; readonly feedback?: string; readonly error?: PlanValidationError }
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
  approvalAsked(run);
  // What its workflows will call: a person approves what will actually run.
  const workflows = workflowListing(run.plan, run.tools);
  try {
    return await askWithEdits({
      plan: run.plan,
      ask: (edit) =>
        unlessAborted(
          run,
          approve({
            kind: 'plan',
            plan: run.plan,
            reason: LAZY_PLAN_REASON,
            ...(edit && { edit }),
            ...(workflows && { workflows }),
          }),
        ),
      compile: (text) => compileEdit(text, editCompileOptions(run)),
      ...(run.options.maxEditRetries !== undefined && { maxEditRetries: run.options.maxEditRetries }),
      askingAgain: () => run.event({ type: 'approval:requested', kind: 'plan' }),
      aborted: () => run.options.signal?.aborted === true,
    });
  } finally {
    approvalAnswered(run);
  }
}

/** What {@link askWithEdits} asks with: run() and solve() each give theirs. */
export interface EditLoopOptions {
  /** The plan asked about. */
  readonly plan: CompiledPlan;
  /** Asks once; `edit` is set when asking again after an edit with errors. */
  readonly ask: (edit: PlanEditProblem | undefined) => Promise<ApprovalResponse>;
  /** Compiles an edit (JSON text) as the plan asked about was compiled. */
  readonly compile: (text: string) => { plan?: CompiledPlan; diagnostics: Diagnostic[] };
  /** @default DEFAULT_MAX_EDIT_RETRIES (5) */
  readonly maxEditRetries?: number;
  /** Told before each time it asks again. @default nothing */
  readonly askingAgain?: () => void;
  /** True when the run was stopped meanwhile: a yes then is no yes. @default never */
  readonly aborted?: () => boolean;
}

/**
 * One plan's approval with edits: asks, compiles an edit, asks again with an edit's errors.
 * @throws {TypeError} for an answer that is not one, or an edit JSON cannot hold.
 */
export async function askWithEdits(options: EditLoopOptions): Promise<PlanVerdict> {
  const maxRetries = options.maxEditRetries ?? DEFAULT_MAX_EDIT_RETRIES;
  let edit: PlanEditProblem | undefined;
  for (let attempt = 1; ; attempt++) {
    const decision = readPlanApproval(await options.ask(edit));
    if (!decision.approved || options.aborted?.() === true)
      return { approved: false, ...feedbackOf(decision) };
    if (decision.plan === undefined) return { approved: true };
    const text = editText(decision.plan);
    const compiled = options.compile(text);
    if (compiled.plan) {
      if (sameCalls(options.plan, compiled.plan)) return { approved: true };
      return { approved: true, edited: { plan: compiled.plan, value: editValue(decision.plan, text) } };
    }
    if (attempt > maxRetries) return { approved: false, error: tooManyEdits(compiled.diagnostics, attempt) };
    edit = { text, diagnostics: compiled.diagnostics, attempt, retriesLeft: maxRetries - attempt };
    options.askingAgain?.();
  }
}

function feedbackOf(decision: ApprovalDecision): { feedback?: string } {
  return decision.feedback !== undefined ? { feedback: decision.feedback } : {};
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

/** The plan a value or text answer gave, as a list of calls (a document's `plan`), for a model to read. */
export function editedCalls(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  const plan = (value as { plan?: unknown } | null)?.plan;
  return Array.isArray(plan) ? plan : [];
}

/** The options an edit of the run's plan is compiled with: the run's own. */
function editCompileOptions(run: PlanEditHost): CompileOptions {
  const { options, plan } = run;
  return {
    tools: run.tools,
    input: run.input,
    // Nothing has run yet: the state is the initial state the plan asked about was compiled with.
    state: run.roots.state,
    ...(plan.stateSchema !== undefined && { stateSchema: plan.stateSchema }),
    mode: run.mode,
    ...(options.limits !== undefined && { limits: options.limits }),
    ...(options.strict === true && { strict: true }),
  };
}

/** Compiles an edit (JSON text) with the options the plan asked about was compiled with. */
export function compileEdit(
  text: string,
  options: CompileOptions,
): { plan?: CompiledPlan; diagnostics: Diagnostic[] } {
  const compiled = compile(text, { ...options, source: 'edited plan' });
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
