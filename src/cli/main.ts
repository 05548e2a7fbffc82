/**
 * The `plan` command. `main` returns the exit code instead of exiting, so tests run it
 * in-process; bin/plan.js is the only place that calls process.exit.
 */
import { Command, CommanderError, Option } from 'commander';
import { isToolDefinitionError, isToolsFileError } from '../errors.js';
import { CliInputError } from './cli-input-error.js';
import { GRAPH_FORMATS, type GraphFlags, graphCommand } from './commands/graph.js';
import { type ValidateFlags, validateCommand } from './commands/validate.js';
import { ExitCode } from './exit-codes.js';
import { formatCliError, oneLine, shouldUseColor } from './format.js';
import type { CliIo } from './io.js';
import { packageVersion } from './version.js';

const EXIT_CODES_HELP = `
Exit codes:
  0  the plan is valid (warnings allowed) and the command did its job
  1  the plan has errors (diagnostics on stderr, or in the --json object)
  2  bad usage, or a plan, tools, input or state file that cannot be used`;

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
    stdin: io.stdin ?? { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() },
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
    .addHelpText('after', EXIT_CODES_HELP);

  common(program.command('validate'))
    .description('check a plan and print every diagnostic (stderr), or one JSON object (stdout)')
    .option('--json', 'print {"ok", "mode", "calls", "edges", "order", "diagnostics"} to stdout')
    .action(async (file: string, flags: ValidateFlags) =>
      setExitCode(await validateCommand(file, flags, io)),
    );

  common(program.command('graph'))
    .description('print the dependency graph of a valid plan to stdout')
    .addOption(new Option('--format <format>', 'graph format (default: mermaid)').choices(GRAPH_FORMATS))
    .option('--json', 'shorthand for --format json')
    .action(async (file: string, flags: GraphFlags) => setExitCode(await graphCommand(file, flags, io)));

  return program;
}

function common(command: Command): Command {
  return command
    .argument('<file>', "the plan: a JSON file, or '-' for standard input")
    .option('--tools <file>', 'tools: a .json manifest {"tools": [...]} or a .js/.mjs module exporting tools')
    .option('--input <file>', 'a JSON object of †input values')
    .option('--state <file>', 'a JSON object of initial state')
    .addHelpText('after', EXIT_CODES_HELP);
}

function reportFailure(e: unknown, io: CliIo): number {
  if (e instanceof CommanderError) {
    // Commander has printed its message (or the help) already. `plan` alone shows the help
    // with exit code 1: that is a usage error too.
    return e.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  }
  const color = shouldUseColor(io.stderr, io.env);
  if (e instanceof CliInputError || isToolsFileError(e) || isToolDefinitionError(e)) {
    io.stderr.write(formatCliError((e as Error).message, { color }));
    return ExitCode.USAGE;
  }
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  io.stderr.write(
    `plan: internal error: ${oneLine(message)} (this is a bug in planmode; set PLAN_DEBUG=1 for the stack)\n`,
  );
  if (io.env.PLAN_DEBUG && e instanceof Error && e.stack) io.stderr.write(`${e.stack}\n`);
  return ExitCode.INTERNAL;
}
