/**
 * `plan serve`'s arguments, options and help, kept apart from serve.ts so that main.ts loads
 * the server (and what it imports) only when the command runs.
 */
import type { Command } from 'commander';
import { collect } from '../flags/collect.js';
import { withServers } from '../flags/with-servers.js';
import { LIMIT_HELP, LOAD_TIMEOUT_HELP, MCP_HELP } from '../help-texts.js';
import type { CliIo } from '../io.js';
import type { ServeFlags } from './serve.js';

export const SERVE_HELP = `
The first line on stdout is "listening on http://HOST:PORT" (--port 0 picks a free port); the
approval page is at that address. The JSON API (runs, approvals, agents, event streams) is
described in docs/serve.md.

A token (--token, or the PLANMODE_TOKEN environment variable) is required on a host that is not
loopback: every /api/ request must then carry "Authorization: Bearer <token>"; open the page as
http://HOST:PORT/#token=<token>.

Exit codes:
  0   stopped by Ctrl-C or SIGTERM (runs still going are cancelled)
  2   bad usage: a tools file that is no module, a bad flag, a host beyond loopback without a
      token, an address already in use
  70  an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)`;

/** Adds `plan serve` to the program. */
export function defineServeCommand(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
): Command {
  return program
    .command('serve')
    .argument('<tools>', 'tools to run: a .js/.mjs ES module exporting tools with execute functions')
    .description(
      'an HTTP server on loopback: run plans over a JSON API, approve them (and calls that need approval) on a web page, drive agents in plan mode',
    )
    .option(
      '--host <address>',
      'the address to listen on (default: 127.0.0.1); beyond loopback it needs --token',
    )
    .option('--port <n>', 'the port; 0 picks a free one (default: 0)')
    .option('--token <token>', 'the bearer token every /api/ request must carry (default: $PLANMODE_TOKEN)')
    .option(
      '--model <provider:model>',
      'the model of POST /api/agents: openai:<model>, anthropic:<model> or scripted:<turns.json>',
    )
    .option('--base-url <url>', "with --model: the model API's base URL (an OpenAI-compatible server)")
    .option('--plans-dir <dir>', "folder of the agents' plan files (default: plans)")
    .option('--max-body-bytes <n>', 'most bytes of a request body; a longer one gets 413 (default: 1048576)')
    .option('--load-timeout <ms>', LOAD_TIMEOUT_HELP)
    .option('--limit <name=value>', LIMIT_HELP, collect)
    .option('--mcp <command>', MCP_HELP, collect)
    .addHelpText('after', SERVE_HELP)
    .action(async (tools: string, flags: ServeFlags) => {
      const { serveCommand } = await import('./serve.js');
      setExitCode(await withServers(flags, io, (f) => serveCommand(tools, f, io)));
    });
}
