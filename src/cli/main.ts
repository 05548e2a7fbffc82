/**
 * The `plan` command. `main` returns the exit code instead of exiting, so tests run it
 * in-process; bin/plan.js is the only place that calls process.exit.
 */
import { isatty } from 'node:tty';
import { Command, Option } from 'commander';
import type { AgentFlags } from './commands/agent.js';
import type { EvalFlags } from './commands/eval.js';
import type { WorkerFlags } from './commands/worker.js';
import { defineExplainCommand } from './commands/explain-command.js';
import { defineServeCommand } from './commands/serve-command.js';
import type { GraphFlags } from './commands/graph.js';
import type { ImportFlags } from './commands/import.js';
import type { RunFlags } from './commands/run.js';
import type { SimulateFlags } from './commands/simulate.js';
import {
  GRAPH_FORMATS,
  PLAN_SCHEMA_FORMATS,
  PLAN_SCHEMA_MODES,
  PLAN_SCHEMA_SHAPES,
  RUN_MODES,
} from './commands/flag-choices.js';
import type { SchemaFlags } from './commands/schema.js';
import type { ValidateFlags } from './commands/validate.js';
import { collect } from './flags/collect.js';
import { withServers } from './flags/with-servers.js';
import { ExitCode } from './exit-codes.js';
import { formatCliError, shouldUseColor } from './terminal-text.js';
import {
  AGENT_HELP,
  ALL_EXIT_CODES_HELP,
  BUDGET_HELP,
  EVAL_HELP,
  EXIT_CODES_HELP,
  IMPORT_EXIT_CODES_HELP,
  LIMIT_HELP,
  RATE_HELP,
  TOOL_CONCURRENCY_HELP,
  LOAD_TIMEOUT_HELP,
  MCP_HELP,
  RUN_EXIT_CODES_HELP,
  SCHEMA_EXIT_CODES_HELP,
  SIMULATE_EXIT_CODES_HELP,
  WORKER_HELP,
} from './help-texts.js';
import type { CliIo } from './io.js';
import { packageVersion } from './version.js';
import { reportFailure } from './report-failure.js';

/**
 * Runs the CLI.
 *
 * @param argv The arguments after the program name (`process.argv.slice(2)`).
 * @param io Streams and environment; each defaults to the process's own.
 * @returns The exit code (see ExitCode).
 */
export async function main(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const cli: CliIo = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    // Touched only when a file argument is `-`: opening process.stdin has side effects.
    stdin: io.stdin ?? {
      [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator](),
      isTTY: isatty(0),
    },
    env: io.env ?? process.env,
  };
  let exitCode: number = ExitCode.OK;
  const program = buildProgram(cli, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (e) {
    return reportFailure(e, cli);
  }
}

function buildProgram(io: CliIo, setExitCode: (code: number) => void): Command {
  const program = new Command('plan')
    .description('Compile the tool-call plans LLMs write into validated dependency graphs.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // Set before the commands are added, so they inherit both.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) =>
        write(formatCliError(text.replace(/^error:\s*/, ''), { color: shouldUseColor(io.stderr, io.env) })),
    })
    .addHelpText('after', ALL_EXIT_CODES_HELP);

  common(program.command('validate'))
    .description('check a plan and print every diagnostic (stderr), or one JSON object (stdout)')
    .option('--json', 'print {"ok", "mode", "calls", "edges", "order", "diagnostics", "skipped"} to stdout')
    .action(async (file: string, flags: ValidateFlags) => {
      const { validateCommand } = await import('./commands/validate.js');
      setExitCode(await withServers(flags, io, (f) => validateCommand(file, f, io)));
    });

  common(program.command('graph'))
    .description('print the dependency graph of a valid plan to stdout')
    .addOption(new Option('--format <format>', 'graph format (default: mermaid)').choices(GRAPH_FORMATS))
    .option('--json', 'shorthand for --format json')
    .option('--result <file>', 'what `plan run --json` printed for this plan: colour each call by its status')
    .action(async (file: string, flags: GraphFlags) => {
      const { graphCommand } = await import('./commands/graph.js');
      setExitCode(await withServers(flags, io, (f) => graphCommand(file, f, io)));
    });

  defineExplainCommand(common(program.command('explain')), io, setExitCode);

  common(program.command('simulate'), { help: SIMULATE_EXIT_CODES_HELP })
    .description(
      'dry run: sample outputs from the tools, list the scenarios (what runs, what is skipped), check arguments',
    )
    .option('--seed <n>', 'seed of the sampled outputs (default: 1)')
    .option('--max-scenarios <n>', 'most scenarios listed (default: 256)')
    .option('--json', 'print {"scenarios", "truncated", "criticalPath", "maxParallelism", ...} to stdout')
    .option(
      '--report <file>',
      'write a self-contained HTML dry-run report (graph, scenarios, critical path) and print its path',
    )
    .action(async (file: string, flags: SimulateFlags) => {
      const { simulateCommand } = await import('./commands/simulate.js');
      setExitCode(await withServers(flags, io, (f) => simulateCommand(file, f, io)));
    });

  common(program.command('run'), {
    tools: [
      '--tools <module>',
      'tools to run: a .js/.mjs ES module exporting tools with execute functions (with --redis, a .json manifest is enough: the workers run them)',
    ],
    help: RUN_EXIT_CODES_HELP,
  })
    .description(
      'run a plan: progress on stderr (a live view on a terminal, a summary off one), or one JSON object on stdout',
    )
    .option('--rate <name=limit/ms>', RATE_HELP, collect)
    .option('--tool-concurrency <name=N>', TOOL_CONCURRENCY_HELP, collect)
    .addOption(
      new Option(
        '--mode <mode>',
        "lazy makes the plan lazy; eager cannot make a plan that says lazy eager (default: the plan's own)",
      ).choices(RUN_MODES),
    )
    .option('--concurrency <n>', "most tool calls running at once, or 'unlimited' (default: 16)")
    .option(
      '--timeout <ms>',
      'time limit per attempt, for tools without their own timeoutMs; 0 for none (default: 0)',
    )
    .option('--fail-fast', 'start no new call after the first unhandled failure (exit 3)')
    .option(
      '-y, --yes',
      'approve the plan (lazy mode) and every call whose tool needs approval, one line on stderr per approval',
    )
    .option(
      '--json',
      'print {"status", "state", "calls", "diagnostics", "durationMs", "approvalWaitMs"} to stdout when the run ends, and no progress',
    )
    .option(
      '--events',
      'print every event as it happens, as one JSON line on stdout (and, without --json, as one plain line on stderr before the summary)',
    )
    .option(
      '--journal <dir>',
      'append every event to a journal in <dir>, to resume from after a crash (--resume)',
    )
    .option(
      '--otlp <url>',
      'send the run as OpenTelemetry spans (OTLP/HTTP JSON) to <url>, such as http://localhost:4318/v1/traces',
    )
    .option(
      '--resume',
      'with --journal: reuse the outputs of calls an interrupted run completed (after an edit of the plan, of the calls that did not change)',
    )
    .option(
      '--report <file>',
      'write a self-contained HTML report (graph, timeline, details) when the run ends, and print its path',
    )
    .option(
      '--redis <url>',
      'run the tool calls in `plan worker` processes through a queue in this Redis (redis://host:port, unix:///path.sock)',
    )
    .option('--queue <name>', 'with --redis: the queue (default: planmode)')
    .action(async (file: string, flags: RunFlags) => {
      const { runCommand } = await import('./commands/run.js');
      setExitCode(await withServers(flags, io, (f) => runCommand(file, f, io)));
    });

  program
    .command('import')
    .description(
      "write a dataset's plans (NESTFUL, NesTools, LLMCompiler) as planmode plans: DIR/<id>/plan.json and tools.json",
    )
    .argument('<format>', 'nestful, nestools or llmcompiler')
    .argument('<file>', "the dataset's data file, or - for standard input")
    .option(
      '--spec <file>',
      "NESTFUL's *-spec.json, or LLMCompiler's tools manifest (required for those two)",
    )
    .option('--out <dir>', 'the folder the samples are written into (required; created when missing)')
    .option(
      '--id-prefix <prefix>',
      'prefix of the ids the data does not give (default: the set or format name)',
    )
    .addOption(
      new Option('--mode <mode>', 'mode of the written plans (default: lazy)').choices(['lazy', 'eager']),
    )
    .option('--json', 'print {"format", "out", "samples", "errors"} to stdout')
    .addHelpText('after', IMPORT_EXIT_CODES_HELP)
    .action(async (format: string, file: string, flags: ImportFlags) => {
      const { importCommand } = await import('./commands/import.js');
      setExitCode(await importCommand(format, file, flags, io));
    });

  program
    .command('schema')
    .description('print the JSON Schema of a plan over exactly these tools, for structured output')
    .option('--tools <file>', 'tools: a .json manifest {"tools": [...]} or a .js/.mjs module exporting tools')
    .option('--load-timeout <ms>', LOAD_TIMEOUT_HELP)
    .option('--mcp <command>', MCP_HELP, collect)
    .addOption(
      new Option('--mode <mode>', 'lazy plans carry no _output (default: eager)').choices(PLAN_SCHEMA_MODES),
    )
    .addOption(
      new Option(
        '--format <format>',
        "openai-strict: OpenAI's strict structured outputs; grammar: grammar-based decoders (llama.cpp, node-llama-cpp, vLLM, Outlines) (default: json-schema)",
      ).choices(PLAN_SCHEMA_FORMATS),
    )
    .addOption(
      new Option('--shape <shape>', 'the call array, or a solution {calls, output} (default: calls)').choices(
        PLAN_SCHEMA_SHAPES,
      ),
    )
    .addHelpText('after', SCHEMA_EXIT_CODES_HELP)
    .action(async (flags: SchemaFlags) => {
      const { schemaCommand } = await import('./commands/schema.js');
      setExitCode(await withServers(flags, io, (f) => schemaCommand(f, io)));
    });

  program
    .command('worker')
    .description('run the tool calls of `plan run --redis` from the queue, until Ctrl-C or SIGTERM')
    .option('--tools <module>', 'tools to run: a .js/.mjs ES module exporting tools with execute functions')
    .option('--load-timeout <ms>', LOAD_TIMEOUT_HELP)
    .option('--limit <name=value>', LIMIT_HELP, collect)
    .option('--redis <url>', 'the Redis of the queue (default: redis://127.0.0.1:6379)')
    .option('--queue <name>', 'the queue (default: planmode)')
    .option('--concurrency <n>', 'most jobs running at once (default: 16)')
    .option('--rate <name=limit/ms>', RATE_HELP, collect)
    .option('--tool-concurrency <name=N>', TOOL_CONCURRENCY_HELP, collect)
    .option(
      '--lock-duration <ms>',
      "how long a dead worker's jobs wait before another worker takes them (default: 30000)",
    )
    .option('--stalled-interval <ms>', 'how often to look for jobs of dead workers (default: 30000)')
    .option('--quiet', 'no line per job')
    .option('--mcp <command>', MCP_HELP, collect)
    .addHelpText('after', WORKER_HELP)
    .action(async (flags: WorkerFlags) => {
      // Loaded on use: BullMQ is not needed by the other commands.
      const { workerCommand } = await import('./commands/worker.js');
      setExitCode(await withServers(flags, io, (f) => workerCommand(f, io)));
    });

  defineServeCommand(program, io, setExitCode);

  program
    .command('agent')
    .argument('<task>', 'what the agent should do')
    .description(
      'an agent over a model API: the plan loop (solutions run as plans), or --plan-mode (plan, approve, execute)',
    )
    .option('--tools <module>', 'tools: a .js/.mjs ES module exporting tools with execute functions')
    .option('--load-timeout <ms>', LOAD_TIMEOUT_HELP)
    .option('--limit <name=value>', LIMIT_HELP, collect)
    .option('--mcp <command>', MCP_HELP, collect)
    .option(
      '--trust-mcp-annotations',
      "believe the MCP servers' readOnlyHint: such tools may run while planning (default: every MCP tool counts as mutating)",
    )
    .option(
      '--read-only <pattern>',
      'tools (name or pattern with * and ?) that may run while planning, whatever their annotations say; repeatable',
      collect,
    )
    .option('--model <provider:model>', 'openai:<model>, anthropic:<model> or scripted:<turns.json>')
    .option(
      '--base-url <url>',
      'the API base URL (vLLM, Ollama, llama.cpp or another OpenAI-compatible server)',
    )
    .addOption(
      new Option(
        '--schema-format <format>',
        'the plan schema sent to the model: grammar for a grammar-based server (llama.cpp, vLLM); openai: and scripted: only (default: json-schema)',
      ).choices(PLAN_SCHEMA_FORMATS),
    )
    .option('--plan-mode', 'investigate with read-only tools, submit a plan for approval, then carry it out')
    .option(
      '--todos',
      'break the task into todos (approved like a plan), run each as its own agent turn, and reflect after each: continue, revise the todos, or finish',
    )
    .addOption(
      new Option(
        '--mode <mode>',
        "how each solution runs; eager cannot make a --context that says lazy eager (default: the context's, else eager)",
      ).choices(RUN_MODES),
    )
    .option(
      '--max-iterations <n>',
      'most solutions asked for (default: 5); with --todos, most reflections (default: 20)',
    )
    .option(
      '--context <file>',
      'the plan loop starts from this context in the plan language: input, state (and its schema), a plan, tool messages',
    )
    .option('--system-prompt <text>', "instructions for the model, sent before the plan loop's own")
    .option('--budget <name=value>', BUDGET_HELP, collect)
    .option('--max-reply-bytes <n>', 'most bytes of one model reply; a longer one is cut (default: 1048576)')
    .option(
      '--max-tool-calls-per-turn <n>',
      'with --plan-mode: most tool calls one model reply may make; past it the turn fails before any runs (default: 256)',
    )
    .option(
      '--max-conversation-bytes <n>',
      'with --plan-mode: most bytes the conversation may hold when the model is asked again (default: 16777216)',
    )
    .option('--strict', "a solution's compile warnings are errors, sent back to the model for repair")
    .option(
      '--session <file>',
      'save the plan loop to this file after every turn, and resume from it when it exists (a side effect that ran is not run again)',
    )
    .option(
      '-y, --yes',
      'approve plans, solutions, todo lists and calls whose tool needs approval without asking, one line on stderr per approval',
    )
    .option('--json', 'print one JSON object to stdout at the end, and no progress')
    .option('--events', "off a terminal, print every event of each solution's run before its summary")
    .addHelpText('after', AGENT_HELP)
    .action(async (task: string, flags: AgentFlags) => {
      // Loaded on use: the model SDKs are not needed by the other commands.
      const { agentCommand } = await import('./commands/agent.js');
      setExitCode(await withServers(flags, io, (f) => agentCommand(task, f, io)));
    });

  program
    .command('eval')
    .description(
      "score a model's plans against gold plans of the same samples: tool and argument F1, sequence match, compiles, win rate",
    )
    .requiredOption('--gold <dir>', 'the gold samples: <id>/plan.json and <id>/tools.json per sample')
    .requiredOption('--predicted <dir>', "the model's plans for the same ids, laid out the same way")
    .option('--seed <n>', 'seed of the mock tools both plans run against (default: 0)')
    .option(
      '--json',
      'print {"seed", "samples", "overall", "extraPredicted", "extraPredictedCount"} to stdout',
    )
    .addHelpText('after', EVAL_HELP)
    .action(async (flags: EvalFlags) => {
      // Loaded on use: the scorer and the mocks are not needed by the other commands.
      const { evalCommand } = await import('./commands/eval.js');
      setExitCode(await evalCommand(flags, io));
    });

  return program;
}

interface CommonHelp {
  /** The --tools flag and its description. */
  readonly tools?: readonly [string, string];
  /** The text after the options. */
  readonly help?: string;
}

function common(command: Command, options: CommonHelp = {}): Command {
  const [tools, toolsHelp] = options.tools ?? [
    '--tools <file>',
    'tools: a .json manifest {"tools": [...]} or a .js/.mjs module exporting tools',
  ];
  return command
    .argument('<file>', "the plan: a JSON file, or '-' for standard input")
    .option(tools, toolsHelp)
    .option('--mcp <command>', MCP_HELP, collect)
    .option('--input <file>', 'a JSON object of †input values')
    .option('--state <file>', 'a JSON object of initial state')
    .option('--load-timeout <ms>', LOAD_TIMEOUT_HELP)
    .option('--limit <name=value>', LIMIT_HELP, collect)
    .option(
      '--no-check-types',
      'do not follow types through references (E_REF_TYPE, W_REF_TYPE, W_REF_OPTIONAL) nor into the state schema (E_STATE_TYPE, W_STATE_TYPE)',
    )
    .option('--strict', 'every warning is an error (its code kept, marked "(strict)"): exit 1')
    .addHelpText('after', options.help ?? EXIT_CODES_HELP);
}
