/**
 * One approval shape for run(), PlanAgent and solve(): what a person is asked (a plan, or one
 * tool call), and how they answer (yes, no, or no with feedback). One callback, {@link Approve},
 * can serve all three.
 */
import type { CompiledPlan } from '../compile/types.js';
import type { Diagnostic } from '../language/diagnostics.js';
import type { Simulation } from './simulation.js';
import type { ParentCall, WorkflowInnerCall } from './sub-run-types.js';
import type { Tool } from '../tools/tool.js';

/**
 * A plan to approve before any of it runs.
 *
 * - run() in lazy mode: `plan` is the compiled plan.
 * - solve() in lazy mode: `plan` is the compiled solution, with its dry run (`simulation`)
 *   and `iteration`.
 * - PlanAgent (`approvePlan`), the `exit_plan_mode` tool and todo plans: `plan` is the plan
 *   the model wrote, as Markdown text; `file` is the plan file it was read from, if any.
 *
 * `P` narrows `plan` for a callback that only sees one of them.
 */
export interface PlanApprovalRequest<P extends CompiledPlan | string = CompiledPlan | string> {
  readonly kind: 'plan';
  readonly plan: P;
  /** Why a person is asked, in a sentence: `a lazy plan runs only once approved`, ... */
  readonly reason: string;
  /** solve(): the dry run of the solution, what each scenario would run and skip. */
  readonly simulation?: Simulation;
  /** solve(): which solution this is, 1 for the first. */
  readonly iteration?: number;
  /** exit_plan_mode: the plan file the plan was read from, when the model gave no plan text. */
  readonly file?: string;
  /**
   * run() and solve() in lazy mode, asking again: the edited plan the last answer gave did not
   * compile. `plan` is still the plan first asked about; answer with a mended edit, a yes
   * without `plan` (the plan as first asked about), or a no.
   */
  readonly edit?: PlanEditProblem;
  /**
   * run() and solve(), when the plan calls workflows: what each workflow's plan will call, so
   * that a person approves what will actually run. Keyed by workflow name (a call's `tool`),
   * holding every workflow the plan can reach (those its workflows call, too), each once however
   * many calls run it; an inner call whose `tool` is a key here is itself a workflow. Absent
   * when the plan calls none.
   */
  readonly workflows?: Readonly<Record<string, readonly WorkflowInnerCall[]>>;
  /** A workflow whose own plan is lazy, asked when its call runs: the workflow calls above it (see CallApprovalRequest.parent). */
  readonly parent?: readonly ParentCall[];
}

/** An edited plan that did not compile, as the request that asks again carries it. */
export interface PlanEditProblem {
  /** The edited plan as given, as JSON text (the answer's text as is, or its value stringified with 2-space indent). */
  readonly text: string;
  /** Why it does not compile; `line` and `column` point into `text`. */
  readonly diagnostics: readonly Diagnostic[];
  /** Which edit this was: 1 for the first. */
  readonly attempt: number;
  /**
   * How many more times the request is asked again if this answer is again an edit with
   * errors; at 0, such an answer ends the run unapproved (RunOptions.maxEditRetries).
   */
  readonly retriesLeft: number;
}

/**
 * One tool call to approve before it runs: a run's call whose tool has `needsApproval`, or an
 * agent's call that its permission policy answered `ask` about.
 */
export interface CallApprovalRequest {
  readonly kind: 'call';
  /** The call's id: the plan call's `_id` in run(), the model's tool-call id in an agent. */
  readonly call: string;
  /** The tool's name. */
  readonly tool: string;
  /** The arguments the call will run with, resolved. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Why a person is asked: `tool 'deploy' needs approval`, or the permission policy's reason. */
  readonly reason: string;
  /** The tool's definition, for its description and annotations. */
  readonly definition: Tool;
  /** run(): the plan the call is part of (a workflow's plan, for a call inside one). */
  readonly plan?: CompiledPlan;
  /**
   * run(), for a call inside a workflow: the workflow calls above it, outermost first, each
   * with its element's position when it is a `_forEach` call. Absent for a call of the run's
   * own plan.
   */
  readonly parent?: readonly ParentCall[];
  /**
   * run(), for a `_forEach` call: the arguments each element will run with, in element order
   * (`args` then holds `_forEach` as the array and `†item`, `†index` as written). One answer
   * approves or rejects the whole call. Absent when `_forEach` is not an array within
   * `limits.maxForEach` (the call then fails as it starts).
   */
  readonly elements?: readonly Readonly<Record<string, unknown>>[];
}

/** What a person is asked to approve: a plan, or one tool call. */
export type ApprovalRequest = PlanApprovalRequest | CallApprovalRequest;

/**
 * The answer: `true` or `false`, or `{ approved, feedback }`. Feedback on a no goes where it
 * helps: to the model in PlanAgent, exit_plan_mode and solve() (which plans again with it;
 * solve() ends `rejected` on a no without feedback), and into a rejected call's error in run().
 *
 * `plan` (with `approved: true`) edits the plan: only a compiled plan's request takes one (run()
 * and solve() in lazy mode). It is the plan to run instead, as a plan document (a JSON array of
 * calls, or `{ plan: [...] }`) or its JSON text; it is compiled against the same tools, input,
 * state and limits, and when it has errors the callback is asked again with them (`edit`).
 */
export type ApprovalResponse =
  boolean | { readonly approved: boolean; readonly feedback?: string; readonly plan?: unknown };

/**
 * The approval callback of run() (`approve`), PlanAgent (`approvePlan`, `approveTool`) and
 * solve() (`approve`). A callback typed `Approve` (any request) fits them all; `R` narrows the
 * request for a callback that is only asked one kind.
 */
export type Approve<R extends ApprovalRequest = ApprovalRequest> = (
  request: R,
) => ApprovalResponse | Promise<ApprovalResponse>;

/** An answer read: approved or not, and the feedback when there is some. */
export interface ApprovalDecision {
  readonly approved: boolean;
  readonly feedback?: string;
  /** The edited plan, when the answer was a yes with one (see {@link readPlanApproval}). */
  readonly plan?: unknown;
}

/**
 * Reads an answer: `true` or `{ approved: true }` is a yes, `false` or `{ approved: false }` a no.
 * @throws {TypeError} when the answer is anything else, so a broken callback is not mistaken
 *   for a decision; and when it carries a `plan`: only a compiled plan's request takes an
 *   edited plan (see {@link readPlanApproval}).
 */
export function readApproval(response: unknown): ApprovalDecision {
  const decision = readAnswer(response, '{ approved, feedback? }');
  if (decision.plan !== undefined) {
    throw new TypeError(
      'an approval callback answered with an edited plan where none is taken: only a lazy plan of run() or solve() can be edited at approval, not a call or a Markdown plan',
    );
  }
  return decision;
}

/**
 * Like {@link readApproval}, for a compiled plan's request: a yes may carry the edited plan
 * (`{ approved: true, plan }`). A `plan` with a no is ignored: nothing runs either way.
 * @throws {TypeError} when the answer is not an answer.
 */
export function readPlanApproval(response: unknown): ApprovalDecision {
  return readAnswer(response, '{ approved, feedback?, plan? }');
}

function readAnswer(response: unknown, shape: string): ApprovalDecision {
  if (typeof response === 'boolean') return { approved: response };
  if (
    response !== null &&
    typeof response === 'object' &&
    typeof (response as { approved?: unknown }).approved === 'boolean'
  ) {
    const { approved, feedback, plan } = response as {
      approved: boolean;
      feedback?: unknown;
      plan?: unknown;
    };
    const withFeedback =
      typeof feedback === 'string' && feedback.trim() !== '' ? { approved, feedback } : { approved };
    return approved && plan !== undefined ? { ...withFeedback, plan } : withFeedback;
  }
  throw new TypeError(
    `an approval callback must answer true, false or ${shape}, not ${response === null ? 'null' : typeof response}`,
  );
}
