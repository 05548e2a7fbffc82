/** What a tool is: its name, schemas, annotations, flags and `execute`. */

import type { RateLimit } from './quota.js';

export type JsonSchema = { [key: string]: unknown } | boolean;

/** MCP's tool annotations: hints, trusted only when the definition itself is trusted. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** When and how often a failed call is tried again. */
export interface RetryPolicy {
  /** Further attempts after the first. */
  readonly limit: number;
  /**
   * Delay before the first retry; each later one is `factor` times longer.
   * @default 100
   */
  readonly delayMs?: number;
  /**
   * Longest delay between attempts.
   * @default 10_000
   */
  readonly maxDelayMs?: number;
  /**
   * Growth of the delay per attempt.
   * @default 2
   */
  readonly factor?: number;
}

/** What `execute` gets besides its arguments: a superset of the AI SDK's tool options. */
export interface ToolContext {
  /** The call's id in the plan; `id[k]` for element k of a `_forEach` call. */
  readonly toolCallId: string;
  /** For one element of a `_forEach` call: its position in the array. Absent otherwise. */
  readonly element?: number;
  /** Aborted on timeout or cancellation; a tool should stop when it fires. */
  readonly abortSignal: AbortSignal;
  /** The output paths the result will be written to, as written. */
  readonly outputPaths: readonly string[];
  /** Whatever the caller passed as `context` to run. */
  readonly context?: unknown;
  /**
   * @internal The options of the run the call belongs to: a workflow tool runs its plan with
   * the same concurrency, events and model. Absent when a tool is called outside a run.
   */
  readonly run?: object;
}

/** Where a workflow's plan text starts in the file it came from, for positions in messages. */
export interface PlanOrigin {
  /** The file, as messages name it. */
  readonly file: string;
  /**
   * Line (1-based) of the plan text's first character in that file.
   * @default 1
   */
  readonly line?: number;
  /**
   * Column (1-based) of the plan text's first character on that line.
   * @default 1
   */
  readonly column?: number;
}

export interface Tool<Args = Record<string, unknown>, Output = unknown> {
  readonly name: string;
  readonly description?: string;
  /** JSON Schema for the arguments (draft-07, or 2020-12 when `$schema` says so). */
  readonly inputSchema?: JsonSchema;
  /** JSON Schema for the result. */
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  /**
   * `false`: the annotations are a third party's claims (an MCP server's, or a tool adapted from
   * the AI SDK or the OpenAI Agents SDK, as the adapters mark them), which `trustAnnotations: true`
   * (the default) does not believe; only a `readOnly` allowlist or a `trustAnnotations` function
   * that says yes makes such a tool read-only.
   * @default true (the definition is your own, and its `readOnlyHint` is believed)
   */
  readonly annotationsTrusted?: boolean;
  /** Its result is produced by the model, not by code. */
  readonly latent?: boolean;
  /** A person approves each run. */
  readonly needsApproval?: boolean;
  /**
   * `true` declares the tool's errors as an outcome of the plan: what it throws (or returns as
   * an error, through an adapter) goes to the last alternative of an `_outputPath` of two or
   * more `||` alternatives, and the call ends `failed` but `handled`. A plan's `_onError` names
   * another alternative instead, or declares one for a tool that does not. Without either, a
   * throw fails the call (and the run). planmode's own errors (bad arguments or output, a bad
   * branch, its timeout, ...) are never handled.
   * @default false
   */
  readonly errorBranch?: boolean;
  /**
   * `true` lets the tool choose a `||` alternative with the plain JSON form of a branch value,
   * `{"†branch": k, "value": ...}`: for a tool that cannot call `branch()` (a worker's tool in
   * another language, a command, an MCP server that declares it). Without it such an object is
   * data like any other and goes to the first alternative, so that data the tool only passes
   * through (an API's JSON) cannot route its call. A value `branch()` made chooses either way.
   * @default false
   */
  readonly branchJson?: boolean;
  /**
   * Calls to it are not ordered by program order, though it declares effects (`needsApproval`,
   * `destructiveHint`, `readOnlyHint: false`): they wait only for their data and `_after`, and
   * no call waits for them on that account. For effects that commute with everything the plan
   * does (appending to a log, sending a metric). A call can opt out alone with `_independent`.
   * @default false
   */
  readonly independent?: boolean;
  /**
   * Whether the plan loop (`solve()`) runs a call to this tool again when an earlier turn ran it
   * with the same arguments. A mutating tool is not repeated by default: the earlier result is
   * reused, so a loop that lists `issueRefund` in two turns refunds once. Set it for tools whose
   * every call should act (send another reminder, roll another die). Read-only and latent tools
   * always run again.
   * @default false
   */
  readonly repeatable?: boolean;
  /** Per-call time limit; the run's default applies when absent. */
  readonly timeoutMs?: number;
  /** Retries after a failure: a count, or a policy. None when absent. */
  readonly retries?: number | RetryPolicy;
  /**
   * Most calls of this tool running at once, across every run that shares a limiter (see
   * `createLimiter`): a whole number from 1 to 10000. A call waiting for a slot holds its
   * place in the run's own `concurrency`.
   * @default no bound of its own
   */
  readonly concurrency?: number;
  /**
   * At most `limit` calls of this tool start in any window of `intervalMs` milliseconds (a
   * sliding window), across every run that shares a limiter. Each attempt and each `_forEach`
   * element counts.
   * @default no rate limit
   */
  readonly rateLimit?: RateLimit;
  /**
   * The limiter group whose quota this tool's calls share: an MCP server's tools share their
   * server's. `concurrency` and `rateLimit` are the group's.
   * @default the tool's name
   */
  readonly quotaGroup?: string;
  /** Typical duration, for critical-path estimates. */
  readonly estimatedMs?: number;
  /**
   * Runs the tool. `args` is the call's own object, and the literal values in it are its own
   * copies; a value a reference read (from the state or the input) is frozen and shared with the
   * other calls that read it, so copy it (`structuredClone`) before changing it. The result must
   * be JSON data: it is copied as JSON (see the security model), and a value JSON cannot carry
   * fails the call.
   *
   * A method, not a function-typed property: a tool typed with its own `Args`
   * (`defineTool<{ city: string }>`) then goes into a `Tool[]`, a registry or `run({ tools })`
   * beside tools of other argument types (TypeScript checks method parameters bivariantly).
   */
  execute?(args: Args, context: ToolContext): Output | Promise<Output>;
  /**
   * Makes the tool a workflow: a plan document (its JSON text, or the array of calls / the
   * document value) run as a sub-plan with the call's arguments as its `†input`, in a fresh
   * state. Compiled when the registry is built, against `inputSchema`. Instead of `execute`;
   * needs `output`.
   */
  readonly plan?: string | readonly unknown[] | { readonly [key: string]: unknown };
  /**
   * A workflow's result: a reference into its sub-plan (`"†state.summary"`), or a JSON object
   * or array whose string leaves are such references (other leaves are copied as they are).
   */
  readonly output?: string | readonly unknown[] | { readonly [key: string]: unknown };
  /**
   * Where `plan` (given as text) starts in a file, so that its mistakes are reported at that
   * file's lines and columns. A manifest's loader sets it.
   * @default positions in the plan text itself
   */
  readonly planOrigin?: PlanOrigin;
}

/** Identity helper that gives a tool literal its types. */
export function defineTool<Args = Record<string, unknown>, Output = unknown>(
  tool: Tool<Args, Output>,
): Tool<Args, Output> {
  return tool;
}
