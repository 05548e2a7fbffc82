/**
 * What the plan loop is given and what it ends with: solve()'s options, its result, the record
 * of a call that did not succeed, and what solve() depends on. In a file of their own, beneath
 * solve.ts, so the loop's helpers (where it starts, what the model is shown, latent answers)
 * can name them without importing the loop they serve.
 */
import type { LoopEnding } from '../../tools/end-loop.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { JsonObject, PlanRequest } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import type { Approve } from '../../run/approval.js';
import type { CallError, CallReport, CallStatus, RunOptions, RunResult } from '../../run/types.js';
import type { JsonSchema, Tool } from '../../tools/tool.js';
import type { AgentEvent } from '../agent-events.js';
import type { Message, ModelProvider } from '../model.js';
import type { BudgetReport, BudgetSpent, SolveBudget } from './budget.js';
import type { SolveApprovalRequest } from './solve-approvals.js';

export interface SolveOptions {
  /**
   * eager: a compiled solution runs at once; lazy: it is simulated and approved first, and
   * latent tools are answered by the model. The lazier of this and the context's plan message
   * wins: a context that says `"mode": "lazy"` makes the loop lazy whatever this says.
   * @default the context's mode, else 'eager'
   */
  readonly mode?: 'eager' | 'lazy';
  /**
   * Eager only: each call of a reply starts as soon as its JSON has closed, it compiles and what
   * it reads exists, while the model is still writing the rest (effects in program order and
   * approvals as for a whole plan). A reply that then turns out not to be a solution has its run
   * halted (what started ends, nothing more starts), and what ran is told to the model with the
   * repair request and never runs again. false: the reply is read whole, then run. A `strict`
   * loop reads each reply whole: some warnings (a missing dagger) are only known once the whole
   * plan is.
   * @default true
   */
  readonly streamCalls?: boolean;
  /**
   * Most solutions asked for (model requests that are not repairs).
   * @default 5
   */
  readonly maxIterations?: number;
  /**
   * Most repair turns for one solution: a reply that cannot be used (not JSON, not a solution,
   * a plan that does not compile, a reply over maxReplyBytes) goes back to the model with its
   * diagnostics this many times before the loop gives up `invalid`, with the last reply's
   * diagnostics in the result. 0: the first reply must be usable.
   * @default 2
   */
  readonly maxRepairs?: number;
  /**
   * What the loop may spend: calls per plan and in total, model turns, tokens and wall time.
   * Each field on its own; the others keep their defaults (PlanAgent's `budget`, else
   * DEFAULT_BUDGET). A budget that runs out ends the loop `budget_exceeded`.
   * @default DEFAULT_BUDGET: 1,000 calls per plan, 10,000 calls, 100 turns, 2,000,000 tokens, one hour
   */
  readonly budget?: SolveBudget;
  /**
   * Most bytes (UTF-8) of one model reply, counted as it streams in and before any of it is
   * parsed: a longer reply is cut there (its request cancelled) and goes back to the model as
   * E_LIMIT, like a reply that does not compile.
   * @default DEFAULT_MAX_REPLY_BYTES (1 MiB)
   */
  readonly maxReplyBytes?: number;
  /**
   * Schema of the final answer (`output`).
   * @default {} (any JSON)
   */
  readonly outputSchema?: JsonSchema;
  /**
   * The initial state (over the context's state, when `context` gives one).
   * @default {}
   */
  readonly state?: JsonObject;
  /**
   * JSON Schema of the state object: the model sees it as the state message's `schema` (the
   * places its plan should write), and every solution is compiled against it (an output path
   * it has no place for is E_STATE_SCHEMA, sent back for repair; a read of a place it declares
   * is not an error when no call writes it).
   * @default the context's state schema, if any; else none
   */
  readonly stateSchema?: JsonObject;
  /**
   * A context in the plan language to start from, as text (comments allowed) or as an array of
   * messages: its input message is merged under the task's input, its state message gives the
   * initial state and schema, its plan message is shown as the previous plan, and its tool
   * messages (`{"type": "tool", "tool": "Tool.search"}`) are the tools the model is offered
   * (of those the policy allows). It must compile with the tools: a tool message naming a
   * tool that does not exist is a TypeError with its line and column. A request
   * `{"schema": ..., "context": [...]}` (as an object or its text) gives its context so, and
   * its schema is the final answer's (`properties.output` of a schema of the whole reply), as
   * `outputSchema` would give it (giving both is a TypeError).
   * @default undefined
   */
  readonly context?: string | readonly unknown[] | PlanRequest;
  /**
   * Earlier turns of the conversation (user and assistant text, system notes), sent after the
   * system prompt and before the context in every request of the loop. Tool calls and tool
   * results are refused: the loop's requests offer no tools.
   * @default []
   */
  readonly history?: readonly Message[];
  /**
   * Instructions of your own (a persona, house rules), sent before SOLVE_PROMPT in the system
   * message. SOLVE_PROMPT stays: it is what tells the model the plan language its answer must
   * be written in.
   * @default undefined: SOLVE_PROMPT alone
   */
  readonly systemPrompt?: string;
  /**
   * Asked, in the shape run() and PlanAgent use:
   * - lazy mode, before anything of a solution runs: `{ kind: 'plan', plan, reason, simulation,
   *   iteration }` (the compiled solution, its dry run, and which solution it is, 1 for the
   *   first). A no with feedback goes back to the model; a plain no ends the loop `rejected`.
   *   A yes may edit the solution (`{ approved: true, plan }`, as in run()): the edit is
   *   compiled as the solution was, asked about again with its errors (`edit`, at most
   *   `maxEditRetries` times; after that the loop ends `rejected` with its diagnostics), and
   *   runs instead; the next turn tells the model the person edited its plan.
   * - either mode, for each call of a tool that `needsApproval`, when it is ready: `{ kind:
   *   'call', call, tool, args, reason, definition, plan }` with the arguments resolved. A no
   *   (with or without feedback) rejects the call, and the loop ends `rejected` after that run.
   * @default undefined: lazy solutions and calls that need approval are rejected
   */
  readonly approve?: Approve<SolveApprovalRequest>;
  /**
   * How many times a lazy solution's approval is asked again after an edit with errors.
   * @default 5
   */
  readonly maxEditRetries?: number;
  /**
   * Most tool calls running at once.
   * @default 16 (run's default)
   */
  readonly concurrency?: number;
  /**
   * The quotas every turn's run keeps (see `createLimiter`), shared with other loops and runs
   * of the process.
   * @default a limiter per run, when a tool declares a quota
   */
  readonly limiter?: RunOptions['limiter'];
  /**
   * Time limit per call for tools without their own.
   * @default 0 (none)
   */
  readonly timeoutMs?: number;
  /** A solution's compile warnings are errors (CompileOptions.strict), sent back for repair. @default false */
  readonly strict?: boolean;
  /**
   * Bounds on what the model and the tools hand the loop: each solution is compiled, and each
   * run runs, within them.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
  /**
   * Where the loop is saved after every turn, and what it resumes from: `save(snapshot)` is
   * called between turns (once a turn's run has ended, before the next request) and once when
   * the loop ends; `load()`, when given, returns the snapshot to go on from (or undefined to
   * start afresh). A resumed loop checks the snapshot's tools against the tools offered (a
   * SessionError naming a tool that is missing or changed, unless `allowToolChanges`), takes
   * its input, state, context, conversation and budget spent, goes on at the next turn, and
   * never runs again a side effect the snapshot lists. `fileSession(path)` keeps it in a file.
   * @default undefined: nothing is saved, the loop starts afresh
   */
  readonly session?: SolveSession;
}

/** What solve() ends with. */
export interface SolveResult {
  /**
   * done: the model gave an output; max_iterations: it did not in time; invalid: a reply still
   * could not be used after the repairs (see `diagnostics`); rejected: a person said no to a
   * solution, or to a call (that run is the last of `runs`, the call `rejected` in it);
   * cancelled: aborted; budget_exceeded: a budget ran out (`budget.exceeded` says which; calls
   * running then were cancelled, the state they wrote is kept); stalled: the model gave a plan
   * that had already run from the same state, again after being told so; ended: a tool ended
   * the loop (`endLoop()`, see `endedBy`): its run started nothing after that call, what ran is
   * kept in `state` and `runs`, and the model was not asked again.
   */
  readonly status:
    | 'done'
    | 'max_iterations'
    | 'invalid'
    | 'rejected'
    | 'cancelled'
    | 'budget_exceeded'
    | 'stalled'
    | 'ended';
  /** With `ended`: which tool ended the loop, in which call of the last run, and why. */
  readonly endedBy?: LoopEnding;
  readonly output: unknown;
  readonly state: JsonObject;
  /** Solutions asked for. */
  readonly iterations: number;
  /** Every run, in order. */
  readonly runs: readonly RunResult[];
  /**
   * Why the last reply could not be used, located in it (line and column): when status is
   * invalid, and when the loop ended (a budget, a stall) while that reply was being repaired.
   */
  readonly diagnostics: readonly Diagnostic[];
  /** The budget, what was spent against each of its fields, and which one ran out. */
  readonly budget: BudgetReport;
}

/** A call of the last run that did not succeed, as the model sees it. */
export interface FailedCallRecord {
  readonly call: string;
  readonly tool: string;
  readonly status: CallStatus;
  readonly error: CallError | null;
}

export interface SolveDependencies {
  readonly provider: ModelProvider;
  /** The tools the model may use now (what the policy does not deny), guarded. */
  readonly tools: () => Tool[];
  /**
   * Whether a tool is read-only (the policy's classifier): a read-only call is run again when a
   * later turn lists it, a mutating one is not (its earlier result is reused).
   * @default trusted `readOnlyHint: true` annotations (annotatedReadOnly)
   */
  readonly isReadOnly?: (tool: Tool) => boolean;
  readonly emit: (event: AgentEvent) => void;
  readonly signal?: AbortSignal;
  /**
   * Spread into the options of each run the loop starts: the agent's tracing option and the
   * span the runs nest under (see agent/trace/).
   * @default nothing: runs trace as their own `tracing` default says
   */
  readonly runTracing?: Pick<RunOptions, 'tracing'>;
}

/** A side effect that ran: a mutating call that succeeded, by its tool and resolved arguments. */
export interface SessionSideEffect {
  readonly tool: string;
  readonly args: JsonObject;
  readonly output: unknown;
  readonly branch: number | null;
}

/** Where the plan loop stood after a turn; plain JSON, written as it is by fileSession(). */
export interface SolveSnapshot {
  /** {@link SESSION_SNAPSHOT_VERSION}. */
  readonly version: 1;
  /** Each tool offered when the snapshot was taken: its name and definitionDigest(). */
  readonly tools: readonly { readonly name: string; readonly digest: string }[];
  /** The task's input, as the loop read it. */
  readonly input: JsonObject;
  readonly state: JsonObject;
  /** Turns (solutions asked for) that have ended; the resumed loop's next turn is turn + 1. */
  readonly turn: number;
  /** What was spent against the budget so far (the resumed loop goes on counting from it). */
  readonly spent: BudgetSpent;
  /** The conversation: the earlier turns sent before the context in every request. */
  readonly history: readonly Message[];
  /** What the model is shown next: its last plan, how each of its calls ended, what failed, a note. */
  readonly context: {
    readonly plan: readonly unknown[];
    readonly progress: readonly CallReport[] | null;
    readonly failures: readonly FailedCallRecord[];
    readonly note: string | null;
  };
  /** The side effects that already ran: not run again when the model lists them again. */
  readonly sideEffects: readonly SessionSideEffect[];
  /** Set when the loop ended: resuming from it gives this result at once, asking nothing. */
  readonly ended: { readonly status: SolveResult['status']; readonly output: unknown } | null;
}

/** solve()'s `session` option: where snapshots go, and where the one to resume from comes from. */
export interface SolveSession {
  /**
   * Called after every turn, and once when the loop ends, with the snapshot; the loop waits
   * for it. A save that throws ends the loop with that error (a session that cannot be kept
   * is not silently dropped).
   */
  save(snapshot: SolveSnapshot): void | Promise<void>;
  /**
   * The snapshot to resume from, or undefined to start afresh. Untrusted: its shape is checked
   * (a SessionError with the field's pointer when it is wrong), then its tools.
   * @default undefined: the loop starts afresh
   */
  load?(): unknown;
  /**
   * Resume even when a tool of the snapshot is missing or its definition changed.
   * @default false: a SessionError naming the tool
   */
  readonly allowToolChanges?: boolean;
}
