/** One assistant turn without the stream, for callers that only want the result. */
import { ModelProviderError } from '../errors.js';
import type { AssistantTurn, ModelProvider, ModelRequest } from './model.js';
import {
  checkCountOption,
  checkMaxReplyBytes,
  DEFAULT_MAX_TOOL_CALLS_PER_TURN,
  ReplyBytes,
} from './providers/index.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

export interface CompleteOptions {
  /**
   * Most bytes (UTF-8) of the reply's text and tool-call arguments. Counted as the deltas
   * arrive: past it the stream is left (which cancels the request) and the turn fails with a
   * {@link ReplyTooLargeError}. A provider that hands over a whole turn at once is held to it too.
   * @default DEFAULT_MAX_REPLY_BYTES (1 MiB)
   */
  readonly maxReplyBytes?: number;
  /**
   * Most tool calls the reply may make: sent with the request (`maxToolCalls`, which the HTTP
   * providers stop reading at) and counted as the calls arrive; past it the turn fails with a
   * {@link TooManyToolCallsError}. A request's own `maxToolCalls` wins.
   * @default DEFAULT_MAX_TOOL_CALLS_PER_TURN (256)
   */
  readonly maxToolCallsPerTurn?: number;
  /**
   * Called with each piece of the reply's text as it arrives (after it was counted against
   * `maxReplyBytes`), so the caller can act on a reply before it ends: the plan loop starts
   * calls while the model still writes the rest. What it throws ends the turn.
   * @default none
   */
  readonly onTextDelta?: (text: string) => void;
}

/**
 * Reads a provider's stream to its end and returns the turn it ends with.
 *
 * @throws {ModelProviderError} when the stream ends without a `done` event.
 * @throws {ReplyTooLargeError} (a ModelProviderError) when the reply passes `maxReplyBytes`.
 * @throws {TooManyToolCallsError} (a ModelProviderError) when it makes more tool calls.
 * @throws {TypeError} for a `maxReplyBytes` or `maxToolCallsPerTurn` that is not a whole number >= 1.
 */
/** The two bounds have their own checks (whole numbers >= 1). */
const COMPLETE_OPTIONS: OptionSpec<CompleteOptions> = {
  maxReplyBytes: 'any',
  maxToolCallsPerTurn: 'any',
  onTextDelta: 'function',
};

export async function complete(
  provider: ModelProvider,
  request: ModelRequest,
  options: CompleteOptions = {},
): Promise<AssistantTurn> {
  checkOptions('complete', options, COMPLETE_OPTIONS);
  const maxToolCalls =
    request.maxToolCalls ??
    checkCountOption(
      'complete',
      'maxToolCallsPerTurn',
      options.maxToolCallsPerTurn,
      DEFAULT_MAX_TOOL_CALLS_PER_TURN,
    );
  const bytes = new ReplyBytes(
    provider.name,
    checkMaxReplyBytes('complete', options.maxReplyBytes),
    maxToolCalls,
  );
  let turn: AssistantTurn | undefined;
  // Leaving the for-await (the throw) ends the provider's stream, which aborts its request.
  for await (const event of provider.stream({ ...request, maxToolCalls })) {
    bytes.add(event);
    if (event.type === 'done') turn = event.turn;
    else if (event.type === 'text-delta') options.onTextDelta?.(event.text);
  }
  if (!turn) {
    throw new ModelProviderError(`${provider.name}: the stream ended without a whole turn`, {
      provider: provider.name,
    });
  }
  return turn;
}
