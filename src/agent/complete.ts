/** One assistant turn without the stream, for callers that only want the result. */
import { ModelProviderError } from '../errors.js';
import type { AssistantTurn, ModelProvider, ModelRequest } from './model.js';
import { checkMaxReplyBytes, ReplyBytes } from './providers/index.js';

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
  const bytes = new ReplyBytes(provider.name, checkMaxReplyBytes('complete', options.maxReplyBytes));
  let turn: AssistantTurn | undefined;
  // Leaving the for-await (the throw) ends the provider's stream, which aborts its request.
  for await (const event of provider.stream(request)) {
    bytes.add(event);
    if (event.type === 'done') turn = event.turn;
  }
  if (!turn) {
    throw new ModelProviderError(`${provider.name}: the stream ended without a whole turn`, {
      provider: provider.name,
    });
  }
  return turn;
}
