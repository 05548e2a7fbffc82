/**
 * The plan loop: the model answers with a solution `{calls, output}` in a JSON
 * Schema generated from the tools; the solution is compiled (comments and trailing commas read
 * as space), and its diagnostics go back for a bounded number of repairs; the calls run
 * (eager), or are simulated, approved and run (lazy); then the model is asked again with the
 * input, the state and its plan as context (each call marked with how it ended and what it
 * returned, see solve-results.ts), until it gives a non-null `output` or the iterations run
 * out. Calls that did not succeed also go back as `{call, tool, status, error}` records, never
 * as strings posing as data.
 *
 * The loop is lazy when the `mode` option or the context's plan message says so (the lazier
 * wins). A call of a tool that needs approval is put to `approve` by itself, with its resolved
 * arguments, in either mode; a call a person turns down ends the loop `rejected`
 * (solve-approvals.ts).
 *
 * A side effect happens once per solve(): a mutating call that succeeded in an earlier turn is
 * not run again with the same arguments; its result is reused (see side-effect-ledger.ts).
 *
 * The model is not trusted to behave: every reply is bounded in bytes before it is read
 * (maxReplyBytes), every reply that cannot be used is explained with located diagnostics
 * (solve-reply.ts), the loop as a whole spends within a budget (calls, turns, tokens, wall time:
 * budget.ts), and a plan that already ran from the same state is not run again (solve-repeats.ts).
 */
import { planSchema } from '../../compile/plan-schema/index.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { JsonObject } from '../../language/document.js';
import { DEFAULT_LIMITS, type Limits, resolveLimits } from '../../language/limits.js';
import { run, startRun } from '../../run/run.js';
import type { CallReport, RunOptions, RunResult } from '../../run/types.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/tool.js';
import { simulate } from '../../simulate/simulate.js';
import { lazierMode } from '../../language/execution-mode.js';
import { resolveBudget } from './budget.js';
import { BudgetMeter } from './budget-meter.js';
import type { Message } from '../model.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../providers/index.js';
import { SOLVE_PROMPT } from '../prompts.js';
import { annotatedReadOnly, SideEffectLedger } from './side-effect-ledger.js';
import { askAboutSolution, EDITED_NOTE, hasRejectedCall, runApprover } from './solve-approvals.js';
import { compileEdit, type EditedPlan, editedCalls } from '../../run/runner/index.js';
import { latentFromModel } from './solve-latent.js';
import { solveContextText } from './solve-context.js';
import { RepeatWatch, REPEAT_NOTE } from './solve-repeats.js';
import { askForSolution } from './solve-ask.js';
import { dropStrictNulls } from './strict-nulls.js';
import { checkSolveOptions, solveStart } from './solve-start.js';
import type { FailedCallRecord, SolveDependencies, SolveOptions, SolveResult } from './solve-types.js';
import { checkSessionTools, type SolveSnapshot, toolDigests } from './session.js';
import { loadSession } from './session-read.js';

const DEFAULTS = { maxIterations: 5, maxRepairs: 2 } as const;

const WHERE = 'PlanAgent.solve';

export async function solve(
  task: string | Record<string, unknown>,
  options: SolveOptions,
  deps: SolveDependencies,
): Promise<SolveResult> {
  checkSolveOptions(task, options);
  const budget = resolveBudget(options.budget, WHERE);
  const resumed = await loadSession(options.session, limitsOf(options), WHERE);
  const meter = new BudgetMeter(budget, deps.signal, resumed?.spent);
  try {
    return await loop(task, options, deps, meter, resumed);
  } finally {
    meter.end();
  }
}

async function loop(
  task: string | Record<string, unknown>,
  options: SolveOptions,
  deps: SolveDependencies,
  meter: BudgetMeter,
  resumed: SolveSnapshot | undefined,
): Promise<SolveResult> {
  const maxIterations = options.maxIterations ?? DEFAULTS.maxIterations;
  const maxRepairs = options.maxRepairs ?? DEFAULTS.maxRepairs;
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const start = solveStart(task, options, deps.tools(), options.limits);
  const { stateSchema, toolNames } = start;
  // A resumed loop goes on with the snapshot's input, state, context and conversation.
  const input = resumed?.input ?? start.input;
  const history = resumed?.history ?? options.history ?? [];
  const mode = lazierMode(start.mode, options.mode);
  // Eager solutions run while the model writes them (see solve-streamed.ts); strict ones are
  // read whole, since some warnings (a missing dagger) are only known once the plan is.
  const streamed = mode === 'eager' && options.streamCalls !== false && options.strict !== true;
  const offered = () => (toolNames ? deps.tools().filter((tool) => toolNames.has(tool.name)) : deps.tools());
  const system = options.systemPrompt ? `${options.systemPrompt}\n\n${SOLVE_PROMPT}` : SOLVE_PROMPT;
  let lastTools: readonly Tool[] = [];
  let lastRegistry: ToolRegistry | undefined;
  const ledger = new SideEffectLedger(deps.isReadOnly ?? annotatedReadOnly);
  if (resumed) {
    checkSessionTools(resumed, offered(), options.session?.allowToolChanges === true);
    ledger.restore(resumed.sideEffects);
  }
  const repeats = new RepeatWatch();
  // The per-plan budget is one more bound on what compile reads: a plan over it is E_LIMIT.
  const maxCalls = options.limits?.maxCalls ?? DEFAULT_LIMITS.maxCalls;
  const perPlan = meter.budget.maxCallsPerPlan < maxCalls ? meter.budget.maxCallsPerPlan : null;
  const limits: Partial<Limits> = {
    ...options.limits,
    maxCalls: Math.min(maxCalls, meter.budget.maxCallsPerPlan),
  };
  let state: JsonObject = structuredClone(resumed?.state ?? start.state);
  let previous: readonly unknown[] = resumed?.context.plan ?? start.plan;
  let progress: readonly CallReport[] | null = resumed?.context.progress ?? null;
  let failures: FailedCallRecord[] = [...(resumed?.context.failures ?? [])];
  let note: string | null = resumed?.context.note ?? null;
  const runs: RunResult[] = [];
  /** The session's snapshot after `turn` turns; `ended` once the loop is over. */
  const save = async (turn: number, ended: SolveSnapshot['ended']) => {
    if (!options.session) return;
    const context = { plan: previous, progress, failures, note };
    const tools = toolDigests(offered());
    const sideEffects = ledger.sideEffects();
    const spent = meter.report().spent;
    await options.session.save({
      version: 1,
      tools,
      input,
      state,
      turn,
      spent,
      history,
      context,
      sideEffects,
      ended,
    });
  };
  const end = async (
    status: SolveResult['status'],
    iterations: number,
    output: unknown = null,
    diagnostics: readonly Diagnostic[] = [],
  ): Promise<SolveResult> => {
    meter.end();
    // A cancelled loop keeps its last snapshot: resumed, it goes on from the turn before.
    if (status !== 'cancelled') await save(iterations, { status, output });
    const endedBy = status === 'ended' ? runs[runs.length - 1]?.endedBy : undefined;
    const result = { status, output, state, iterations, runs, diagnostics, budget: meter.report() };
    return endedBy ? { ...result, endedBy } : result;
  };
  if (resumed?.ended) {
    meter.end();
    const { status, output } = resumed.ended;
    return { status, output, state, iterations: resumed.turn, runs, diagnostics: [], budget: meter.report() };
  }

  const first = (resumed?.turn ?? 0) + 1;
  for (let iteration = first; iteration <= maxIterations; iteration++) {
    // Between turns: the last one is over (its run ended, the context is written) and the next
    // has not asked anything yet, so a process stopped from here on resumes from this snapshot.
    if (iteration > first) await save(iteration - 1, null);
    if (deps.signal?.aborted) return end('cancelled', iteration - 1);
    const tools = offered();
    // One registry for the iteration's schema, compiles, run and dry run (each schema compiled
    // once), kept while the tools offered are the same definitions.
    const registry = sameTools(tools, lastTools) ? lastRegistry! : ToolRegistry.from(tools);
    lastTools = tools;
    lastRegistry = registry;
    const context = { input, state, stateSchema, plan: previous, progress, failures, note };
    const messages: Message[] = [
      { role: 'system', content: system },
      ...history,
      { role: 'user', content: solveContextText(context) },
    ];
    // Over exactly the tools offered now, so the model cannot name one that does not exist.
    const { schemaFormat, strictSchemas } = deps.provider;
    const schemaForm = schemaFormat ?? (strictSchemas === true ? 'openai-strict' : 'json-schema');
    // Both rewritten forms make the model write null for each optional key it leaves out.
    const strict = schemaForm !== 'json-schema';
    const schema = planSchema(registry, {
      shape: 'solution',
      mode,
      format: schemaForm,
      ...(start.outputSchema !== undefined && { outputSchema: start.outputSchema }),
    });
    const format = { name: 'solution', schema };
    const handedOn = new HandedOn();
    // The key of the state this iteration starts from, made once (a state may be large).
    const startState = state;
    let stateKey: string | undefined;
    const from = () => (stateKey ??= repeats.stateKey(startState));
    let haltedState: JsonObject | undefined;
    // The options of every run of this iteration's solution, streamed or whole.
    const runOptions: RunOptions = {
      tools: registry,
      input,
      state,
      mode,
      reuse: ledger.reuse,
      approve: runApprover(options.approve),
      ...(mode === 'lazy' && { latent: latentFromModel(deps, meter, maxReplyBytes) }),
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      ...(options.limiter !== undefined && { limiter: options.limiter }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      limits,
      // Streamed calls are checked as they arrive, by the same rules as a compiled reply.
      ...(streamed && { haltOnInvalidCall: true }),
      ...(options.strict === true && { strict: true }),
      ...deps.runTracing,
      // The loop's signal: the caller's, and the budgets' (wall time, tokens of latent answers).
      signal: meter.signal,
      onEvent: (event) => {
        if (event.type === 'call:start' && event.attempt === 1) {
          meter.ran(1);
          handedOn.started++;
        } else if (event.type === 'call:end' && event.attempts === 0) handedOn.ended++;
        deps.emit({ type: 'run', phase: 'solve', iteration, event });
      },
    };
    const compileOptions = {
      tools: registry,
      input,
      state,
      mode,
      limits,
      ...(stateSchema && { stateSchema }),
      ...(options.strict === true && { strict: true }),
    };
    let edited: EditedPlan | undefined;
    const answer = await askForSolution(deps, meter, messages, format, {
      compile: compileOptions,
      maxCallsPerPlan: perPlan,
      maxRepairs,
      maxReplyBytes,
      strict,
      ...(streamed && {
        streamed: {
          attempt: {
            start: (stream) => startRun(stream, runOptions),
            prepare: (call) => {
              if (strict) dropStrictNulls([call], registry);
              return call;
            },
            // The total call budget, counting the calls handed on that have not started yet.
            mayRun: () => meter.mayRun(handedOn.waiting() + 1) && handedOn.hand(),
            repeats: () => repeats.prefix(from()),
          },
          halting: () => deps.emit({ type: 'halt', phase: 'solve', iteration }),
          halted: (result) => {
            runs.push(result);
            haltedState = result.state;
            ledger.recordHalted(result.calls, tools);
            deps.emit({ type: 'run-end', phase: 'solve', iteration, result });
          },
        },
      }),
    });
    if (!answer.ok) {
      // What a halted run did is what happened: the result's state says so.
      if (haltedState) state = haltedState;
      return end(
        answer.ended === 'budget' ? 'budget_exceeded' : 'invalid',
        iteration,
        null,
        answer.diagnostics,
      );
    }
    const { plan, calls, output, repairs, streamed: attempt } = answer;
    // A plan is remembered once it runs: one a person turned down may come back unchanged.
    const key = calls.length > 0 ? repeats.solution(calls, output, from()) : null;
    if (key) {
      const seen = repeats.check(key);
      if (seen !== 'new' && attempt) {
        // Streamed, a repeat's calls were held back while they matched the plan it repeats;
        // any that had started (a repeat of a plan whose run was halted) end, and no more start.
        const halted = await attempt.abandon();
        if (halted) {
          runs.push(halted);
          ledger.record(halted.calls, tools);
          deps.emit({ type: 'run-end', phase: 'solve', iteration, result: halted });
          state = halted.state;
        }
      }
      if (seen === 'stalled') return end('stalled', iteration);
      if (seen === 'warn') {
        // Nothing runs; the context stays as it was, with the reason.
        note = REPEAT_NOTE;
        continue;
      }
    }
    deps.emit({ type: 'solution', phase: 'solve', iteration, plan, calls, output, repairs });
    if (calls.length === 0) return end('done', iteration, output);

    if (mode === 'lazy') {
      const simulation = simulate(plan, { tools: registry, input, state });
      deps.emit({ type: 'simulation', phase: 'solve', simulation });
      const decision = await askAboutSolution(options.approve, {
        plan,
        simulation,
        iteration,
        compile: (text) => compileEdit(text, compileOptions),
        ...(options.maxEditRetries !== undefined && { maxEditRetries: options.maxEditRetries }),
      });
      if (!decision.approved) {
        if (decision.error) return end('rejected', iteration, null, decision.error.diagnostics);
        if (!decision.feedback) return end('rejected', iteration);
        // A no with reasons is something the model can act on: ask again with them.
        previous = calls;
        progress = null;
        failures = [];
        note = `A person rejected this plan before it ran. Their feedback: ${decision.feedback}`;
        continue;
      }
      if (decision.edited) edited = decision.edited;
    }
    // A streamed run is held to the call budget call by call, as its calls are handed on.
    const running = attempt?.finish() ?? null;
    if (!running && !meter.mayRun(plan.calls.length)) return end('budget_exceeded', iteration);
    if (key) repeats.remember(key, from());
    const ran = running ? await running.result : await run(edited?.plan ?? plan, runOptions);
    // Asked about here, not by run(): its result is told it ran an edit as run() tells its own.
    const result = edited ? Object.assign(ran, { edited: true as const, editedPlan: edited.value }) : ran;
    runs.push(result);
    ledger.record(result.calls, tools);
    deps.emit({ type: 'run-end', phase: 'solve', iteration, result });
    state = result.state;
    // The state the cancelled run wrote is kept: it is what the calls that finished did.
    if (meter.exceeded) return end('budget_exceeded', iteration);
    if (result.status === 'cancelled' && deps.signal?.aborted) return end('cancelled', iteration);
    // A tool ended the loop: what ran is kept, and the model is not asked again.
    if (result.endedBy) return end('ended', iteration);
    // A person turned a call down: the loop stops there, as after a plain no to a plan.
    if (hasRejectedCall(result)) return end('rejected', iteration);
    failures = result.calls
      .filter((c) => c.status !== 'succeeded' && c.status !== 'skipped')
      .map((c) => ({ call: c.id, tool: c.tool, status: c.status, error: c.error }));
    // An answer given together with calls stands only if those calls did what it claims.
    if (output !== null && result.status === 'succeeded') return end('done', iteration, output);
    previous = edited ? editedCalls(edited.value) : calls;
    progress = result.calls;
    note = edited ? EDITED_NOTE : null;
  }
  return end('max_iterations', maxIterations);
}

/** Whether two lists hold the same tool definitions (the same objects, in the same order). */
function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  return a.length === b.length && a.length > 0 && a.every((tool, i) => tool === b[i]);
}

/** Calls of a streamed reply handed to its run, and how many of them started or ended unstarted. */
class HandedOn {
  handed = 0;
  started = 0;
  ended = 0;

  /** Handed on and not started (nor ended without starting) yet. */
  waiting(): number {
    return this.handed - this.started - this.ended;
  }

  hand(): true {
    this.handed++;
    return true;
  }
}

/** The limits a session's snapshot is read within: the loop's own. */
function limitsOf(options: SolveOptions): Limits | undefined {
  return options.limits ? resolveLimits(options.limits, `${WHERE}: limits`) : undefined;
}
