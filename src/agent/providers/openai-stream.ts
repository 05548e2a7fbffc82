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

/** The call whose pieces are arriving, and the chunk index it has. */
interface OpenCall {
  readonly index: number;
  readonly call: PartialCall;
}

/**
 * Yields text as it comes, each tool call as soon as its arguments are complete, then `done`.
 * Chat Completions streams a reply's calls one after another, each by its `index`: a call is
 * complete when a later index begins, or at `finish_reason` (or the stream's end after it).
 * A call yielded may already be running, so a stream that goes back to an earlier index (or
 * adds to a call after `finish_reason`) is refused, not merged: what ran would not be what the
 * model asked for. Usage arrives in a last chunk with no choices, after `finish_reason`, so the
 * turn ends when the stream does.
 *
 * @param maxToolCalls the most tool calls the reply may make: at the first chunk of the one past
 *   it (after yielding the call before it, whose arguments that chunk completes), reading stops
 *   (the caller's leaving the stream closes the connection).
 * @throws {ModelProviderError} when the stream ends before a `finish_reason`, a tool call has no
 *   name, or a tool call's pieces arrive after a later call began.
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
  let id: string | undefined;
  let model: string | undefined;
  const calls: ModelToolCall[] = [];
  let open: OpenCall | undefined;
  /** The highest index begun: pieces for it or one below it, once it is closed, are refused. */
  let lastIndex = -1;
  for await (const chunk of chunks) {
    if (typeof chunk.id === 'string' && chunk.id !== '') id ??= chunk.id;
    if (typeof chunk.model === 'string' && chunk.model !== '') model ??= chunk.model;
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
    const parts = delta.tool_calls ?? [];
    for (let position = 0; position < parts.length; position++) {
      const part = parts[position]!;
      const index = part.index ?? position;
      if (open?.index !== index) {
        if (index <= lastIndex) throw wentBack(provider, index, lastIndex);
        // A later call begins: the open one's arguments are whole, and it can start.
        if (open) {
          const call = closeCall(open, provider);
          calls.push(call);
          yield { type: 'tool-call', call };
        }
        // Counted as each call begins: argument-less calls cost the reply almost no bytes.
        if (calls.length === maxToolCalls) throw new TooManyToolCallsError(provider, maxToolCalls);
        open = { index, call: { argumentsText: '' } };
        lastIndex = index;
      }
      const call = open.call;
      if (part.id && !call.id) call.id = part.id;
      if (part.function?.name && !call.name) call.name = part.function.name;
      if (part.function?.arguments) call.argumentsText += part.function.arguments;
    }
    if (choice.finish_reason) {
      finish = choice.finish_reason;
      if (open) {
        const call = closeCall(open, provider);
        open = undefined;
        calls.push(call);
        yield { type: 'tool-call', call };
      }
    }
  }
  if (finish === null) {
    throw new ModelProviderError(`${provider}: the stream ended before the model finished its turn`, {
      provider,
    });
  }
  // A call begun after `finish_reason` (a server that sends its calls last) is whole at the end.
  if (open) {
    const call = closeCall(open, provider);
    calls.push(call);
    yield { type: 'tool-call', call };
  }
  const turn: AssistantTurn = {
    message: { role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) },
    stopReason: stopReason(finish, calls.length > 0),
    ...(usage ? { usage } : {}),
    response: {
      ...(id !== undefined && { id }),
      ...(model !== undefined && { model }),
      finishReason: finish,
    },
  };
  yield { type: 'done', turn };
}

/** A call whose arguments are whole. @throws {ModelProviderError} when it has no name. */
function closeCall({ index, call }: OpenCall, provider: string): ModelToolCall {
  if (!call.name) {
    throw new ModelProviderError(`${provider}: tool call ${index} in the stream has no name`, { provider });
  }
  return { id: call.id ?? `call_${index}`, name: call.name, ...parseToolArguments(call.argumentsText) };
}

function wentBack(provider: string, index: number, lastIndex: number): ModelProviderError {
  return new ModelProviderError(
    `${provider}: the stream went back to tool call ${index} after tool call ${lastIndex} began (or after finish_reason); ` +
      'a call runs as soon as its arguments are complete, so a reply must stream its calls one after another',
    { provider },
  );
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
