/** The contract's request as a Messages API request body. */
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { Message, ModelRequest, ModelToolDefinition } from '../model.js';
import { objectSchema } from './object-schema.js';

export interface MessagesRequestOptions {
  readonly model: string;
  readonly maxTokens: number;
  /** Extra body fields; the fields this provider sets win. */
  readonly body: Readonly<Record<string, unknown>>;
}

export function toMessagesRequest(
  request: ModelRequest,
  options: MessagesRequestOptions,
): MessageCreateParamsStreaming {
  const { system, messages } = toAnthropicMessages(request.messages);
  const body: Record<string, unknown> = {
    ...options.body,
    model: options.model,
    max_tokens: options.maxTokens,
    messages,
    stream: true,
  };
  if (system !== undefined) body.system = system;
  if (request.tools.length > 0) body.tools = request.tools.map(toAnthropicTool);
  else delete body.tools;
  if (request.responseFormat) {
    // Structured outputs proper, not a forced tool: the answer stays text (as with OpenAI), and
    // the turn may still call the offered tools, which `tool_choice: {type:'tool'}` would forbid.
    const outputConfig = (body.output_config ?? {}) as Record<string, unknown>;
    body.output_config = {
      ...outputConfig,
      format: { type: 'json_schema', schema: objectSchema(request.responseFormat.schema) },
    };
  }
  return body as unknown as MessageCreateParamsStreaming;
}

/**
 * System messages go to the `system` parameter (joined by blank lines, wherever they were).
 * Tool results are `tool_result` blocks of a user message, and results that follow one
 * another (with any user text after them) are one user message, as the API requires: every
 * result of a turn's calls in the message right after it, results first.
 */
export function toAnthropicMessages(messages: readonly Message[]): {
  system?: string;
  messages: MessageParam[];
} {
  const system: string[] = [];
  const out: MessageParam[] = [];
  let results: ToolResultBlockParam[] = [];
  let texts: TextBlockParam[] = [];
  const flushUser = (): void => {
    if (results.length === 0 && texts.length === 0) return;
    const onlyText = results.length === 0 && texts.length === 1;
    out.push({ role: 'user', content: onlyText ? texts[0]!.text : [...results, ...texts] });
    results = [];
    texts = [];
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        texts.push({ type: 'text', text: message.content });
        break;
      case 'tool':
        results.push({
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: message.content,
          ...(message.isError ? { is_error: true } : {}),
        });
        break;
      case 'assistant': {
        flushUser();
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) {
          // The API rejects empty text; an empty turn says nothing, so it is left out.
          if (message.content !== '') out.push({ role: 'assistant', content: message.content });
          break;
        }
        const blocks: ContentBlockParam[] = [];
        if (message.content !== '') blocks.push({ type: 'text', text: message.content });
        for (const call of calls)
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
        out.push({ role: 'assistant', content: blocks });
        break;
      }
    }
  }
  flushUser();
  return { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages: out };
}

export function toAnthropicTool(tool: ModelToolDefinition): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: objectSchema(tool.inputSchema) as Tool['input_schema'],
  };
}
