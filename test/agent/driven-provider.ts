/**
 * A model provider whose replies the test writes piece by piece, while the code under test reads
 * them: each request gets the next reply, and each reply streams what the test `say`s until it
 * `end`s it. It follows the provider contract (text deltas, then one `done` turn with the whole
 * text), so the plan loop reads it as it reads any streaming provider; what it adds is that the
 * test decides when each piece arrives, so "the call started before the reply ended" is a fact
 * the test can wait for instead of a race.
 */
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../src/agent/model.js';

export class DrivenReply {
  readonly #pieces: string[] = [];
  #head = 0;
  #ended = false;
  #wake: (() => void) | null = null;

  /** More of the reply's text. */
  say(text: string): this {
    this.#pieces.push(text);
    this.#wake?.();
    return this;
  }

  /** The reply is over. */
  end(): this {
    this.#ended = true;
    this.#wake?.();
    return this;
  }

  async *events(): AsyncGenerator<ModelStreamEvent> {
    let text = '';
    for (;;) {
      while (this.#head < this.#pieces.length) {
        const piece = this.#pieces[this.#head++]!;
        text += piece;
        yield { type: 'text-delta', text: piece };
      }
      if (this.#ended) break;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = null;
    }
    yield {
      type: 'done',
      turn: {
        message: { role: 'assistant', content: text },
        stopReason: 'end',
        usage: { inputTokens: 1, outputTokens: 1 },
      },
    };
  }
}

export class DrivenProvider implements ModelProvider {
  readonly name = 'driven:test';
  readonly requests: ModelRequest[] = [];
  readonly #replies: DrivenReply[] = [];
  readonly #asked: ((reply: DrivenReply) => void)[] = [];

  constructor(readonly strictSchemas = false) {}

  /** The reply to request `index` (0-based), made when first named by the test or the code. */
  reply(index: number): DrivenReply {
    while (this.#replies.length <= index) this.#replies.push(new DrivenReply());
    return this.#replies[index]!;
  }

  /** Resolves once request `index` has been made. */
  asked(index: number): Promise<DrivenReply> {
    if (this.requests.length > index) return Promise.resolve(this.reply(index));
    return new Promise((resolve) => {
      this.#asked[index] = resolve;
    });
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const index = this.requests.length;
    this.requests.push(request);
    const reply = this.reply(index);
    this.#asked[index]?.(reply);
    return reply.events();
  }
}

/** The text of the last user message of a request: what the model was told. */
export function lastUserText(request: ModelRequest): string {
  const users = request.messages.filter((m) => m.role === 'user');
  return users.at(-1)!.content;
}
