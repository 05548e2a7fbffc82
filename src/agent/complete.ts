/** One assistant turn without the stream, for callers that only want the result. */
import { ModelProviderError } from '../errors.js';
import type { AssistantTurn, ModelProvider, ModelRequest } from './model.js';

/**
 * Reads a provider's stream to its end and returns the turn it ends with.
 *
 * @throws {ModelProviderError} when the stream ends without a `done` event.
 */
export async function complete(provider: ModelProvider, request: ModelRequest): Promise<AssistantTurn> {
  let turn: AssistantTurn | undefined;
  for await (const event of provider.stream(request)) if (event.type === 'done') turn = event.turn;
  if (!turn) {
    throw new ModelProviderError(`${provider.name}: the stream ended without a whole turn`, {
      provider: provider.name,
    });
  }
  return turn;
}
