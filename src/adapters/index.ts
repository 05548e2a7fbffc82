/**
 * planmode/adapters: tools you already have, as planmode Tools. Each adapter loads its SDK only
 * when called (the AI SDK for its schema helper, the MCP SDK to start a server), so importing
 * this entry point costs nothing. McpServerError comes from `planmode`, with the other errors.
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
  type McpServerCommand,
  type McpServerConnection,
} from './mcp-stdio.js';
export {
  fromOpenAIAgentsTools,
  type FromOpenAIAgentsToolsOptions,
  type OpenAIAgentsToolLike,
} from './openai-agents.js';
