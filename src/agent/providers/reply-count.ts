/**
 * The bounds on how much a conversation holds by count, which its bytes alone do not bound: a
 * model that sends tool calls without arguments spends almost no reply bytes per call, yet each
 * call is an object, a tool result and a message in every later request. Tool calls per turn
 * are counted as the reply streams in (the providers stop reading at the one past the bound);
 * the conversation's bytes are counted as messages are added, before the next request.
 */
import { ModelProviderError } from '../../errors.js';

/**
 * The most tool calls one reply may make: 256, far more than a model calls at once (a few, a
 * few dozen in a wide fan-out), and few enough that answering them all is an ordinary turn.
 */
export const DEFAULT_MAX_TOOL_CALLS_PER_TURN = 256;

/**
 * The most bytes (UTF-8) a conversation may hold before the model is asked again: 16 MiB, about
 * four million tokens, beyond any model's context window, so a request this large could only
 * fail at the API after being built and sent.
 */
export const DEFAULT_MAX_CONVERSATION_BYTES = 16 * 1_048_576;

/**
 * A reply with more tool calls than its bound: reading stopped at the one past it. No call past
 * the bound runs; calls before it whose arguments were already complete may have run (the agent
 * starts each call as it arrives), and the agent reports which (a `turn-failed` event).
 */
export class TooManyToolCallsError extends ModelProviderError {
  override name = 'TooManyToolCallsError';
  /** The bound that was passed. */
  readonly maxToolCalls: number;

  constructor(provider: string, maxToolCalls: number) {
    super(
      `${provider}: the reply makes more than ${maxToolCalls} tool calls (maxToolCallsPerTurn): it was cut there, and no call past the bound runs`,
      { provider },
    );
    this.maxToolCalls = maxToolCalls;
  }
}

/** A conversation over its bound: the model was not asked again. */
export class ConversationTooLargeError extends ModelProviderError {
  override name = 'ConversationTooLargeError';
  /** The bound that was passed, in bytes. */
  readonly maxBytes: number;

  constructor(provider: string, maxBytes: number) {
    super(
      `${provider}: the conversation holds more than ${maxBytes} bytes (maxConversationBytes): the model was not asked again`,
      { provider },
    );
    this.maxBytes = maxBytes;
  }
}

/** True for a {@link TooManyToolCallsError}, also across copies of the package. */
export function isTooManyToolCallsError(value: unknown): value is TooManyToolCallsError {
  return value instanceof Error && value.name === 'TooManyToolCallsError' && 'maxToolCalls' in value;
}

/** True for a {@link ConversationTooLargeError}, also across copies of the package. */
export function isConversationTooLargeError(value: unknown): value is ConversationTooLargeError {
  return value instanceof Error && value.name === 'ConversationTooLargeError' && 'maxBytes' in value;
}

/**
 * Checks a count option (`maxToolCallsPerTurn`, `maxConversationBytes`): its value, or `fallback`
 * when it is not given.
 * @throws {TypeError} naming it, for a value that is not a whole number >= 1.
 */
export function checkCountOption(where: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${where}: ${name} must be a whole number >= 1, not ${String(value)}`);
  }
  return value;
}
