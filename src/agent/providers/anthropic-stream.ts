/** A Messages API event stream read into the contract's events. */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { ModelProviderError } from '../../errors.js';
import type { AssistantTurn, ModelStreamEvent, ModelToolCall } from '../model.js';
import { isPlainObject, parseToolArguments } from './arguments.js';
import { DEFAULT_MAX_TOOL_CALLS_PER_TURN, TooManyToolCallsError } from './reply-count.js';

/** A `tool_use` block as its input arrives in `input_json_delta` pieces. */
interface PartialToolUse {
  readonly id: string;
  readonly name: string;
  /** The input in the start event: the whole input when no deltas follow. */
  readonly input: unknown;
  json: string;
}

/**
 * Yields text as it comes and each tool call when its block stops (its input is then whole, and
 * the call can start while the model writes the rest), then `done` at `message_stop`. A call
 * yielded may already be running, so input for a `tool_use` block after its stop is refused,
 * not merged. Thinking and server-tool blocks are not part of the contract and are skipped.
 *
 * @param maxToolCalls the most `tool_use` blocks the reply may have: at the start of the one
 *   past it, reading stops (the caller's leaving the stream closes the connection).
 * @throws {ModelProviderError} when the stream ends before `message_stop`, or a stopped
 *   `tool_use` block gets more input.
 * @throws {TooManyToolCallsError} (a ModelProviderError) past `maxToolCalls`.
 */
export async function* readMessagesStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  provider: string,
  maxToolCalls = DEFAULT_MAX_TOOL_CALLS_PER_TURN,
): AsyncGenerator<ModelStreamEvent> {
  let text = '';
  let stop: string | null = null;
  let inputTokens = 0;
  let outputTokens = 0;
  let stopped = false;
  let id: string | undefined;
  let model: string | undefined;
  const toolUses = new Map<number, PartialToolUse>();
  const calls: ModelToolCall[] = [];
  /** The indexes of the tool_use blocks that stopped: at most maxToolCalls of them. */
  const stoppedToolUses = new Set<number>();
  let toolUsesStarted = 0;
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        if (typeof event.message.id === 'string') id = event.message.id;
        if (typeof event.message.model === 'string') model = event.message.model;
        inputTokens = event.message.usage?.input_tokens ?? 0;
        outputTokens = event.message.usage?.output_tokens ?? 0;
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text' && block.text !== '') {
          text += block.text;
          yield { type: 'text-delta', text: block.text };
        } else if (block.type === 'tool_use') {
          // Counted as each block begins: argument-less calls cost the reply almost no bytes.
          if (toolUsesStarted++ === maxToolCalls) throw new TooManyToolCallsError(provider, maxToolCalls);
          toolUses.set(event.index, { id: block.id, name: block.name, input: block.input, json: '' });
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta' && delta.text !== '') {
          text += delta.text;
          yield { type: 'text-delta', text: delta.text };
        } else if (delta.type === 'input_json_delta') {
          const toolUse = toolUses.get(event.index);
          if (toolUse) toolUse.json += delta.partial_json;
          else if (stoppedToolUses.has(event.index)) throw inputAfterStop(provider, event.index);
        }
        break;
      }
      case 'content_block_stop': {
        const toolUse = toolUses.get(event.index);
        if (!toolUse) break;
        toolUses.delete(event.index);
        stoppedToolUses.add(event.index);
        const args =
          toolUse.json === '' && isPlainObject(toolUse.input)
            ? { arguments: toolUse.input }
            : parseToolArguments(toolUse.json);
        const call: ModelToolCall = { id: toolUse.id, name: toolUse.name, ...args };
        calls.push(call);
        yield { type: 'tool-call', call };
        break;
      }
      case 'message_delta':
        if (event.delta.stop_reason) stop = event.delta.stop_reason;
        // Cumulative counts; input_tokens is only there on some API versions.
        if (typeof event.usage?.output_tokens === 'number') outputTokens = event.usage.output_tokens;
        if (typeof event.usage?.input_tokens === 'number') inputTokens = event.usage.input_tokens;
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  if (!stopped) {
    throw new ModelProviderError(`${provider}: the stream ended before the model finished its turn`, {
      provider,
    });
  }
  const turn: AssistantTurn = {
    message: { role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) },
    stopReason: stopReason(stop),
    usage: { inputTokens, outputTokens },
    response: {
      ...(id !== undefined && { id }),
      ...(model !== undefined && { model }),
      ...(stop !== null && { finishReason: stop }),
    },
  };
  yield { type: 'done', turn };
}

function inputAfterStop(provider: string, index: number): ModelProviderError {
  return new ModelProviderError(
    `${provider}: the stream sent more input for tool_use block ${index} after it stopped; ` +
      'a call runs as soon as its block stops, so its input must be whole by then',
    { provider },
  );
}

function stopReason(stop: string | null): AssistantTurn['stopReason'] {
  switch (stop) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    default:
      return 'other';
  }
}
