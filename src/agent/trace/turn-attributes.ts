/**
 * What a model turn's `chat` span says, in the GenAI semantic conventions' terms: the provider
 * and model from the provider's name, the finish reason, the error type, and (only when the
 * tracing option records arguments or results) the messages in the conventions' JSON shape,
 * `{role, parts: [{type, ...}]}`.
 */
import type { AssistantTurn, Message } from '../model.js';

/** `openai:gpt-4o` → `{provider: 'openai', model: 'gpt-4o'}`; a name without `:` is the model's. */
export function modelOf(name: string): { provider: string; model: string } {
  const colon = name.indexOf(':');
  if (colon <= 0) return { provider: '_OTHER', model: name };
  return { provider: name.slice(0, colon), model: name.slice(colon + 1) };
}

/** The API's own finish reason, else the turn's stop reason in Chat Completions' words. */
export function finishReason(turn: AssistantTurn): string {
  const given = turn.response?.finishReason;
  if (given !== undefined) return given;
  switch (turn.stopReason) {
    case 'end':
      return 'stop';
    case 'max_tokens':
      return 'length';
    default:
      return turn.stopReason;
  }
}

/**
 * `error.type`: the HTTP status an API answered with (`429`), else the error's class name
 * (`ModelProviderError`, `ReplyTooLargeError`, `AbortError`), else `_OTHER`.
 */
export function errorType(error: unknown): string {
  if (error === null || typeof error !== 'object') return '_OTHER';
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') return String(status);
  const name = (error as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : '_OTHER';
}

type Part =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: string };

/** The request's messages for `gen_ai.input.messages`. */
export function inputMessages(messages: readonly Message[]): { role: string; parts: Part[] }[] {
  return messages.map((message) => {
    switch (message.role) {
      case 'assistant':
        return { role: 'assistant', parts: assistantParts(message.content, message.toolCalls) };
      case 'tool':
        return {
          role: 'tool',
          parts: [{ type: 'tool_call_response', id: message.toolCallId, response: message.content }],
        };
      default:
        return { role: message.role, parts: [{ type: 'text', content: message.content }] };
    }
  });
}

/** The reply for `gen_ai.output.messages`. */
export function outputMessages(
  turn: AssistantTurn,
): { role: 'assistant'; parts: Part[]; finish_reason: string }[] {
  const { content, toolCalls } = turn.message;
  return [
    { role: 'assistant', parts: assistantParts(content, toolCalls), finish_reason: finishReason(turn) },
  ];
}

function assistantParts(content: string, toolCalls: AssistantTurn['message']['toolCalls']): Part[] {
  const parts: Part[] = content === '' ? [] : [{ type: 'text', content }];
  for (const call of toolCalls ?? []) {
    parts.push({
      type: 'tool_call',
      id: call.id,
      name: call.name,
      arguments: call.argumentsText ?? call.arguments,
    });
  }
  return parts;
}
