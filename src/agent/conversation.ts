/**
 * The turn loop shared by plan() and execute(): ask the model, stream what it says, answer
 * every tool call of the turn, and go on until it answers without tools, a tool ends the
 * loop, or the turns run out. Every tool call gets exactly one result, in order, so the
 * transcript is valid for the next request whatever happened.
 */
import { ModelProviderError, type PermissionDenial } from '../errors.js';
import type { AgentEventListener, AgentPhase, ToolCallOutcome } from './agent-events.js';
import type {
  AssistantTurn,
  Message,
  ModelProvider,
  ModelToolCall,
  ModelToolDefinition,
  ToolResultMessage,
} from './model.js';
import { ConversationSize } from './conversation-size.js';
import {
  checkCountOption,
  checkMaxReplyBytes,
  DEFAULT_MAX_CONVERSATION_BYTES,
  DEFAULT_MAX_TOOL_CALLS_PER_TURN,
  ReplyBytes,
} from './providers/index.js';

/** The answer to one tool call. */
export interface ToolAnswer {
  readonly message: ToolResultMessage;
  readonly outcome: ToolCallOutcome;
  /** End the loop once the whole turn is answered. */
  readonly stop?: boolean;
  /** The refusal as data, when the call was denied or rejected (passed on in the event). */
  readonly denial?: PermissionDenial;
}

export interface ConverseOptions {
  readonly provider: ModelProvider;
  /** The conversation; turns and tool results are appended to it. */
  readonly messages: Message[];
  /** The tools to offer, asked before every request (the latch can flip between turns). */
  readonly tools: () => readonly ModelToolDefinition[];
  readonly answer: (call: ModelToolCall) => Promise<ToolAnswer>;
  /**
   * Messages added at the end of each request only, never to `messages`: asked before every
   * request, so a reminder (the todo list) reflects the current state and does not pile up.
   * @default none
   */
  readonly extraMessages?: () => readonly Message[];
  readonly maxTurns: number;
  /**
   * Most bytes (UTF-8) of one reply's text and tool-call arguments, counted as they stream in:
   * past it the request is cancelled and the turn fails with a ReplyTooLargeError.
   * @default DEFAULT_MAX_REPLY_BYTES (1 MiB)
   */
  readonly maxReplyBytes?: number;
  /**
   * Most tool calls one reply may make: the HTTP providers stop reading the reply at the one past
   * it (closing the connection), and the turn fails with a TooManyToolCallsError before any of
   * its calls runs.
   * @default DEFAULT_MAX_TOOL_CALLS_PER_TURN (256)
   */
  readonly maxToolCallsPerTurn?: number;
  /**
   * Most bytes (UTF-8) the conversation may hold when the model is asked again: its messages'
   * text, tool calls' arguments and results, and 64 bytes of framing per message and per tool
   * call. Past it the loop ends with a ConversationTooLargeError instead of sending the request.
   * @default DEFAULT_MAX_CONVERSATION_BYTES (16 MiB)
   */
  readonly maxConversationBytes?: number;
  readonly phase: AgentPhase;
  readonly emit: AgentEventListener;
  readonly signal?: AbortSignal;
}

export interface ConverseResult {
  /** `answered`: a turn without tool calls; `stopped`: a tool ended it; `max_turns`: out of turns. */
  readonly status: 'answered' | 'stopped' | 'max_turns';
  /** The text of the last turn. */
  readonly text: string;
  readonly turns: number;
}

/**
 * @throws {ReplyTooLargeError}, {@link TooManyToolCallsError} or {@link ConversationTooLargeError}
 *   (ModelProviderErrors) when a reply or the conversation passes its bound; what the provider
 *   throws.
 * @throws {TypeError} for a bound that is not a whole number >= 1.
 */
export async function converse(options: ConverseOptions): Promise<ConverseResult> {
  const { messages, emit, phase } = options;
  const bounds: TurnBounds = {
    maxReplyBytes: checkMaxReplyBytes('converse', options.maxReplyBytes),
    maxToolCalls: checkCountOption(
      'converse',
      'maxToolCallsPerTurn',
      options.maxToolCallsPerTurn,
      DEFAULT_MAX_TOOL_CALLS_PER_TURN,
    ),
  };
  const size = new ConversationSize(
    options.provider.name,
    checkCountOption(
      'converse',
      'maxConversationBytes',
      options.maxConversationBytes,
      DEFAULT_MAX_CONVERSATION_BYTES,
    ),
    messages,
  );
  let text = '';
  for (let turns = 1; turns <= options.maxTurns; turns++) {
    const turn = await oneTurn(options, bounds, size);
    messages.push(turn.message);
    size.add(turn.message);
    text = turn.message.content;
    const calls = turn.message.toolCalls ?? [];
    if (calls.length === 0) return { status: 'answered', text, turns };
    let stop = false;
    for (const call of calls) {
      const answer = await options.answer(call);
      messages.push(answer.message);
      size.add(answer.message);
      emit({
        type: 'tool-result',
        phase,
        call,
        outcome: answer.outcome,
        result: answer.message,
        ...(answer.denial && { denial: answer.denial }),
      });
      stop ||= answer.stop === true;
    }
    if (stop) return { status: 'stopped', text, turns };
    options.signal?.throwIfAborted();
  }
  return { status: 'max_turns', text, turns: options.maxTurns };
}

/** One turn's bounds, checked once per converse(). */
interface TurnBounds {
  readonly maxReplyBytes: number;
  readonly maxToolCalls: number;
}

async function oneTurn(
  options: ConverseOptions,
  bounds: TurnBounds,
  size: ConversationSize,
): Promise<AssistantTurn> {
  const { provider, emit, phase } = options;
  let turn: AssistantTurn | undefined;
  const extra = options.extraMessages?.() ?? [];
  // Before the request is built: a conversation over its bound is never copied or sent.
  size.check(extra);
  const request = {
    // A copy: the provider must not see the tool results this turn is about to add, and the
    // extra messages are for this request alone.
    messages: [...options.messages, ...extra],
    tools: options.tools(),
    maxToolCalls: bounds.maxToolCalls,
    ...(options.signal && { signal: options.signal }),
  };
  const bytes = new ReplyBytes(provider.name, bounds.maxReplyBytes, bounds.maxToolCalls);
  // Leaving the for-await (the throw) ends the provider's stream, which aborts its request.
  for await (const event of provider.stream(request)) {
    bytes.add(event);
    if (event.type === 'text-delta') emit({ type: 'text-delta', phase, text: event.text });
    else if (event.type === 'tool-call') emit({ type: 'tool-call', phase, call: event.call });
    else turn = event.turn;
  }
  if (!turn) {
    throw new ModelProviderError(`${provider.name}: the stream ended without a whole turn`, {
      provider: provider.name,
    });
  }
  return turn;
}
