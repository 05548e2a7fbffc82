/**
 * An MCP client's tools as planmode Tools: `tools/list` (every page) gives the definitions,
 * `tools/call` is their `execute`.
 *
 * Results: `isError: true` is a failure whose message is the result's text; otherwise the
 * output is `structuredContent` when the server sent it, else the text of the content (its text
 * items joined by newlines), else the content array itself (images, resources). Text is not
 * JSON-parsed unless `parseJson` says so: a tool that promises structure says so with an
 * `outputSchema` and sends `structuredContent`.
 *
 * A result that looks like a branch value (`{"†branch": k, "value": ...}`) is data, unless the
 * server declares the tool's `_meta` `"planmode/branchJson": true`.
 *
 * Annotations are claims of the server's: the tools come out marked `annotationsTrusted: false`
 * unless `trustAnnotations` says otherwise, so that plan mode does not take a server's word that
 * a tool only reads.
 */
import type { JsonSchema, Tool, ToolAnnotations, ToolContext } from '../tools/tool.js';
import { describeValue } from '../language/describe-value.js';
import { quotaProblems, type RateLimit } from '../tools/quota.js';
import { optionKeys, rejectUnknownOptions } from '../language/option-keys.js';

/** A tool as `tools/list` describes it (the fields planmode uses). */
export interface McpToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: { readonly [key: string]: unknown };
  readonly outputSchema?: { readonly [key: string]: unknown };
  readonly annotations?: ToolAnnotations & { readonly [key: string]: unknown };
  /** `{"planmode/branchJson": true}` declares the tool's `branchJson` (see {@link BRANCH_JSON_META}). */
  readonly _meta?: { readonly [key: string]: unknown };
}

/**
 * The `_meta` key by which a server declares that a tool chooses `||` alternatives with the JSON
 * form of a branch value (`{"†branch": k, "value": ...}` as its structuredContent, or as its
 * text with `parseJson`): the tool gets `branchJson: true`. Without it such a result is data.
 */
export const BRANCH_JSON_META = 'planmode/branchJson';

/** What a `tools/call` answers (the fields planmode uses). */
export interface McpCallToolResult {
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  /** The result of protocol version 2024-10-07. */
  readonly toolResult?: unknown;
}

/**
 * The part of the MCP SDK's `Client` (`@modelcontextprotocol/sdk/client/index.js`) this adapter
 * uses; a connected `Client` is one.
 */
export interface McpClientLike {
  listTools(
    params?: { cursor?: string },
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<{ tools: readonly McpToolDefinition[]; nextCursor?: string | undefined }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<McpCallToolResult | { [key: string]: unknown }>;
  getServerVersion?(): { name: string; version?: string } | undefined;
}

export interface FromMcpClientOptions {
  /**
   * Believe the server's annotations (`readOnlyHint` above all). Without it the tools are marked
   * `annotationsTrusted: false`: plan mode treats them as mutating unless a `readOnly` allowlist
   * names them.
   * @default false
   */
  readonly trustAnnotations?: boolean;
  /**
   * The server's name in error messages.
   * @default the name the server gave at initialization, else 'the MCP server'
   */
  readonly server?: string;
  /**
   * A prefix for every tool name (`fs_` makes `read_file` `fs_read_file`), to keep the tools of
   * two servers apart. The server is still called with its own names.
   * @default ''
   */
  readonly prefix?: string;
  /**
   * JSON-parse a text result (no `structuredContent`) when it is valid JSON; it stays text when not.
   * @default false
   */
  readonly parseJson?: boolean;
  /**
   * The MCP request timeout of each call in ms (the SDK's own default is 60 000). planmode's
   * `timeoutMs` and the run's timeout apply too: the call's abort signal is passed on.
   * @default the SDK's default
   */
  readonly requestTimeoutMs?: number;
  /**
   * Why the connection closed, when it did: added to the message of a call that was running.
   * `connectMcpServer` fills it in (the server exited, wrote garbage).
   * @default undefined
   */
  readonly closedReason?: () => string | undefined;
  /**
   * Passed to `tools/list`.
   * @default undefined
   */
  readonly signal?: AbortSignal;
  /**
   * Most calls to this server's tools running at once, all its tools together (their
   * `quotaGroup` is the server's name; see docs/quotas.md).
   * @default no bound of its own
   */
  readonly concurrency?: number;
  /**
   * At most `limit` calls to this server's tools start in any `intervalMs`, all its tools together.
   * @default no rate limit of its own
   */
  readonly rateLimit?: RateLimit;
}

/** Most pages of `tools/list` read: a server whose cursors never end is a broken one. */
const MAX_PAGES = 1000;
/** The JSON-RPC code the SDK gives every pending request when the connection closes. */
const CONNECTION_CLOSED = -32000;

/**
 * Lists the client's tools (following `nextCursor` to the last page) and makes each a planmode
 * Tool whose `execute` calls it.
 *
 * @throws {TypeError} for a bad client or option, or a server that lists a tool without a name
 *   or the same name twice; what `listTools` throws, as is.
 */
export async function fromMcpClient(
  client: McpClientLike,
  options: FromMcpClientOptions = {},
): Promise<Tool[]> {
  if (
    client === null ||
    typeof client !== 'object' ||
    typeof client.listTools !== 'function' ||
    typeof client.callTool !== 'function'
  ) {
    throw new TypeError(
      `fromMcpClient: client must be a connected MCP Client (with listTools and callTool), not ${describeValue(client)}`,
    );
  }
  checkOptions(options);
  const { trustAnnotations = false, prefix = '', parseJson = false, requestTimeoutMs } = options;
  const { concurrency, rateLimit } = options;
  const quotaProblem = quotaProblems(concurrency, rateLimit)[0];
  if (quotaProblem !== undefined) throw new TypeError(`fromMcpClient: ${quotaProblem}`);
  const server = options.server ?? serverName(client) ?? 'the MCP server';
  const definitions: McpToolDefinition[] = [];
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) {
      throw new TypeError(`fromMcpClient: ${server} listed more than ${MAX_PAGES} pages of tools`);
    }
    const listed = await client.listTools(cursor === undefined ? undefined : { cursor }, {
      ...(options.signal && { signal: options.signal }),
    });
    if (!listed || !Array.isArray(listed.tools)) {
      throw new TypeError(`fromMcpClient: ${server} answered tools/list without a tools array`);
    }
    definitions.push(...listed.tools);
    cursor =
      typeof listed.nextCursor === 'string' && listed.nextCursor !== '' ? listed.nextCursor : undefined;
    if (cursor === undefined) break;
  }

  const seen = new Set<string>();
  return definitions.map((definition, index) => {
    const mcpName = definition?.name;
    if (typeof mcpName !== 'string' || mcpName === '') {
      throw new TypeError(`fromMcpClient: ${server} listed tools[${index}] without a name`);
    }
    if (seen.has(mcpName)) throw new TypeError(`fromMcpClient: ${server} listed the tool '${mcpName}' twice`);
    seen.add(mcpName);
    const name = `${prefix}${mcpName}`;
    const execute = async (args: Record<string, unknown>, context: ToolContext): Promise<unknown> => {
      let result: McpCallToolResult;
      try {
        result = (await client.callTool({ name: mcpName, arguments: args }, undefined, {
          signal: context.abortSignal,
          ...(requestTimeoutMs !== undefined && { timeout: requestTimeoutMs }),
        })) as McpCallToolResult;
      } catch (error) {
        throw callError(error, server, mcpName, options.closedReason);
      }
      return readResult(result, { server, tool: mcpName, parseJson });
    };
    const description = definition.description ?? definition.title ?? definition.annotations?.title;
    const tool: Tool = {
      name,
      ...(description !== undefined && { description }),
      ...(definition.inputSchema !== undefined && { inputSchema: definition.inputSchema as JsonSchema }),
      ...(definition.outputSchema !== undefined && { outputSchema: definition.outputSchema as JsonSchema }),
      ...(definition.annotations !== undefined && { annotations: definition.annotations }),
      ...(!trustAnnotations && { annotationsTrusted: false }),
      ...(declaresBranchJson(definition) && { branchJson: true }),
      ...(concurrency !== undefined && { concurrency }),
      ...(rateLimit !== undefined && { rateLimit }),
      ...((concurrency !== undefined || rateLimit !== undefined) && { quotaGroup: server }),
      execute,
    };
    return tool;
  });
}

const FROM_MCP_CLIENT_OPTIONS = optionKeys<FromMcpClientOptions>({
  trustAnnotations: true,
  server: true,
  prefix: true,
  parseJson: true,
  requestTimeoutMs: true,
  closedReason: true,
  signal: true,
  concurrency: true,
  rateLimit: true,
});

function checkOptions(options: FromMcpClientOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`fromMcpClient: options must be an object, not ${describeValue(options)}`);
  }
  rejectUnknownOptions('fromMcpClient', options, FROM_MCP_CLIENT_OPTIONS);
  for (const key of ['trustAnnotations', 'parseJson'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      throw new TypeError(`fromMcpClient: ${key} must be a boolean, not ${describeValue(options[key])}`);
    }
  }
  for (const key of ['server', 'prefix'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string') {
      throw new TypeError(`fromMcpClient: ${key} must be a string, not ${describeValue(options[key])}`);
    }
  }
  const timeout = options.requestTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)) {
    throw new TypeError(
      `fromMcpClient: requestTimeoutMs must be a number > 0, not ${describeValue(timeout)}`,
    );
  }
  if (options.closedReason !== undefined && typeof options.closedReason !== 'function') {
    throw new TypeError(
      `fromMcpClient: closedReason must be a function, not ${describeValue(options.closedReason)}`,
    );
  }
}

/** Whether the server's definition declares `"_meta": {"planmode/branchJson": true}`. */
function declaresBranchJson(definition: McpToolDefinition): boolean {
  const meta: unknown = definition._meta;
  return (
    meta !== null && typeof meta === 'object' && (meta as Record<string, unknown>)[BRANCH_JSON_META] === true
  );
}

function serverName(client: McpClientLike): string | undefined {
  try {
    const name = client.getServerVersion?.()?.name;
    return typeof name === 'string' && name !== '' ? `MCP server '${name}'` : undefined;
  } catch {
    return undefined;
  }
}

/** An error `tools/call` failed with, said so a person can act on it. */
function callError(
  error: unknown,
  server: string,
  tool: string,
  closedReason: (() => string | undefined) | undefined,
): Error {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === CONNECTION_CLOSED) {
    const reason = closedReason?.();
    return new Error(
      `${server} closed the connection while '${tool}' was running${reason ? ` (${reason})` : ''}`,
      { cause: error },
    );
  }
  if (error instanceof Error) return error;
  return new Error(String(error));
}

function readResult(
  result: McpCallToolResult,
  where: { readonly server: string; readonly tool: string; readonly parseJson: boolean },
): unknown {
  if (result === null || typeof result !== 'object') {
    throw new Error(
      `${where.server} answered '${where.tool}' with ${describeValue(result)}, not a tool result`,
    );
  }
  if ('toolResult' in result && !('content' in result)) return result.toolResult;
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content.filter((item) => item?.type === 'text' && typeof item.text === 'string');
  const text = texts.map((item) => item.text).join('\n');
  if (result.isError === true) {
    throw new Error(text !== '' ? text : `'${where.tool}' failed (the server gave no message)`);
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (texts.length === 0 && content.length > 0) return content;
  if (where.parseJson) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
