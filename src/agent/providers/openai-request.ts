/** The contract's request as a Chat Completions request body. */
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Message, ModelRequest, ModelToolDefinition } from '../model.js';
import { objectSchema } from './object-schema.js';

export interface ChatRequestOptions {
  readonly model: string;
  /** Sends `strict: true` with a response format. */
  readonly strict: boolean;
  /** Extra body fields; the fields this provider sets win. */
  readonly body: Readonly<Record<string, unknown>>;
}

export function toChatRequest(
  request: ModelRequest,
  options: ChatRequestOptions,
): ChatCompletionCreateParamsStreaming {
  const body: Record<string, unknown> = {
    ...options.body,
    model: options.model,
    messages: request.messages.map(toChatMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  // An empty tools array is an error on OpenAI and on some compatible servers.
  if (request.tools.length > 0) body.tools = request.tools.map(toChatTool);
  else delete body.tools;
  if (request.responseFormat) {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: request.responseFormat.name,
        schema: objectSchema(request.responseFormat.schema),
        ...(options.strict ? { strict: true } : {}),
      },
    };
  }
  return body as unknown as ChatCompletionCreateParamsStreaming;
}

export function toChatMessage(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // OpenAI's own turns with tool calls and no text have null content.
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          // The parsed arguments, not argumentsText: servers that parse history (vLLM's chat
          // templates) reject text that is not JSON; the tool result says what was wrong.
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

export function toChatTool(tool: ModelToolDefinition): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: objectSchema(tool.inputSchema) },
  };
}
