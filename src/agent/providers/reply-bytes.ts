/**
 * The bound on how many bytes one model reply may have, counted as the reply arrives: a server
 * that streams forever, or answers with one enormous body, is cut at the bound instead of being
 * read into memory and parsed. Two places count: the providers count the HTTP body as it comes
 * off the socket (SSE framing or a JSON body alike, before the SDK buffers or parses any of
 * it), and complete() counts the reply's text and tool arguments, whatever the provider.
 */
import { ModelProviderError } from '../../errors.js';
import type { AssistantTurn, ModelStreamEvent } from '../model.js';
import { DEFAULT_MAX_TOOL_CALLS_PER_TURN, TooManyToolCallsError } from './reply-count.js';

/**
 * The most bytes of text (and tool-call arguments) in one reply: 1 MiB, far more than any model
 * writes in one turn (about 250,000 tokens), and little enough to parse without a second
 * thought.
 */
export const DEFAULT_MAX_REPLY_BYTES = 1_048_576;

/**
 * The most bytes of one HTTP response body from a model API: 64 MiB. The streaming protocols
 * spend 100 to 200 bytes of framing on each few-character delta, so this leaves room for a reply
 * of {@link DEFAULT_MAX_REPLY_BYTES} of text sent one token at a time.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1_048_576;

/** A reply longer than its bound: it was cut there, and what came before was not used. */
export class ReplyTooLargeError extends ModelProviderError {
  override name = 'ReplyTooLargeError';
  /** The bound that was reached, in bytes. */
  readonly maxBytes: number;

  constructor(provider: string, maxBytes: number, what: 'reply' | 'response') {
    const option = what === 'reply' ? 'maxReplyBytes' : 'maxResponseBytes';
    const thing = what === 'reply' ? 'the reply' : 'the HTTP response';
    super(
      `${provider}: ${thing} is longer than ${maxBytes} bytes (${option}): it was cut there and not read`,
      {
        provider,
      },
    );
    this.maxBytes = maxBytes;
  }
}

/**
 * Counts one reply's bytes (UTF-8) event by event: text deltas and tool calls' arguments as they
 * arrive, and a whole turn's when the provider streamed none of it; and its tool calls, so that
 * a provider that does not stop at `maxToolCalls` itself is held to it as they arrive.
 */
export class ReplyBytes {
  #bytes = 0;
  #calls = 0;
  #streamed = false;

  constructor(
    readonly provider: string,
    readonly maxBytes: number,
    readonly maxToolCalls: number = DEFAULT_MAX_TOOL_CALLS_PER_TURN,
  ) {}

  /**
   * @throws {ReplyTooLargeError} once the reply so far passes the bound of bytes.
   * @throws {TooManyToolCallsError} once it makes more tool calls than `maxToolCalls`.
   */
  add(event: ModelStreamEvent): void {
    if (event.type === 'text-delta') {
      this.#streamed = true;
      this.#bytes += Buffer.byteLength(event.text);
    } else if (event.type === 'tool-call') {
      this.#streamed = true;
      if (++this.#calls > this.maxToolCalls)
        throw new TooManyToolCallsError(this.provider, this.maxToolCalls);
      this.#bytes += argumentBytes(event.call);
    } else {
      if ((event.turn.message.toolCalls?.length ?? 0) > this.maxToolCalls)
        throw new TooManyToolCallsError(this.provider, this.maxToolCalls);
      if (!this.#streamed) this.#bytes = turnBytes(event.turn);
    }
    if (this.#bytes > this.maxBytes) throw new ReplyTooLargeError(this.provider, this.maxBytes, 'reply');
  }
}

/** The bytes of a whole turn: its text and each tool call's arguments. */
function turnBytes(turn: AssistantTurn): number {
  let bytes = Buffer.byteLength(turn.message.content);
  for (const call of turn.message.toolCalls ?? []) bytes += argumentBytes(call);
  return bytes;
}

function argumentBytes(call: { readonly argumentsText?: string; readonly arguments: unknown }): number {
  return Buffer.byteLength(call.argumentsText ?? JSON.stringify(call.arguments));
}

/** Checks a `maxReplyBytes` option. @throws {TypeError} naming it, for a value that is not a whole number >= 1. */
export function checkMaxReplyBytes(where: string, value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_REPLY_BYTES;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${where}: maxReplyBytes must be a whole number >= 1, not ${String(value)}`);
  }
  return value;
}

/** True for a {@link ReplyTooLargeError}, also across copies of the package. */
export function isReplyTooLargeError(value: unknown): value is ReplyTooLargeError {
  return value instanceof Error && value.name === 'ReplyTooLargeError' && 'maxBytes' in value;
}

/**
 * A fetch whose response bodies error with {@link ReplyTooLargeError} once they pass `maxBytes`:
 * the SDK reading the body sees the error and aborts the request, which closes the connection.
 */
export function boundedFetch(maxBytes: number, provider: string, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(new ReplyTooLargeError(provider, maxBytes, 'response'));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
