/** The executor's public shapes: options, events, results. */
import type { JsonObject } from '../language/document.js';
import type { Limits } from '../language/limits.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import type { Approve } from './approval.js';
import type { RemoteInvoker } from './remote-types.js';
import type { DispatchGroup, ParentCall } from './sub-run-types.js';
import type { TracingOptions } from './trace/tracing-options.js';
import type { Limiter } from './limit/index.js';
import type { LatentFunction, ReusedResult, ReuseRequest } from './call-requests.js';

export type { RemoteCall, RemoteInvoker, RemoteRetry } from './remote-types.js';

export {
  CALL_STATUSES,
  type CallError,
  type CallReport,
  type CallStatus,
  type ElementReport,
  type RunResult,
  type RunStatus,
  type WorkflowRunReport,
} from './result-types.js';
import type { CallError, CallStatus, RunResult, RunStatus } from './result-types.js';

export type {
  EarlierVersionReport,
  NotReusedCall,
  NotReusedReason,
  StaleJournalLock,
} from './resume-types.js';
export type { DispatchGroup, ParentCall, WorkflowInnerCall } from './sub-run-types.js';
export { DISPATCH_GROUP } from './sub-run-types.js';
export type { LatentFunction, LatentRequest, ReusedResult, ReuseRequest } from './call-requests.js';
export type {
  ApprovalRequest,
  ApprovalResponse,
  Approve,
  CallApprovalRequest,
  PlanApprovalRequest,
} from './approval.js';

/**
 * The events of a workflow call's sub-run reach the run's listeners too, each a RunEvent with two
 * fields beside its own: `parent`, the workflow calls above it, outermost first (a chain when
 * workflows nest; the last one's sub-run sent it), each with its element's position when it is a
 * `_forEach` call; and `parentCall`, the nearest one's `ctx.toolCallId` (its id, or `id[k]` for
 * element k). Events of the run itself have neither.
 */
export type WorkflowRunEvent = RunEvent & {
  readonly parentCall: string;
  readonly parent: readonly ParentCall[];
};

/** What a workflow's sub-run takes from the run its call is in (see ToolContext.run). */
export interface ParentRun {
  readonly options: RunOptions;
  /** The run's listeners (onEvent, startRun's iterator), or null when there are none. */
  readonly emit: ((event: RunEvent) => void) | null;
  /** Where a workflow call's sub-run leaves its result, for the call's report (`workflow`). */
  readonly subRuns: SubRunResults;
  /** The top run's dispatch: a sub-run's calls pause and resume with it. */
  readonly dispatch: DispatchGroup;
}

/** The sub-runs of a run's workflow calls, by call id (and element), for their reports. */
export interface SubRunResults {
  /** A workflow call's sub-run ended (`element`: its position, for an element of a `_forEach`). */
  ended(toolCallId: string, element: number | undefined, result: RunResult): void;
}

/** An event of a run (see WorkflowRunEvent for those from inside a workflow call). */
export type RunEvent =
  | {
      readonly type: 'run:start';
      readonly at: string;
      readonly runId: string;
      readonly mode: 'eager' | 'lazy';
      readonly calls: number;
    }
  | { readonly type: 'call:ready'; readonly at: string; readonly call: string; readonly tool: string }
  | {
      readonly type: 'call:start';
      readonly at: string;
      readonly call: string;
      readonly tool: string;
      readonly attempt: number;
      readonly args: JsonObject;
    }
  | {
      readonly type: 'call:retry';
      readonly at: string;
      readonly call: string;
      readonly tool: string;
      readonly attempt: number;
      readonly delayMs: number;
      readonly error: CallError;
    }
  | {
      readonly type: 'call:end';
      readonly at: string;
      readonly call: string;
      readonly tool: string;
      readonly status: CallStatus;
      readonly branch: number | null;
      readonly handled: boolean;
      readonly attempts: number;
      readonly durationMs: number | null;
      readonly error: CallError | null;
      /** The value written (the tool's output, or the error object on a handled throw). */
      readonly output?: unknown;
      /** True when the output came from the journal of an earlier run, not from running the tool. */
      readonly resumed?: boolean;
      /**
       * With `resumed`: the resolved arguments the call had, which were those of the earlier run
       * (so that this journal, too, can tell a later version of the plan what the call did).
       */
      readonly args?: JsonObject;
      /** True when the output is an earlier result given by `RunOptions.reuse`; the tool did not run. */
      readonly reused?: boolean;
    }
  | {
      /** One element of a `_forEach` call ended; `call` is the call's id, `index` the element's position. */
      readonly type: 'call:element';
      readonly at: string;
      readonly call: string;
      readonly tool: string;
      readonly index: number;
      readonly status: 'succeeded' | 'failed';
      readonly error: CallError | null;
      /** How long the element ran, retries included; set when the element ran at all. */
      readonly durationMs?: number;
    }
  | {
      readonly type: 'state:write';
      readonly at: string;
      readonly call: string;
      readonly path: string;
      readonly value: unknown;
    }
  | {
      readonly type: 'approval:requested';
      readonly at: string;
      readonly kind: 'plan' | 'call';
      readonly call?: string;
    }
  | { readonly type: 'run:end'; readonly at: string; readonly status: RunStatus };

export interface RunOptions {
  /** The tools to run: a registry or definitions with `execute`. Required. */
  readonly tools: ToolRegistry | Iterable<Tool>;
  /**
   * `†input` values (merged over the document's input message).
   * @default {}
   */
  readonly input?: JsonObject;
  /**
   * Initial state (merged over the document's state message). Never changed and never copied
   * whole: a write copies the containers on its path, and a value a call reads is copied (and
   * frozen) once. The result's `state` shares what no write touched with it, and holds frozen
   * parts (what calls read): treat it as read-only.
   * @default {}
   */
  readonly state?: JsonObject;
  /**
   * Makes the plan lazy: it runs lazily when the plan or this option says lazy. An option
   * cannot make a lazy plan eager.
   * @default the plan's own mode
   */
  readonly mode?: 'eager' | 'lazy';
  /**
   * Most tool calls running at once: a whole number >= 1, or `Infinity` for no bound
   * (p-queue's convention).
   * @default 16
   */
  readonly concurrency?: number;
  /**
   * The quotas the run's calls go through (see `createLimiter`): share one between runs,
   * `solve()` loops and workers in one process so one quota per tool (or MCP server) holds
   * across all of them. A run without one whose tools declare `concurrency` or `rateLimit`
   * makes its own; calls of tools without a quota never wait in it.
   * @default a limiter of the run's own, when a tool declares a quota
   */
  readonly limiter?: Limiter;
  /**
   * Time limit per attempt for tools without their own `timeoutMs`; 0 means none.
   * @default 0
   */
  readonly timeoutMs?: number;
  /**
   * Aborts the run: running calls see their AbortSignal fire and end `cancelled`, pending ones too.
   * @default undefined
   */
  readonly signal?: AbortSignal;
  /**
   * Stop starting new calls after the first unhandled failure; what has not started ends `cancelled`.
   * @default false
   */
  readonly failFast?: boolean;
  /**
   * Approves the plan (lazy mode, before anything runs: `{ kind: 'plan', plan, reason }`) and
   * each `needsApproval` call when it is ready (`{ kind: 'call', call, tool, args, reason,
   * definition, plan }`). It answers `true`, `false` or `{ approved, feedback }`; a call's
   * feedback on a no becomes its error message. An answer of any other shape fails the call
   * (or, for the plan, the run) with a TypeError. Without it, lazy plans and `needsApproval`
   * calls are rejected.
   *
   * The plan's request may be answered `{ approved: true, plan }`: `plan` (a plan document, or
   * its JSON text) runs instead, compiled against the same tools, input, state, mode and limits.
   * When it has errors the plan's request is asked again with them (`edit`), at most
   * `maxEditRetries` times. The result then has `edited: true` and `editedPlan`.
   * @default undefined
   */
  readonly approve?: Approve;
  /**
   * How many times a lazy plan's approval is asked again after an edited plan that does not
   * compile. When the edit answering the last of them still has errors, the run ends
   * unapproved: `run` throws PlanValidationError with that edit's diagnostics, every call
   * having ended `rejected`. 0 asks no second time.
   * @default 5
   */
  readonly maxEditRetries?: number;
  /**
   * Fills the `default` a tool's `inputSchema` declares for a property into the arguments of a
   * call that leaves it out, before the call is approved, checked and run (nested object
   * properties, objects in arrays and `allOf` members too, as ajv's `useDefaults`; see
   * docs/tools.md). The plan and the state are never changed: what is filled is the call's own
   * copy. false: arguments run as the plan resolves them.
   * @default true
   */
  readonly applyDefaults?: boolean;
  /**
   * Produces latent tools' results (the model). Without it a latent call with no `_output` fails.
   * @default undefined
   */
  readonly latent?: LatentFunction;
  /**
   * Receives every event as it happens; an observer that throws does not break the run.
   * @default undefined
   */
  readonly onEvent?: (event: RunEvent) => void;
  /**
   * Passed to every tool as `ctx.context`.
   * @default undefined
   */
  readonly context?: unknown;
  /**
   * A directory for the run's journal: every event appended to `<dir>/<key>.jsonl`, the key
   * being a hash of the plan, input and initial state. A call's end is written before anything
   * that depends on it starts, and fsynced in groups (a process crash loses no completed call; a
   * power cut, the last few milliseconds of them).
   * @default undefined (no journal)
   */
  readonly journal?: string;
  /**
   * With `journal`: reuse the outputs of calls an earlier run of the same plan completed
   * (succeeded, or failed with the tool's own error handled by a declared error alternative)
   * instead of running them again.
   * @default false
   */
  readonly resume?: boolean;
  /**
   * Runs every non-latent call's attempts through this function instead of the tool's
   * `execute` (see `planmode/distributed`). Scheduling, state writes, events and the journal
   * stay as for a local run.
   * @default undefined (tools run in this process)
   */
  readonly remote?: RemoteInvoker;
  /**
   * Asked for each call that is ready to run (after the journal, before approval): an earlier
   * result to write instead of running the tool, or undefined to run it. The call then ends
   * `succeeded` with `reused: true` and 0 attempts. The plan loop uses it so that a side effect
   * an earlier turn had is not repeated.
   * @default undefined (every call runs)
   */
  readonly reuse?: (request: ReuseRequest) => ReusedResult | undefined;
  /**
   * The run's id, in `run:start` and in every {@link RemoteCall}: letters, digits, `_` and `-`.
   * @default a random UUID
   */
  readonly runId?: string;
  /**
   * Every compile warning counts as an error (see CompileOptions.strict): a plan `run` compiles
   * with one throws PlanValidationError, as does a compiled plan that carries one, and a
   * streamed call with one does not run.
   * @default false
   */
  readonly strict?: boolean;
  /**
   * A plan that streams in: the first call that arrives invalid halts the run (no call starts
   * after it; those running end as they would; the rest end `cancelled`), as a whole plan with
   * an error never runs. false: the invalid call never runs, its readers end `upstream_failed`,
   * and the other calls go on. The plan loop halts, since a reply with an invalid call is no
   * solution.
   * @default false
   */
  readonly haltOnInvalidCall?: boolean;
  /**
   * Bounds on what tools, the model and the journal hand the run (a result's depth and size, the
   * state's size), and on the plan when `run` compiles it.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
  /**
   * OpenTelemetry spans of the run (docs/observability.md): where they go, what they record.
   * `false`: none. @default spans to the global tracer provider when one is registered
   */
  readonly tracing?: TracingOptions | false;
}
