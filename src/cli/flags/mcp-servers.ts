/**
 * `--mcp "[name=]<command line>"` (repeatable): MCP servers started over stdio for the length of
 * one command. Their tools join those of --tools; the servers are closed (and their processes
 * ended) when the command ends, however it ends. A server's name (the one given before `=`, or
 * else its command line) is the group its tools share when `--rate` or `--tool-concurrency`
 * names it: one quota for all its tools together.
 */
import { isMcpServerError, type McpServerConnection } from '../../adapters/mcp-stdio.js';
import type { Tool } from '../../tools/tool.js';
import { CliInputError } from '../cli-input-error.js';
import { asMissingDependencyUsage } from './missing-dependency.js';
import type { CliIo } from '../io.js';
import { type QuotaFlags, quotaNames } from './quota-flags.js';

export interface McpFlags extends QuotaFlags {
  /** Command lines of MCP servers to start over stdio, each optionally named (`name=command line`). */
  readonly mcp?: readonly string[];
  /**
   * Believe the servers' annotations (readOnlyHint) in plan mode.
   * @default false
   */
  readonly trustMcpAnnotations?: boolean;
  /** Filled in by {@link withMcpServers}: the servers' tools, in --mcp order. */
  readonly mcpTools?: readonly Tool[];
}

/**
 * Starts every --mcp server, runs `body` with their tools in `flags.mcpTools`, and closes them
 * all when it ends.
 *
 * @throws {CliInputError} when a server cannot be started (one line, exit code 2), or two
 *   servers give a tool of the same name.
 */
export async function withMcpServers<F extends McpFlags, T>(
  flags: F,
  io: CliIo,
  body: (flags: F) => Promise<T>,
): Promise<T> {
  const lines = flags.mcp ?? [];
  if (lines.length === 0) return body(flags);
  const { connectMcpServer } = await import('../../adapters/mcp-stdio.js');
  const connections: McpServerConnection[] = [];
  const names: string[] = [];
  try {
    // One at a time: a failure names its server, and nothing is left starting behind it.
    for (const written of lines) {
      const { name, line } = namedServer(written);
      if (line.trim() === '')
        throw new CliInputError('--mcp needs a command line, e.g. --mcp "npx -y my-mcp-server"');
      if (name !== undefined && names.includes(name))
        throw new CliInputError(`two --mcp servers are named '${name}'; give each its own name`);
      try {
        const connection = await connectMcpServer(line, {
          env: io.env,
          trustAnnotations: flags.trustMcpAnnotations === true,
        });
        connections.push(connection);
        names.push(name ?? connection.name);
      } catch (error) {
        if (isMcpServerError(error)) throw new CliInputError(error.message);
        throw asMissingDependencyUsage(error, '--mcp');
      }
    }
    const tools: Tool[] = [];
    const from = new Map<string, string>();
    const limited = quotaNames(flags);
    for (const [k, connection] of connections.entries()) {
      const group = limited.has(names[k]!) ? names[k]! : undefined;
      for (const tool of connection.tools) {
        if (group !== undefined && limited.has(tool.name))
          throw new CliInputError(
            `--rate/--tool-concurrency name both the MCP server '${group}' and its tool '${tool.name}'; a server's quota holds for all its tools together: set one of the two`,
          );
        const other = from.get(tool.name);
        if (other !== undefined) {
          throw new CliInputError(
            `the tool '${tool.name}' is given by two MCP servers, \`${other}\` and \`${connection.name}\`; start one of them once, or leave one out`,
          );
        }
        from.set(tool.name, connection.name);
        // The server's quota: every tool of it in one group, named for the server.
        tools.push(group === undefined ? tool : { ...tool, quotaGroup: group });
      }
    }
    return await body({ ...flags, mcpTools: tools });
  } finally {
    await Promise.all(connections.map((c) => c.close()));
  }
}

/**
 * `files=npx -y server /tmp`: the name before `=` and the command line after it. A command line
 * whose first word is not a plain name followed by `=` has no name.
 */
export function namedServer(written: string): { name?: string; line: string } {
  const match = /^\s*([A-Za-z_][\w.-]*)=(?=\S)/.exec(written);
  return match === null ? { line: written } : { name: match[1]!, line: written.slice(match[0].length) };
}

/**
 * The tools of a tools file and of the --mcp servers together.
 * @throws {CliInputError} when both give a tool of the same name.
 */
export function joinTools(
  fileTools: readonly Tool[],
  toolsFile: string | undefined,
  mcpTools: readonly Tool[],
): Tool[] {
  // A name whose getter throws is left to ToolRegistry, which reports it as a problem.
  const names = new Set(fileTools.map(nameOf));
  const clash = mcpTools.find((t) => names.has(t.name));
  if (clash) {
    throw new CliInputError(
      `the tool '${clash.name}' is given by both --tools '${toolsFile}' and an --mcp server; rename the one in '${toolsFile}'`,
    );
  }
  return [...fileTools, ...mcpTools];
}

function nameOf(tool: Tool): unknown {
  try {
    return tool.name;
  } catch {
    return undefined;
  }
}
