/** A Chat Completions stream read into the contract's events. */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ModelProviderError } from '../../errors.js';
import type { AssistantTurn, ModelStreamEvent, ModelToolCall, ModelUsage } from '../model.js';
import { parseToolArguments } from './arguments.js';
import { DEFAULT_MAX_TOOL_CALLS_PER_TURN, TooManyToolCallsError } from './reply-count.js';

/** A tool call as its pieces arrive: id and name in the first delta, arguments in pieces. */
interface PartialCall {
  id?: string;
  name?: string;
  argumentsText: string;
}

/**
 * Yields text as it comes, then the tool calls (their arguments are only whole at the end),
 * then `done`. Usage arrives in a last chunk with no choices, after `finish_reason`, so the
 * turn ends when the stream does.
 *
 * @param maxToolCalls the most tool calls the reply may make: at the first chunk of the one past
 *   it, reading stops (the caller's leaving the stream closes the connection).
 * @throws {ModelProviderError} when the stream ends before a `finish_reason`, or a tool call has no name.
 * @throws {TooManyToolCallsError} (a ModelProviderError) past `maxToolCalls`.
 */
export async function* readChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  provider: string,
  maxToolCalls = DEFAULT_MAX_TOOL_CALLS_PER_TURN,
): AsyncGenerator<ModelStreamEvent> {
  let text = '';
  let finish: string | null = null;
  let usage: ModelUsage | undefined;
  const partial = new Map<number, PartialCall>();
  for await (const chunk of chunks) {
    if (chunk.usage) {
      usage = {
        inputTokens: chunk.usage.prompt_tokens ?? 0,
        outputTokens: chunk.usage.completion_tokens ?? 0,
      };
    }
    // vLLM sends the usage chunk with `choices: null`.
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    // A refusal (structured output the model will not write) is what it said, so it is text.
    for (const piece of [delta.content, delta.refusal]) {
      if (typeof piece === 'string' && piece !== '') {
        text += piece;
        yield { type: 'text-delta', text: piece };
      }
    }
    (delta.tool_calls ?? []).forEach((part, position) => {
      const index = part.index ?? position;
      let call = partial.get(index);
      if (!call) {
        // Counted as each call begins: argument-less calls cost the reply almost no bytes.
        if (partial.size === maxToolCalls) throw new TooManyToolCallsError(provider, maxToolCalls);
        partial.set(index, (call = { argumentsText: '' }));
      }
      if (part.id && !call.id) call.id = part.id;
      if (part.function?.name && !call.name) call.name = part.function.name;
      if (part.function?.arguments) call.argumentsText += part.function.arguments;
    });
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  if (finish === null) {
    throw new ModelProviderError(`${provider}: the stream ended before the model finished its turn`, {
      provider,
    });
  }
  const calls: ModelToolCall[] = [];
  for (const [index, call] of [...partial].sort(([a], [b]) => a - b)) {
    if (!call.name) {
      throw new ModelProviderError(`${provider}: tool call ${index} in the stream has no name`, { provider });
    }
    calls.push({
      id: call.id ?? `call_${index}`,
      name: call.name,
      ...parseToolArguments(call.argumentsText),
    });
  }
  for (const call of calls) yield { type: 'tool-call', call };
  const turn: AssistantTurn = {
    message: { role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) },
    stopReason: stopReason(finish, calls.length > 0),
    ...(usage ? { usage } : {}),
  };
  yield { type: 'done', turn };
}

/** Some compatible servers (older Ollama) say `stop` for a turn that calls tools. */
function stopReason(finish: string, hasCalls: boolean): AssistantTurn['stopReason'] {
  if (hasCalls && (finish === 'stop' || finish === 'tool_calls' || finish === 'function_call'))
    return 'tool_calls';
  switch (finish) {
    case 'stop':
      return 'end';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'max_tokens';
    default:
      return 'other';
  }
}
