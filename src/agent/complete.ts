/** One assistant turn without the stream, for callers that only want the result. */
import { ModelProviderError } from '../errors.js';
import type { AssistantTurn, ModelProvider, ModelRequest } from './model.js';
import { DEFAULT_MAX_REPLY_BYTES, ReplyTooLargeError } from './providers/reply-bytes.js';

export interface CompleteOptions {
  /**
   * Most bytes (UTF-8) of the reply's text and tool-call arguments. Counted as the deltas
   * arrive: past it the stream is left (which cancels the request) and the turn fails with a
   * {@link ReplyTooLargeError}. A provider that hands over a whole turn at once is held to it too.
   * @default DEFAULT_MAX_REPLY_BYTES (1 MiB)
   */
  readonly maxReplyBytes?: number;
}

/**
 * Reads a provider's stream to its end and returns the turn it ends with.
 *
 * @throws {ModelProviderError} when the stream ends without a `done` event.
 * @throws {ReplyTooLargeError} (a ModelProviderError) when the reply passes `maxReplyBytes`.
 * @throws {TypeError} for a `maxReplyBytes` that is not a whole number >= 1.
 */
export async function complete(
  provider: ModelProvider,
  request: ModelRequest,
  options: CompleteOptions = {},
): Promise<AssistantTurn> {
  const maxBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new TypeError(`complete: maxReplyBytes must be a whole number >= 1, not ${String(maxBytes)}`);
  }
  let turn: AssistantTurn | undefined;
  let bytes = 0;
  const tooLarge = () => new ReplyTooLargeError(provider.name, maxBytes, 'reply');
  // Leaving the for-await (the throw) ends the provider's stream, which aborts its request.
  for await (const event of provider.stream(request)) {
    if (event.type === 'text-delta') bytes += Buffer.byteLength(event.text);
    else if (event.type === 'done') turn = event.turn;
    if (bytes > maxBytes) throw tooLarge();
  }
  if (!turn) {
    throw new ModelProviderError(`${provider.name}: the stream ended without a whole turn`, {
      provider: provider.name,
    });
  }
  if (replyBytes(turn) > maxBytes) throw tooLarge();
  return turn;
}

/** The bytes of a whole turn: its text and each tool call's arguments. */
function replyBytes(turn: AssistantTurn): number {
  let bytes = Buffer.byteLength(turn.message.content);
  for (const call of turn.message.toolCalls ?? []) {
    bytes += Buffer.byteLength(call.argumentsText ?? JSON.stringify(call.arguments));
  }
  return bytes;
}
