/**
 * withMcpServers, loaded when a command runs: the program defines every command's flags without
 * loading the MCP adapter, so `plan --help` and a mistyped flag load nothing of it.
 */
import type { CliIo } from '../io.js';
import type { McpFlags } from './mcp-servers.js';

/** Starts the command's --mcp servers, runs `body` with their tools, closes them (withMcpServers). */
export async function withServers<F extends McpFlags, T>(
  flags: F,
  io: CliIo,
  body: (flags: F) => Promise<T>,
): Promise<T> {
  const { withMcpServers } = await import('./mcp-servers.js');
  return withMcpServers(flags, io, body);
}
