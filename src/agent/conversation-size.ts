/**
 * The bytes a conversation holds, counted as messages are added: what every later request
 * carries again. Each message and each tool call also counts {@link FRAMING_BYTES}, about what a
 * request's JSON spends around it, so that many empty messages (a model calling tools without
 * arguments, and the results they get) are counted by number too.
 */
import type { Message } from './model.js';
import { ConversationTooLargeError } from './providers/index.js';

/** What one message or tool call counts besides its text: the framing a request gives it. */
export const FRAMING_BYTES = 64;

export class ConversationSize {
  #bytes = 0;

  /** Counts `messages`, the conversation so far. */
  constructor(
    readonly provider: string,
    readonly maxBytes: number,
    messages: readonly Message[],
  ) {
    for (const message of messages) this.add(message);
  }

  /** Counts a message added to the conversation. */
  add(message: Message): void {
    this.#bytes += messageBytes(message);
  }

  /**
   * Before a request: the conversation with the messages added to this request alone.
   * @throws {ConversationTooLargeError} when that passes `maxBytes`.
   */
  check(extra: readonly Message[]): void {
    let bytes = this.#bytes;
    for (const message of extra) bytes += messageBytes(message);
    if (bytes > this.maxBytes) throw new ConversationTooLargeError(this.provider, this.maxBytes);
  }
}

function messageBytes(message: Message): number {
  let bytes = FRAMING_BYTES + Buffer.byteLength(message.content);
  if (message.role === 'tool') {
    bytes += Buffer.byteLength(message.toolCallId) + Buffer.byteLength(message.name);
  } else if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      bytes += FRAMING_BYTES + Buffer.byteLength(call.id) + Buffer.byteLength(call.name);
      bytes += Buffer.byteLength(call.argumentsText ?? JSON.stringify(call.arguments));
    }
  }
  return bytes;
}
