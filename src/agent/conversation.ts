/**
 * The turn loop shared by plan() and execute(): ask the model, stream what it says, answer
 * each tool call as soon as its arguments are complete (while the model writes the rest; one
 * at a time, in the model's order), and go on until it answers without tools, a tool ends the
 * loop, or the turns run out. Every tool call that ran gets exactly one result, in order, after
 * its turn's message, so the transcript is valid for the next request whatever happened.
 */
import type { AgentEventListener, AgentPhase } from './agent-events.js';
import type { Message, ModelProvider, ModelToolDefinition } from './model.js';
import { ConversationSize } from './conversation-size.js';
import type { LoopEnding } from '../tools/end-loop.js';
import { answerTurn, type TurnBounds } from './conversation-turn.js';
import type { AnswerTool } from './turn-answers.js';
import {
  checkCountOption,
  checkMaxReplyBytes,
  DEFAULT_MAX_CONVERSATION_BYTES,
  DEFAULT_MAX_TOOL_CALLS_PER_TURN,
} from './providers/index.js';

export type { AnswerTool, ToolAnswer, TurnSoFar } from './turn-answers.js';

export interface ConverseOptions {
  readonly provider: ModelProvider;
  /** The conversation; turns and tool results are appended to it. */
  readonly messages: Message[];
  /** The tools to offer, asked before every request (the latch can flip between turns). */
  readonly tools: () => readonly ModelToolDefinition[];
  /**
   * Answers one tool call. Called as soon as the call's arguments are complete, while the model
   * may still be writing the rest of its turn (so the turn is not yet in `messages`: what the
   * model wrote before the call is `turn.turnText`), and only once the call before it in the
   * turn has been answered. What it throws fails the turn (no further call starts).
   */
  readonly answer: AnswerTool;
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
   * it (closing the connection), and the turn fails with a TooManyToolCallsError. No call past
   * the bound runs; the calls before it may have run already (each starts as it arrives): the
   * `turn-failed` event names them.
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
  /** With `stopped`: the tool that ended the loop with `endLoop()` (the first in the turn), if one did. */
  readonly endedBy?: LoopEnding;
  /** The text of the last turn. */
  readonly text: string;
  readonly turns: number;
}

/**
 * When a turn fails after some of its tool calls arrived, no further call starts, the call
 * being answered is awaited, the calls answered stay in `messages` (the turn's text so far and
 * those calls, then their results), a `turn-failed` event lists the calls that ran and those
 * that never started, and the error is thrown.
 *
 * @throws {ReplyTooLargeError}, {@link TooManyToolCallsError} or {@link ConversationTooLargeError}
 *   (ModelProviderErrors) when a reply or the conversation passes its bound; what the provider
 *   throws; the signal's reason; what an answer throws.
 * @throws {TypeError} for a bound that is not a whole number >= 1.
 */
export async function converse(options: ConverseOptions): Promise<ConverseResult> {
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
    options.messages,
  );
  let text = '';
  for (let turns = 1; turns <= options.maxTurns; turns++) {
    const { message, answers } = await answerTurn(options, bounds, size);
    text = message.content;
    if (answers.length === 0) return { status: 'answered', text, turns };
    const endedBy = answers.find((answer) => answer.endedBy !== undefined)?.endedBy;
    if (endedBy) return { status: 'stopped', text, turns, endedBy };
    if (answers.some((answer) => answer.stop === true)) return { status: 'stopped', text, turns };
    options.signal?.throwIfAborted();
  }
  return { status: 'max_turns', text, turns: options.maxTurns };
}
