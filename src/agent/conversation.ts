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
import { checkMaxReplyBytes, ReplyBytes } from './providers/index.js';

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

export async function converse(options: ConverseOptions): Promise<ConverseResult> {
  const { messages, emit, phase } = options;
  let text = '';
  for (let turns = 1; turns <= options.maxTurns; turns++) {
    const turn = await oneTurn(options);
    messages.push(turn.message);
    text = turn.message.content;
    const calls = turn.message.toolCalls ?? [];
    if (calls.length === 0) return { status: 'answered', text, turns };
    let stop = false;
    for (const call of calls) {
      const answer = await options.answer(call);
      messages.push(answer.message);
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

async function oneTurn(options: ConverseOptions): Promise<AssistantTurn> {
  const { provider, emit, phase } = options;
  let turn: AssistantTurn | undefined;
  const request = {
    // A copy: the provider must not see the tool results this turn is about to add, and the
    // extra messages are for this request alone.
    messages: [...options.messages, ...(options.extraMessages?.() ?? [])],
    tools: options.tools(),
    ...(options.signal && { signal: options.signal }),
  };
  const bytes = new ReplyBytes(provider.name, checkMaxReplyBytes('converse', options.maxReplyBytes));
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
