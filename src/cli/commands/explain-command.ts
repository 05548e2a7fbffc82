/**
 * `plan explain`'s flags, defined without loading its code (explain.ts, the compiler and the
 * graph queries), which the action loads when the command runs.
 */
import type { Command } from 'commander';
import { withServers } from '../flags/with-servers.js';
import type { CliIo } from '../io.js';
import type { ExplainFlags } from './explain.js';

/**
 * Adds the command's own argument, options and action to `command` (which has the flags every
 * plan command shares): kept here so that main.ts stays a list of commands.
 */
export function defineExplainCommand(
  command: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
): Command {
  return command
    .argument('<call-id>', 'the call: its _id, or its 0-based index when it has none')
    .description(
      'why a call waits (its dependencies, the longest chain to it), what its failure or skip would block, and which parts of the plan are independent',
    )
    .option('--max <n>', 'most ids in any one list of the answer (default: 50)')
    .option(
      '--json',
      'print {"call", "tool", "index", "waitsFor", "longestChain", "blocks", "independent"} to stdout',
    )
    .action(async (file: string, callId: string, flags: ExplainFlags) => {
      const { explainCommand } = await import('./explain.js');
      setExitCode(await withServers(flags, io, (f) => explainCommand(file, callId, f, io)));
    });
}
