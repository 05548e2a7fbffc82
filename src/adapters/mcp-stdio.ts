/**
 * An MCP server started as a child process and spoken to over stdio, with its tools adapted.
 *
 * What can go wrong is said in one line: a command that does not exist, a server that exits
 * before the handshake or writes something that is not MCP to stdout, one that does not answer
 * in time. Once connected, a server that exits or writes garbage closes the connection: every
 * call in flight fails at once, with the reason, instead of waiting forever.
 */
import { isMcpServerError, McpServerError } from '../errors.js';
import { importOptional } from '../optional-dependencies.js';
import type { Tool } from '../tools/tool.js';
import { describeValue } from '../language/describe-value.js';
import { type FromMcpClientOptions, fromMcpClient, type McpClientLike } from './mcp.js';
import { joinCommandLine, splitCommandLine } from './shell-words.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

export { isMcpServerError, McpServerError } from '../errors.js';

/** The program to run: a command line (split like a shell would, but run without one), or its words. */
export type McpServerCommand = string | { readonly command: string; readonly args?: readonly string[] };

export interface ConnectMcpServerOptions extends Pick<
  FromMcpClientOptions,
  'trustAnnotations' | 'prefix' | 'parseJson' | 'requestTimeoutMs'
> {
  /**
   * The environment of the server process.
   * @default process.env
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The working directory of the server process.
   * @default process.cwd()
   */
  readonly cwd?: string;
  /**
   * Time for the server to start, answer `initialize` and list its tools, in ms.
   * @default 30_000
   */
  readonly startTimeoutMs?: number;
  /**
   * Receives what the server writes to stderr. The last lines are kept for error messages
   * either way; without this they are not shown.
   * @default undefined
   */
  readonly onStderr?: (text: string) => void;
}

export interface McpServerConnection {
  /** The command line, for messages. */
  readonly name: string;
  /** The server's tools as planmode Tools. */
  readonly tools: readonly Tool[];
  /**
   * The connected MCP SDK `Client`, typed by the part planmode uses so that these declarations
   * type-check without the MCP SDK installed (`as Client` gives the rest).
   */
  readonly client: McpClientLike;
  /** The server's process id (null once it has exited). */
  readonly pid: number | null;
  /** Why the connection closed, or undefined while it is open. */
  readonly closedReason: string | undefined;
  /** Closes the connection and ends the process (stdin closed, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 30_000;
const STDERR_TAIL = 4096;

/**
 * Starts an MCP server over stdio, initializes it and lists its tools.
 *
 * @throws {McpServerError} when it cannot be started, exits, writes something that is not MCP
 *   or does not answer within `startTimeoutMs`; the process is ended first.
 * @throws {TypeError} for a bad option.
 * @throws {MissingDependencyError} when `@modelcontextprotocol/sdk` is not installed.
 */
/** The timeouts have their own checks (numbers > 0). */
const CONNECT_MCP_SERVER_OPTIONS: OptionSpec<ConnectMcpServerOptions> = {
  env: 'object',
  cwd: 'string',
  startTimeoutMs: 'any',
  onStderr: 'function',
  trustAnnotations: 'boolean',
  prefix: 'string',
  parseJson: 'boolean',
  requestTimeoutMs: 'any',
};

export async function connectMcpServer(
  server: McpServerCommand,
  options: ConnectMcpServerOptions = {},
): Promise<McpServerConnection> {
  const { command, args, name } = readCommand(server);
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`connectMcpServer: options must be an object, not ${describeValue(options)}`);
  }
  checkOptions('connectMcpServer', options, CONNECT_MCP_SERVER_OPTIONS);
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  if (!(typeof startTimeoutMs === 'number' && Number.isFinite(startTimeoutMs) && startTimeoutMs > 0)) {
    throw new TypeError(
      `connectMcpServer: startTimeoutMs must be a number > 0, not ${describeValue(startTimeoutMs)}`,
    );
  }
  // Loaded on use: the SDK is needed only by those who start servers.
  const [{ Client }, { StdioClientTransport }] = await importOptional(
    '@modelcontextprotocol/sdk',
    'connectMcpServer',
    () =>
      Promise.all([
        import('@modelcontextprotocol/sdk/client/index.js'),
        import('@modelcontextprotocol/sdk/client/stdio.js'),
      ]),
  );

  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env ?? process.env)) {
    if (value !== undefined) env[key] = value;
  }
  const transport = new StdioClientTransport({
    command,
    args: [...args],
    env,
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    stderr: 'pipe',
  });
  let stderrTail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
    options.onStderr?.(text);
  });

  let closedReason: string | undefined;
  let exit: string | undefined;
  let failStart: ((error: McpServerError) => void) | undefined;
  const lastStderrLine = (): string | undefined => {
    const lines = stderrTail
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    const last = lines[lines.length - 1];
    return last === undefined ? undefined : last.length > 200 ? `${last.slice(0, 200)}…` : last;
  };
  const exitText = (): string => {
    const said = lastStderrLine();
    return `${exit ?? 'exited'}${said ? `; its last words on stderr: ${said}` : ''}`;
  };

  const client = new Client({ name: 'planmode', version: '1' }, { capabilities: {} });
  client.onerror = (error: Error) => {
    if (!isNotMcp(error)) return;
    // A server that writes anything but MCP on stdout cannot be trusted to answer the rest.
    closedReason ??= `it wrote something that is not an MCP message to stdout (${oneLine(error.message)})`;
    failStart?.(new McpServerError(name, `MCP server \`${name}\` ${closedReason}`, { cause: error }));
    void client.close().catch(() => undefined);
  };
  client.onclose = () => {
    closedReason ??= `it ${exitText()}`;
    failStart?.(new McpServerError(name, `MCP server \`${name}\` ${closedReason} before it was ready`));
  };

  const close = async (): Promise<void> => {
    closedReason ??= 'the connection was closed';
    await client.close().catch(() => undefined);
  };

  const started = new Promise<never>((_, reject) => {
    failStart = reject;
  });
  started.catch(() => undefined);
  const timer = setTimeout(() => {
    failStart?.(
      new McpServerError(
        name,
        `MCP server \`${name}\` did not answer within ${startTimeoutMs} ms of starting${stderrNote(lastStderrLine())}`,
      ),
    );
  }, startTimeoutMs);
  try {
    const connect = client.connect(transport, { timeout: startTimeoutMs });
    // The exit status is the best clue to a crash. The SDK does not expose it, but it has
    // spawned the process by now (synchronously, in connect): listen to the process itself.
    const child = (transport as unknown as { _process?: NodeJS.EventEmitter })._process;
    child?.once('exit', (code: number | null, signal: string | null) => {
      exit = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    });
    await Promise.race([connect, started]);
    const tools = await Promise.race([
      fromMcpClient(client, {
        server: `MCP server \`${name}\``,
        closedReason: () => closedReason,
        ...pick(options),
      }),
      started,
    ]);
    failStart = undefined;
    return {
      name,
      tools,
      client,
      get pid() {
        return transport.pid;
      },
      get closedReason() {
        return closedReason;
      },
      close,
    };
  } catch (error) {
    failStart = undefined;
    await close();
    throw startError(error, name, command, lastStderrLine());
  } finally {
    clearTimeout(timer);
  }
}

function readCommand(server: McpServerCommand): { command: string; args: readonly string[]; name: string } {
  if (typeof server === 'string') {
    let words: string[];
    try {
      words = splitCommandLine(server);
    } catch (error) {
      throw new McpServerError(server, `MCP server command line \`${server}\`: ${(error as Error).message}`);
    }
    if (words.length === 0) throw new McpServerError(server, 'the MCP server command line is empty');
    return { command: words[0]!, args: words.slice(1), name: server.trim() };
  }
  if (
    server === null ||
    typeof server !== 'object' ||
    typeof server.command !== 'string' ||
    server.command === ''
  ) {
    throw new TypeError(
      `connectMcpServer: the server must be a command line or {command, args}, not ${describeValue(server)}`,
    );
  }
  const args = server.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) {
    throw new TypeError('connectMcpServer: args must be an array of strings');
  }
  return { command: server.command, args, name: joinCommandLine([server.command, ...args]) };
}

function pick(options: ConnectMcpServerOptions): FromMcpClientOptions {
  return {
    ...(options.trustAnnotations !== undefined && { trustAnnotations: options.trustAnnotations }),
    ...(options.prefix !== undefined && { prefix: options.prefix }),
    ...(options.parseJson !== undefined && { parseJson: options.parseJson }),
    ...(options.requestTimeoutMs !== undefined && { requestTimeoutMs: options.requestTimeoutMs }),
  };
}

/** Not JSON, or JSON that is not JSON-RPC: what the SDK's read buffer rejects. */
function isNotMcp(error: Error): boolean {
  return (
    error instanceof SyntaxError ||
    error.name === 'ZodError' ||
    error.name === '$ZodError' ||
    /Unknown message type/.test(error.message)
  );
}

function startError(error: unknown, name: string, command: string, stderr: string | undefined): Error {
  if (isMcpServerError(error) || error instanceof TypeError) return error as Error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') {
    return new McpServerError(
      name,
      `cannot start MCP server \`${name}\`: the command '${command}' was not found`,
      {
        cause: error,
      },
    );
  }
  if (code === 'EACCES') {
    return new McpServerError(
      name,
      `cannot start MCP server \`${name}\`: '${command}' is not executable (permission denied)`,
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new McpServerError(
    name,
    `MCP server \`${name}\` failed to start: ${oneLine(message)}${stderrNote(stderr)}`,
    { cause: error },
  );
}

function stderrNote(line: string | undefined): string {
  return line ? `; its last words on stderr: ${line}` : '';
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
