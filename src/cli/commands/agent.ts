/**
 * `plan agent "<task>" --tools <module> --model <provider>:<model>`: the agent in a terminal.
 *
 * Without --plan-mode it is the plan loop (PlanAgent.solve): each solution's run
 * shows in the live view of `plan run`, a lazy solution is shown (listing and dry run) and
 * approved on a terminal, and so is each call of a tool that needs approval (agent-approvals.ts). With --plan-mode the model first investigates with read-only tools
 * and submits a plan, which a person approves, and then carries it out with every tool.
 * Exit codes are those of `plan run`.
 */
import { FirstInterrupt } from '../first-interrupt.js';
import { isModelProviderError, isPlanError, isApprovalRejectedError } from '../../errors.js';
import type { AgentEvent } from '../../agent/agent-events.js';
import type { Message } from '../../agent/model.js';
import type { CompiledPlan } from '../../compile/types.js';
import { PlanAgent } from '../../agent/plan-agent.js';
import { createProvider } from '../../agent/providers/index.js';
import { loadTimeoutFlag, loadToolRegistry } from '../flags/compile-inputs.js';
import { agentApprovals, unaskedCallsText, lineReader, Prompter } from '../approvals/index.js';
import { CliInputError } from '../cli-input-error.js';
import { loadProviderSdk } from '../flags/missing-dependency.js';
import {
  PlainView,
  QUIET_VIEW,
  type RunView,
  formatCliError,
  oneLine,
  paint,
  shouldUseColor,
  LiveView,
  formatRunSummary,
  stoppedTurnLine,
} from '../output/index.js';
import { ExitCode } from '../exit-codes.js';
import { type CliIo, displayName } from '../io.js';
import { limitsFlag } from '../flags/limit-flags.js';
import type { AgentFlags } from './agent-flags.js';
import { budgetFlag, readContext } from './agent-solve-flags.js';
import { giveUpText, solveExitCode, solveJson } from './agent-solve-result.js';
import { runTodoFlow } from './agent-todos.js';
import { openSession } from './agent-session.js';
import { isSubRunEvent } from './event-line.js';
import { RUN_MODES } from './flag-choices.js';
import { wholeNumber } from '../flags/whole-number.js';

export { readPlanAnswer } from '../approvals/index.js';
export type { AgentFlags } from './agent-flags.js';

/**
 * @returns 0 done, 1 the model's reply never became a plan that compiles (its diagnostics on
 *   stderr), 3 failed (out of iterations or turns, a model API error), 4 rejected at approval,
 *   5 a budget ran out, 6 stalled, 130 interrupted. Input problems throw CliInputError (2).
 */
export async function agentCommand(task: string, flags: AgentFlags, io: CliIo): Promise<number> {
  if (typeof task !== 'string' || task.trim() === '')
    throw new CliInputError('plan agent needs a task: plan agent "<task>" ...');
  if (flags.tools === undefined && flags.mcpTools === undefined) {
    throw new CliInputError(
      'plan agent needs --tools <module> (a .js/.mjs ES module that exports tools with execute functions) or --mcp <server>',
    );
  }
  if (flags.model === undefined) {
    throw new CliInputError(
      'plan agent needs --model <provider>:<model>, e.g. openai:gpt-4o or anthropic:claude-sonnet-4-6',
    );
  }
  const mode = flags.mode ?? 'eager';
  if (!(RUN_MODES as readonly string[]).includes(mode)) {
    throw new CliInputError(`--mode must be one of ${RUN_MODES.join(', ')}, not '${mode}'`);
  }
  if (flags.todos && flags.planMode) {
    throw new CliInputError('--todos and --plan-mode are two ways to plan first: use one of them');
  }
  if (flags.todos && flags.mode !== undefined) {
    throw new CliInputError('--mode is for the plan loop; with --todos each todo runs as an agent turn');
  }
  for (const [flag, given] of [
    ['--context', flags.context],
    ['--system-prompt', flags.systemPrompt],
    ['--budget', flags.budget],
    ['--max-reply-bytes', flags.maxReplyBytes],
    ['--strict', flags.strict],
    ['--schema-format', flags.schemaFormat],
    ['--session', flags.session],
  ] as const) {
    if (given !== undefined && (flags.todos || flags.planMode)) {
      throw new CliInputError(`${flag} is for the plan loop; leave out --todos and --plan-mode to use it`);
    }
  }
  if (flags.schemaFormat !== undefined && flags.model?.trim().startsWith('anthropic:')) {
    throw new CliInputError(
      '--schema-format is for openai: and scripted: models; anthropic: takes the schema in a form of its own: leave out --schema-format',
    );
  }
  for (const [flag, given] of [
    ['--max-tool-calls-per-turn', flags.maxToolCallsPerTurn],
    ['--max-conversation-bytes', flags.maxConversationBytes],
  ] as const) {
    if (given !== undefined && !flags.planMode) {
      throw new CliInputError(`${flag} bounds the conversation of --plan-mode; use it with --plan-mode`);
    }
  }
  const maxToolCallsPerTurn = wholeNumber(flags.maxToolCallsPerTurn, '--max-tool-calls-per-turn', 1);
  const maxConversationBytes = wholeNumber(flags.maxConversationBytes, '--max-conversation-bytes', 1);
  const maxIterations = wholeNumber(flags.maxIterations, '--max-iterations', 1);
  const budget = budgetFlag(flags.budget);
  const maxReplyBytes = wholeNumber(flags.maxReplyBytes, '--max-reply-bytes', 1);
  const limits = limitsFlag(flags);
  const tools = await loadToolRegistry(flags.tools, flags.mcpTools ?? [], loadTimeoutFlag(flags));
  const context =
    flags.context === undefined ? undefined : await readContext(task, flags.context, tools, limits, io);
  if (flags.mode === 'eager' && context?.mode === 'lazy') {
    io.stderr.write(
      `plan: --mode eager does not apply: the context ${displayName(flags.context!)} says "mode": "lazy", and an option can only make a plan lazier; each solution runs lazily, once approved\n`,
    );
  }
  let provider;
  try {
    provider = createProvider(flags.model, {
      ...(flags.baseUrl !== undefined && { baseURL: flags.baseUrl }),
      ...(flags.schemaFormat !== undefined && { schemaFormat: flags.schemaFormat }),
      env: io.env,
    });
  } catch (e) {
    // An unknown provider, a missing model or API key: the command line's fault, named without the key.
    throw new CliInputError(inFlags(oneLine((e as Error).message.replace(/^createProvider: /, '--model: '))));
  }
  await loadProviderSdk(provider, `--model ${flags.model}`);

  const color = shouldUseColor(io.stderr, io.env);
  const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true;
  const prompter = interactive ? new Prompter(lineReader(io.stdin), io.stderr) : null;
  const interrupt = new FirstInterrupt();

  let view: RunView = QUIET_VIEW;
  /** The plan of the solution running: a skipped call's reason is read from it. */
  let solutionPlan: CompiledPlan | undefined;
  const newView = (calls: readonly { readonly id: string; readonly tool: string }[]): RunView =>
    flags.json
      ? QUIET_VIEW
      : io.stderr.isTTY === true && io.env.TERM !== 'dumb' && !flags.events
        ? new LiveView({ stream: io.stderr, color, calls })
        : new PlainView(io.stderr, { events: flags.events === true });
  let needsNewline = false;
  let running = false; // a solution's run started and has not ended (streamed: before its solution event)
  const onEvent = (event: AgentEvent) => {
    if (flags.json) return;
    if (event.type === 'text-delta') {
      io.stderr.write(event.text);
      needsNewline = !event.text.endsWith('\n');
      return;
    }
    if (needsNewline) {
      io.stderr.write('\n');
      needsNewline = false;
    }
    if (event.type === 'tool-call')
      io.stderr.write(
        `${paint('→', color, 'dim')} ${event.call.name} ${oneLine(JSON.stringify(event.call.arguments))}\n`,
      );
    else if (event.type === 'tool-result') {
      const mark = event.outcome === 'succeeded' || event.outcome === 'plan-submitted' ? '✓' : '✗';
      io.stderr.write(`${mark} ${event.call.name}: ${oneLine(event.result.content).slice(0, 200)}\n`);
    } else if (event.type === 'solution') {
      // Streamed, the solution's run began while the model wrote it: its view is live already.
      if (!running) view.stop();
      io.stderr.write(
        `solution ${event.iteration}: ${event.calls.length} call(s)${event.repairs > 0 ? ` after ${event.repairs} repair(s)` : ''}\n`,
      );
      solutionPlan = event.plan;
      if (!running) view = newView(event.plan.calls);
    } else if (event.type === 'run' && !isSubRunEvent(event.event)) {
      // A workflow's inner events (isSubRunEvent) are not the solution's calls: the view skips them.
      if (event.event.type === 'run:start') {
        // A run that starts before its solution is whole gets a view of its own (no call list).
        if (solutionPlan === undefined) view = newView([]);
        running = true;
      }
      view.onEvent(event.event);
    } else if (event.type === 'halt' || event.type === 'turn-failed') {
      io.stderr.write(`${stoppedTurnLine(event)}\n`);
    } else if (event.type === 'run-end') {
      running = false;
      view.stop();
      io.stderr.write(
        formatRunSummary(event.result, {
          file: `solution ${event.iteration}`,
          color,
          interrupted: interrupt.interrupted,
          failFast: false,
          ...(solutionPlan && { plan: solutionPlan }),
          failures: !(view instanceof LiveView),
        }),
      );
      solutionPlan = undefined;
    }
  };

  // The tools module is the user's own code: its readOnlyHint annotations are believed. MCP
  // servers' tools are marked untrusted unless --trust-mcp-annotations, so theirs are not.
  const permissions = {
    mode: 'bypassPermissions',
    trustAnnotations: true,
    ...(flags.readOnly !== undefined && { readOnly: flags.readOnly }),
  } as const;
  const approvals = agentApprovals({
    yes: flags.yes === true,
    prompter,
    io,
    color,
    view: () => view,
  });
  const { approvePlan, approveTool } = approvals;
  const agent = new PlanAgent({
    provider,
    tools,
    permissions,
    signal: interrupt.signal,
    onEvent,
    approvePlan,
    approveTool,
    ...(maxToolCallsPerTurn !== undefined && { maxToolCallsPerTurn }),
    ...(maxConversationBytes !== undefined && { maxConversationBytes }),
  });
  /** A flow that would end well, in which a call was turned down, does not exit 0. */
  const unlessRejected = (code: number) =>
    code === ExitCode.OK && approvals.rejectedCalls() > 0 ? ExitCode.REJECTED : code;

  try {
    if (flags.todos) {
      const code = await runTodoFlow(task, io, {
        provider,
        tools,
        permissions,
        limits,
        maxIterations,
        approvePlan,
        approveTool,
        onAgentEvent: onEvent,
        signal: interrupt.signal,
        progress: !flags.json,
        json: flags.json === true,
        color,
      });
      if (!flags.json) io.stderr.write(unaskedCallsText(approvals.unaskedCalls()));
      return interrupt.interrupted ? ExitCode.INTERRUPTED : unlessRejected(code);
    }
    if (flags.planMode) {
      const messages: Message[] = [{ role: 'user', content: task }];
      const planned = await agent.plan(messages);
      if (planned.status === 'max_turns')
        return finish(io, flags, { status: 'max_turns', text: planned.text }, ExitCode.RUN_FAILED);
      if (planned.status === 'answered')
        return finish(io, flags, { status: 'answered', text: planned.text }, ExitCode.OK);
      const executed = await agent.execute(messages);
      if (!flags.json) io.stderr.write(unaskedCallsText(approvals.unaskedCalls()));
      const code = unlessRejected(executed.status === 'answered' ? ExitCode.OK : ExitCode.RUN_FAILED);
      return finish(
        io,
        flags,
        { status: executed.status, plan: planned.plan, text: executed.text },
        interrupt.interrupted ? ExitCode.INTERRUPTED : code,
      );
    }
    const session = await openSession(flags.session, io, flags.json === true);
    const result = await agent.solve(task, {
      ...(session && { session }),
      mode: mode as 'eager' | 'lazy',
      limits,
      ...(context !== undefined && { context: context.text }),
      ...(flags.systemPrompt !== undefined && { systemPrompt: flags.systemPrompt }),
      ...(maxIterations !== undefined && { maxIterations }),
      ...(budget !== undefined && { budget }),
      ...(maxReplyBytes !== undefined && { maxReplyBytes }),
      ...(flags.strict === true && { strict: true }),
      approve: approvals.approveSolve,
    });
    if (result.status === 'rejected' && !prompter && !flags.yes && !flags.json) {
      io.stderr.write(
        approvals.unaskedCalls() > 0
          ? unaskedCallsText(approvals.unaskedCalls())
          : 'plan: not running the solution: a lazy plan runs only once approved, and there is no terminal to ask on; pass --yes to approve it\n',
      );
    }
    if (!flags.json) io.stderr.write(giveUpText(result, color));
    return finish(
      io,
      flags,
      solveJson(result),
      interrupt.interrupted ? ExitCode.INTERRUPTED : solveExitCode(result),
    );
  } catch (e) {
    if (interrupt.interrupted || interrupt.signal.aborted)
      return finish(io, flags, { status: 'cancelled' }, ExitCode.INTERRUPTED);
    if (isApprovalRejectedError(e)) {
      io.stderr.write(formatCliError(`${e.message}`, { color }));
      return finish(io, flags, { status: 'rejected' }, ExitCode.REJECTED);
    }
    if (isModelProviderError(e) || isPlanError(e)) {
      io.stderr.write(formatCliError(oneLine((e as Error).message), { color }));
      return finish(io, flags, { status: 'failed', error: (e as Error).message }, ExitCode.RUN_FAILED);
    }
    throw e;
  } finally {
    interrupt.dispose();
    view.stop();
    prompter?.close();
  }
}

/** The answer goes to stdout (the product); with --json, the one object. */
function finish(io: CliIo, flags: AgentFlags, outcome: Record<string, unknown>, code: number): number {
  if (flags.json) io.stdout.write(`${JSON.stringify(outcome)}\n`);
  else if (outcome.output !== undefined && outcome.output !== null) {
    io.stdout.write(
      `${typeof outcome.output === 'string' ? outcome.output : JSON.stringify(outcome.output, null, 2)}\n`,
    );
  } else if (typeof outcome.text === 'string' && outcome.text !== '') io.stdout.write(`${outcome.text}\n`);
  return code;
}

/**
 * A provider's message in the command line's words: the library speaks of options (`apiKey`,
 * `requireApiKey: false`), which a CLI user cannot pass; the CLI reads keys from the
 * environment only, and needs none for a server named by --base-url.
 */
function inFlags(message: string): string {
  return message
    .replace(
      /, or pass apiKey \(for a local server that needs none, requireApiKey: false\)/,
      ' (the key is read from the environment only; a local server that needs none: give its --base-url)',
    )
    .replace(/, or pass apiKey\b/, ' (the key is read from the environment only)');
}
