/**
 * One model turn's tool calls, answered as they arrive while the model writes the rest: a call
 * starts as soon as its arguments are complete and the call before it has been answered, so the
 * answers (permission checks, approval prompts, effects) come one at a time in the model's
 * order, as if the whole turn had been read first. When the turn fails, no further call starts:
 * the one being answered is awaited (never abandoned mid-effect), the ones waiting behind it
 * never run.
 */
import type { LoopEnding } from '../tools/end-loop.js';
import type { ModelToolCall, ToolResultMessage } from './model.js';
import type { PermissionDenial } from '../errors.js';
import type { ToolCallOutcome } from './agent-events.js';

/** The answer to one tool call. */
export interface ToolAnswer {
  readonly message: ToolResultMessage;
  readonly outcome: ToolCallOutcome;
  /** End the loop once the whole turn is answered. */
  readonly stop?: boolean;
  /** The refusal as data, when the call was denied or rejected (passed on in the event). */
  readonly denial?: PermissionDenial;
  /** The tool ended the loop (`endLoop()`): the loop ends once the whole turn is answered. */
  readonly endedBy?: LoopEnding;
}

/** What an answer knows of the turn it belongs to, which is still being written. */
export interface TurnSoFar {
  /** The text the model wrote in this turn before the call's arguments were complete. */
  readonly turnText: string;
}

export type AnswerTool = (call: ModelToolCall, turn: TurnSoFar) => Promise<ToolAnswer>;

export interface TurnAnswersOptions {
  readonly answer: AnswerTool;
  /** Called as each answer ends, in order (the `tool-result` event). */
  readonly answered: (call: ModelToolCall, answer: ToolAnswer) => void;
  /** Called once, when an answer (or `answered`) throws: the turn fails with that error. */
  readonly failed: (error: unknown) => void;
}

export class TurnAnswers {
  readonly #options: TurnAnswersOptions;
  /** Every call that arrived, in order, and the turn's text when it did. */
  readonly #calls: ModelToolCall[] = [];
  readonly #texts: string[] = [];
  /** The answers of the first `answers.length` calls. */
  readonly #answers: ToolAnswer[] = [];
  /** The position in `#calls` of the next call to start. */
  #next = 0;
  #draining = false;
  #idle: Promise<void> = Promise.resolve();
  /** Set when the turn failed: no call starts any more. */
  #closed = false;
  #failure: { readonly error: unknown } | undefined;

  constructor(options: TurnAnswersOptions) {
    this.#options = options;
  }

  /** The calls that arrived, in order. */
  get calls(): readonly ModelToolCall[] {
    return this.#calls;
  }

  /** The answers so far, one per call from the first, in order. */
  get answers(): readonly ToolAnswer[] {
    return this.#answers;
  }

  /** How many of the calls have started (answered, or being answered, or failed). */
  get started(): number {
    return this.#next;
  }

  /** What an answer threw, when one did. */
  get failure(): { readonly error: unknown } | undefined {
    return this.#failure;
  }

  /**
   * A call whose arguments are complete: it starts now when nothing is being answered (its
   * answer's synchronous part runs before this returns), else when the calls before it are.
   */
  add(call: ModelToolCall, turnText: string): void {
    this.#calls.push(call);
    this.#texts.push(turnText);
    if (this.#draining || this.#closed) return;
    this.#draining = true;
    this.#idle = this.#drain();
  }

  /** No call starts any more; resolves once the one being answered has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.settled();
  }

  /** Resolves once every call added so far has been answered, or the answers stopped. */
  async settled(): Promise<void> {
    let idle: Promise<void>;
    do {
      idle = this.#idle;
      await idle;
    } while (idle !== this.#idle);
  }

  async #drain(): Promise<void> {
    try {
      while (!this.#closed && this.#next < this.#calls.length) {
        const index = this.#next++;
        const call = this.#calls[index]!;
        try {
          const answer = await this.#options.answer(call, { turnText: this.#texts[index]! });
          this.#answers.push(answer);
          // Inside the try: a listener that throws fails the turn, never an unawaited promise.
          this.#options.answered(call, answer);
        } catch (error) {
          this.#closed = true;
          this.#failure = { error };
          this.#options.failed(error);
          return;
        }
      }
    } finally {
      this.#draining = false;
    }
  }
}
