/**
 * One turn of a conversation: ask the model, stream what it says, and answer each tool call as
 * soon as its arguments are complete, while the model is still writing the rest (one call at a
 * time, in the model's order: see turn-answers.ts). The turn goes into the conversation once it
 * is whole: the assistant message first, then one result per call, in order.
 */
import { ModelProviderError } from '../errors.js';
import type { AgentEventListener, AgentPhase } from './agent-events.js';
import type { ConversationSize } from './conversation-size.js';
import type {
  AssistantMessage,
  Message,
  ModelProvider,
  ModelToolCall,
  ModelToolDefinition,
} from './model.js';
import { ReplyBytes } from './providers/index.js';
import { type AnswerTool, type ToolAnswer, TurnAnswers } from './turn-answers.js';

/** What one turn needs of converse()'s options. */
export interface TurnOptions {
  readonly provider: ModelProvider;
  readonly messages: Message[];
  readonly tools: () => readonly ModelToolDefinition[];
  readonly answer: AnswerTool;
  readonly extraMessages?: () => readonly Message[];
  readonly phase: AgentPhase;
  readonly emit: AgentEventListener;
  readonly signal?: AbortSignal;
}

/** One turn's bounds, checked once per converse(). */
export interface TurnBounds {
  readonly maxReplyBytes: number;
  readonly maxToolCalls: number;
}

/** A turn that ended well, already added to the conversation. */
export interface AnsweredTurn {
  readonly message: AssistantMessage;
  /** One per tool call of the turn, in order. */
  readonly answers: readonly ToolAnswer[];
}

/**
 * Runs one turn and adds it to `options.messages`. When it fails after some of its calls
 * arrived (a reply bound, a broken stream, the signal, an answer that threw): no further call
 * starts, the one being answered is awaited, the calls that were answered go into the
 * conversation (the text so far and those calls, then their results: a valid transcript of what
 * ran), a `turn-failed` event names the calls that ran and those that never started, and the
 * error is thrown: an answer's own error when one threw, else the stream's.
 */
export async function answerTurn(
  options: TurnOptions,
  bounds: TurnBounds,
  size: ConversationSize,
): Promise<AnsweredTurn> {
  const { provider, emit, phase } = options;
  const extra = options.extraMessages?.() ?? [];
  // Before the request is built: a conversation over its bound is never copied or sent.
  size.check(extra);
  // The turn's own signal: an answer that throws ends the request at once, not at its end.
  const turnAbort = new AbortController();
  const outer = options.signal;
  const forward = () => turnAbort.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  const answers = new TurnAnswers({
    answer: options.answer,
    answered: (call, answer) =>
      emit({
        type: 'tool-result',
        phase,
        call,
        outcome: answer.outcome,
        result: answer.message,
        ...(answer.denial && { denial: answer.denial }),
      }),
    failed: (error) => turnAbort.abort(error),
  });
  const request = {
    // A copy: the provider must not see the tool results this turn is about to add, and the
    // extra messages are for this request alone.
    messages: [...options.messages, ...extra],
    tools: options.tools(),
    maxToolCalls: bounds.maxToolCalls,
    signal: turnAbort.signal,
  };
  const bytes = new ReplyBytes(provider.name, bounds.maxReplyBytes, bounds.maxToolCalls);
  let text = '';
  let message: AssistantMessage | undefined;
  try {
    // Leaving the for-await (a throw) ends the provider's stream, which aborts its request.
    for await (const event of provider.stream(request)) {
      // Before anything is used: a call past a bound never starts.
      bytes.add(event);
      if (event.type === 'text-delta') {
        text += event.text;
        emit({ type: 'text-delta', phase, text: event.text });
      } else if (event.type === 'tool-call') {
        emit({ type: 'tool-call', phase, call: event.call });
        answers.add(event.call, text);
      } else message = event.turn.message;
      if (answers.failure) throw answers.failure.error;
    }
    if (!message) {
      throw new ModelProviderError(`${provider.name}: the stream ended without a whole turn`, {
        provider: provider.name,
      });
    }
    // A provider that streamed none (or not all) of its calls: the rest start now.
    const calls = message.toolCalls ?? [];
    checkStreamedCalls(provider.name, answers.calls, calls);
    for (let i = answers.calls.length; i < calls.length; i++) answers.add(calls[i]!, message.content);
    await answers.settled();
    if (answers.failure) throw answers.failure.error;
    add(options.messages, size, message, answers.answers);
    return { message, answers: answers.answers };
  } catch (streamError) {
    await answers.close();
    const error = answers.failure ? answers.failure.error : streamError;
    const ran = answers.calls.slice(0, answers.answers.length);
    if (answers.calls.length > 0) {
      if (ran.length > 0) {
        const partial: AssistantMessage = {
          role: 'assistant',
          content: message?.content ?? text,
          toolCalls: ran,
        };
        add(options.messages, size, partial, answers.answers);
      }
      emit({ type: 'turn-failed', phase, error, ran, notRun: answers.calls.slice(answers.started) });
    }
    throw error;
  } finally {
    outer?.removeEventListener('abort', forward);
  }
}

/** The turn, then one result per call, in order. */
function add(
  messages: Message[],
  size: ConversationSize,
  message: AssistantMessage,
  answers: readonly ToolAnswer[],
): void {
  messages.push(message);
  size.add(message);
  for (const answer of answers) {
    messages.push(answer.message);
    size.add(answer.message);
  }
}

/**
 * The streamed calls must be the first calls of the turn that ends the stream, in the same
 * order: they may have run already, so a turn that says otherwise cannot be trusted.
 * @throws {ModelProviderError} naming the first call that differs.
 */
function checkStreamedCalls(
  provider: string,
  streamed: readonly ModelToolCall[],
  turn: readonly ModelToolCall[],
): void {
  for (let i = 0; i < streamed.length; i++) {
    const call = turn[i];
    if (call === undefined || call.id !== streamed[i]!.id || call.name !== streamed[i]!.name) {
      throw new ModelProviderError(
        `${provider}: the turn's tool call ${i + 1} is not the call it streamed (${streamed[i]!.name}, id ${streamed[i]!.id})`,
        { provider },
      );
    }
  }
}
