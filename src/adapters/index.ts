/**
 * planmode/adapters: tools you already have, as planmode Tools. Each adapter loads its SDK only
 * when called (the AI SDK for its schema helper, the MCP SDK to start a server), so importing
 * this entry point costs nothing.
 */
export {
  type AiSdkExecutionOptions,
  type AiSdkToolLike,
  fromAiSdkTools,
  type FromAiSdkToolsOptions,
} from './ai-sdk.js';
export {
  type FromMcpClientOptions,
  fromMcpClient,
  type McpCallToolResult,
  type McpClientLike,
  type McpToolDefinition,
} from './mcp.js';
export {
  type ConnectMcpServerOptions,
  connectMcpServer,
  isMcpServerError,
  type McpServerCommand,
  type McpServerConnection,
  McpServerError,
} from './mcp-stdio.js';
export {
  fromOpenAIAgentsTools,
  type FromOpenAIAgentsToolsOptions,
  type OpenAIAgentsToolLike,
} from './openai-agents.js';
export { joinCommandLine, splitCommandLine } from './shell-words.js';
