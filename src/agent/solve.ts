/**
 * The plan loop: the model answers with a solution `{calls, output}` in a JSON
 * Schema generated from the tools; the solution is compiled (comments and trailing commas read
 * as space), and its diagnostics go back for a bounded number of repairs; the calls run
 * (eager), or are simulated, approved and run (lazy); then the model is asked again with the
 * input, the state and its plan as context (each call marked with how it ended), until it
 * gives a non-null `output` or the iterations run out. Calls that did not succeed go back as
 * `{call, tool, status, error}` records, never as strings posing as data.
 *
 * A side effect happens once per solve(): a mutating call that succeeded in an earlier turn is
 * not run again with the same arguments; its result is reused (see side-effect-ledger.ts).
 */
import { type CompileResult, compile } from '../compile/compile.js';
import type { CompiledPlan } from '../compile/types.js';
import { planSchema } from '../compile/plan-schema.js';
import type { Diagnostic } from '../language/diagnostics.js';
import type { JsonObject } from '../language/document.js';
import type { Limits } from '../language/limits.js';
import { run } from '../run/run.js';
import type { CallError, CallReport, CallStatus, LatentFunction, RunResult } from '../run/types.js';
import { simulate } from '../simulate/simulate.js';
import type { Simulation } from '../simulate/types.js';
import type { JsonSchema, Tool } from '../tools/tool.js';
import type { AgentEvent } from './agent-events.js';
import { type Approve, type PlanApprovalRequest, readApproval } from '../run/approval.js';
import { complete } from './complete.js';
import type { Message, ModelProvider } from './model.js';
import { LATENT_PROMPT, SOLVE_PROMPT } from './prompts.js';
import { annotatedReadOnly, SideEffectLedger } from './side-effect-ledger.js';
import { solveContextText } from './solve-context.js';
import { checkSolveOptions, solveStart } from './solve-start.js';

export interface SolveOptions {
  /**
   * eager: a compiled solution runs at once; lazy: it is simulated and approved first, and
   * latent tools are answered by the model.
   * @default 'eager'
   */
  readonly mode?: 'eager' | 'lazy';
  /**
   * Most solutions asked for (model requests that are not repairs).
   * @default 5
   */
  readonly maxIterations?: number;
  /**
   * Most times one solution is sent back with its diagnostics before giving up.
   * @default 2
   */
  readonly maxRepairs?: number;
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
   * tool that does not exist is a TypeError with its line and column.
   * @default undefined
   */
  readonly context?: string | readonly unknown[];
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
   * Lazy mode: asked before anything runs, with `{ kind: 'plan', plan, reason, simulation,
   * iteration }`: the compiled solution, its dry run, and which solution it is (1 for the
   * first). A no with feedback goes back to the model; a plain no ends the loop `rejected`.
   * @default undefined: lazy solutions are rejected
   */
  readonly approve?: Approve<
    PlanApprovalRequest<CompiledPlan> & { readonly simulation: Simulation; readonly iteration: number }
  >;
  /**
   * Most tool calls running at once.
   * @default 16 (run's default)
   */
  readonly concurrency?: number;
  /**
   * Time limit per call for tools without their own.
   * @default 0 (none)
   */
  readonly timeoutMs?: number;
  /**
   * Bounds on what the model and the tools hand the loop: each solution is compiled, and each
   * run runs, within them.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
}

/** What solve() ends with. */
export interface SolveResult {
  /**
   * done: the model gave an output; max_iterations: it did not in time; invalid: a solution
   * still did not compile after the repairs; rejected: a person said no; cancelled: aborted.
   */
  readonly status: 'done' | 'max_iterations' | 'invalid' | 'rejected' | 'cancelled';
  readonly output: unknown;
  readonly state: JsonObject;
  /** Solutions asked for. */
  readonly iterations: number;
  /** Every run, in order. */
  readonly runs: readonly RunResult[];
  /** The diagnostics of the last solution that did not compile, when status is invalid. */
  readonly diagnostics: readonly Diagnostic[];
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
}

const DEFAULTS = { mode: 'eager', maxIterations: 5, maxRepairs: 2 } as const;

export async function solve(
  task: string | Record<string, unknown>,
  options: SolveOptions,
  deps: SolveDependencies,
): Promise<SolveResult> {
  checkSolveOptions(task, options);
  const mode = options.mode ?? DEFAULTS.mode;
  const maxIterations = options.maxIterations ?? DEFAULTS.maxIterations;
  const maxRepairs = options.maxRepairs ?? DEFAULTS.maxRepairs;
  const start = solveStart(task, options, deps.tools(), options.limits);
  const { input, stateSchema, toolNames } = start;
  const offered = () => (toolNames ? deps.tools().filter((tool) => toolNames.has(tool.name)) : deps.tools());
  const system = options.systemPrompt ? `${options.systemPrompt}\n\n${SOLVE_PROMPT}` : SOLVE_PROMPT;
  const ledger = new SideEffectLedger(deps.isReadOnly ?? annotatedReadOnly);
  let state: JsonObject = structuredClone(start.state);
  let previous: readonly unknown[] = start.plan;
  let progress: readonly CallReport[] | null = null;
  let failures: FailedCallRecord[] = [];
  let note: string | null = null;
  const runs: RunResult[] = [];
  const end = (
    status: SolveResult['status'],
    iterations: number,
    output: unknown = null,
    diagnostics: readonly Diagnostic[] = [],
  ) => ({ status, output, state, iterations, runs, diagnostics }) satisfies SolveResult;

  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    if (deps.signal?.aborted) return end('cancelled', iteration - 1);
    const tools = offered();
    const context = { input, state, stateSchema, plan: previous, progress, failures, note };
    const messages: Message[] = [
      { role: 'system', content: system },
      ...(options.history ?? []),
      { role: 'user', content: solveContextText(context) },
    ];
    // Over exactly the tools offered now, so the model cannot name one that does not exist.
    const schema = planSchema(tools, { shape: 'solution', mode, ...outputSchemaOf(options) });
    const format = { name: 'solution', schema };
    const answer = await askForSolution(deps, messages, format, {
      tools,
      input,
      state,
      stateSchema,
      mode,
      maxRepairs,
      ...(options.limits && { limits: options.limits }),
    });
    if (!answer.ok) return end('invalid', iteration, null, answer.diagnostics);
    const { plan, calls, output, repairs } = answer;
    deps.emit({ type: 'solution', phase: 'solve', iteration, plan, calls, output, repairs });
    if (calls.length === 0) return end('done', iteration, output);

    if (mode === 'lazy') {
      const simulation = simulate(plan, { tools, input, state });
      deps.emit({ type: 'simulation', phase: 'solve', simulation });
      const decision = options.approve
        ? readApproval(
            await options.approve({
              kind: 'plan',
              plan,
              reason: 'a lazy solution runs only once approved',
              simulation,
              iteration,
            }),
          )
        : { approved: false };
      if (!decision.approved) {
        if (!decision.feedback) return end('rejected', iteration);
        // A no with reasons is something the model can act on: ask again with them.
        previous = calls;
        progress = null;
        failures = [];
        note = `A person rejected this plan before it ran. Their feedback: ${decision.feedback}`;
        continue;
      }
    }
    const result = await run(plan, {
      tools,
      input,
      state,
      mode,
      reuse: ledger.reuse,
      ...(mode === 'lazy' && { approve: () => true, latent: latentFromModel(deps) }),
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.limits && { limits: options.limits }),
      ...(deps.signal && { signal: deps.signal }),
      onEvent: (event) => deps.emit({ type: 'run', phase: 'solve', iteration, event }),
    });
    runs.push(result);
    ledger.record(result.calls, tools);
    deps.emit({ type: 'run-end', phase: 'solve', iteration, result });
    state = result.state;
    if (result.status === 'cancelled' && deps.signal?.aborted) return end('cancelled', iteration);
    failures = result.calls
      .filter((c) => c.status !== 'succeeded' && c.status !== 'skipped')
      .map((c) => ({ call: c.id, tool: c.tool, status: c.status, error: c.error }));
    // An answer given together with calls stands only if those calls did what it claims.
    if (output !== null && result.status === 'succeeded') return end('done', iteration, output);
    previous = calls;
    progress = result.calls;
    note = null;
  }
  return end('max_iterations', maxIterations);
}

type Solution =
  | { ok: true; plan: CompiledPlan; calls: unknown[]; output: unknown; repairs: number }
  | { ok: false; diagnostics: readonly Diagnostic[] };

/** One solution, repaired with its diagnostics up to maxRepairs times. */
async function askForSolution(
  deps: SolveDependencies,
  messages: Message[],
  format: { name: string; schema: JsonSchema },
  how: {
    tools: Tool[];
    input: JsonObject;
    state: JsonObject;
    stateSchema: JsonObject | undefined;
    mode: 'eager' | 'lazy';
    maxRepairs: number;
    limits?: Partial<Limits>;
  },
): Promise<Solution> {
  let diagnostics: readonly Diagnostic[] = [];
  for (let repairs = 0; repairs <= how.maxRepairs; repairs++) {
    const turn = await complete(deps.provider, {
      messages,
      tools: [],
      responseFormat: format,
      ...(deps.signal && { signal: deps.signal }),
    });
    const text = turn.message.content;
    messages.push({ role: 'assistant', content: text });
    const compiled = compile(text, {
      tools: how.tools,
      input: how.input,
      state: how.state,
      mode: how.mode,
      ...(how.stateSchema && { stateSchema: how.stateSchema }),
      ...(how.limits && { limits: how.limits }),
    });
    diagnostics = compiled.diagnostics;
    const shape = readSolution(compiled);
    if (typeof shape === 'string') {
      messages.push({
        role: 'user',
        content: `${shape} Answer again with the JSON object {"calls": [...], "output": ...} only.`,
      });
      continue;
    }
    if (compiled.ok && compiled.plan) {
      return { ok: true, plan: compiled.plan, calls: shape.calls, output: shape.output, repairs };
    }
    messages.push({ role: 'user', content: repairText(compiled.diagnostics) });
  }
  return { ok: false, diagnostics };
}

/** The solution's two keys, or why the text is not a solution. */
function readSolution(compiled: CompileResult): { calls: unknown[]; output: unknown } | string {
  const { document } = compiled;
  if (!document) {
    const first = compiled.diagnostics.find((d) => d.severity === 'error');
    if (first?.code === 'E_JSON') {
      return `Your answer is not JSON (${first.message} at ${first.line}:${first.column}).`;
    }
    return `Your answer is not a solution${first ? ` (${first.message})` : ''}.`;
  }
  if (document.shape !== 'solution') return 'Your answer is not a JSON object with "calls" and "output".';
  const { calls, output } = document;
  if (output === undefined) return 'Your answer has no "output" (null while the task is not done).';
  if (calls.length === 0 && output === null) {
    return 'Your answer has no calls and no output: give the calls still needed, or the output.';
  }
  return { calls: [...calls], output };
}

function repairText(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const lines = errors.map((d) => {
    const where = d.line !== undefined ? `${d.line}:${d.column}` : d.pointer;
    const call = d.call !== undefined ? ` (call ${d.call})` : '';
    const hint = d.hint ? ` Hint: ${d.hint}` : '';
    return `- ${where}${call} ${d.code}: ${d.message}.${hint}`;
  });
  return [
    'Your solution does not compile. Positions are line:column in your answer.',
    ...lines,
    'Fix these and answer again with the whole corrected JSON object.',
  ].join('\n');
}

/** Lazy mode: a latent tool's result is asked of the model, in the tool's output schema. */
function latentFromModel(deps: SolveDependencies): LatentFunction {
  return async ({ tool, args, signal }) => {
    const value =
      typeof tool.outputSchema === 'object' || typeof tool.outputSchema === 'boolean'
        ? tool.outputSchema
        : {};
    const turn = await complete(deps.provider, {
      messages: [
        { role: 'system', content: LATENT_PROMPT },
        {
          role: 'user',
          content: JSON.stringify({ tool: tool.name, description: tool.description ?? '', arguments: args }),
        },
      ],
      tools: [],
      // Wrapped in an object: structured-output APIs want an object at the root.
      responseFormat: {
        name: 'latent_result',
        schema: { type: 'object', properties: { value }, required: ['value'], additionalProperties: false },
      },
      signal,
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(turn.message.content);
    } catch (e) {
      throw new Error(
        `the model's result for latent tool '${tool.name}' is not JSON: ${(e as Error).message}`,
      );
    }
    if (parsed === null || typeof parsed !== 'object' || !('value' in parsed)) {
      throw new Error(`the model's result for latent tool '${tool.name}' has no "value"`);
    }
    return (parsed as { value: unknown }).value;
  };
}

function outputSchemaOf(options: SolveOptions) {
  return options.outputSchema !== undefined ? { outputSchema: options.outputSchema } : {};
}
