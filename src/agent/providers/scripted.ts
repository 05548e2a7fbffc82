/**
 * A model that plays a script: for tests (which assert what the model was shown) and for demos
 * that must run without a network.
 */
import { optionKeys, rejectUnknownOptions } from '../../language/option-keys.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { ModelProviderError } from '../../errors.js';
import type {
  AssistantTurn,
  ModelProvider,
  ModelRequest,
  ModelStreamEvent,
  ModelToolCall,
  ModelUsage,
  PlanSchemaFormat,
} from '../model.js';
import { isPlainObject, parseToolArguments } from './arguments.js';
import { PLAN_SCHEMA_FORMATS } from '../../compile/plan-schema/index.js';
import { checkChoice, checkInteger, checkOptionsObject, checkString, show } from './options.js';

/** A tool call in a {@link ScriptedReply}. */
export interface ScriptedToolCall {
  /** @default `call_<turn>_<index>`, both counted from 1 */
  readonly id?: string;
  readonly name: string;
  /**
   * The arguments: an object, or JSON text as a model would write it (text that is not a JSON
   * object gives `arguments: {}` with `argumentsText` and `argumentsError`, as a real provider does).
   * @default {}
   */
  readonly arguments?: Record<string, unknown> | string;
}

/** One assistant turn in its short form. */
export interface ScriptedReply {
  /**
   * What the model says; streamed as one `text-delta` per word (with its trailing whitespace).
   * @default ''
   */
  readonly text?: string;
  /** @default [] */
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** @default 'tool_calls' when there are tool calls, else 'end' */
  readonly stopReason?: AssistantTurn['stopReason'];
  /** Reported in the `done` event when set. */
  readonly usage?: ModelUsage;
}

/**
 * One turn of the script: a reply; the exact events to stream (to test streams that break the
 * rules, a missing `done` for one); or a function of the request and the turn's number (from 1)
 * that returns either, for answers that depend on what the model is shown. What the function
 * throws, the stream throws.
 */
export type ScriptedTurn =
  | ScriptedReply
  | readonly ModelStreamEvent[]
  | ((
      request: RecordedRequest,
      turn: number,
    ) => ScriptedReply | readonly ModelStreamEvent[] | Promise<ScriptedReply | readonly ModelStreamEvent[]>);

/** A request as the provider received it, deep-copied; the signal is left out. */
export type RecordedRequest = Omit<ModelRequest, 'signal'>;

const SCRIPTED_OPTIONS = optionKeys<ScriptedProviderOptions>({
  turns: true,
  model: true,
  delayMs: true,
  schemaFormat: true,
});

export interface ScriptedProviderOptions {
  /** The turns, answered in order, one per request. A request after the last one throws. */
  readonly turns: readonly ScriptedTurn[];
  /**
   * The model part of the provider's name (`scripted:<model>`).
   * @default 'script'
   */
  readonly model?: string;
  /**
   * Milliseconds to wait before each event, to give a demo the feel of a stream or a test time
   * to abort mid-stream.
   * @default 0
   */
  readonly delayMs?: number;
  /**
   * The form of the plan schema `solve()` asks for (see ModelProvider.schemaFormat), as the
   * engine the script stands in for would want it: with `openai-strict` or `grammar`, the nulls
   * the scripted replies hold for left-out keys are dropped.
   * @default 'json-schema'
   */
  readonly schemaFormat?: PlanSchemaFormat;
}

const WHERE = 'ScriptedProvider';

export class ScriptedProvider implements ModelProvider {
  readonly name: string;
  /** Every request, in order, copied when it arrived: later changes to the caller's arrays do not show. */
  readonly requests: RecordedRequest[] = [];
  readonly #turns: readonly ScriptedTurn[];
  readonly #delayMs: number;
  /** See ModelProvider.schemaFormat. */
  readonly schemaFormat: PlanSchemaFormat;

  constructor(options: ScriptedProviderOptions) {
    checkOptionsObject(WHERE, options);
    rejectUnknownOptions(WHERE, options, SCRIPTED_OPTIONS);
    if (!Array.isArray(options.turns)) {
      throw new TypeError(`${WHERE}: turns must be an array, not ${show(options.turns)}`);
    }
    options.turns.forEach((turn, index) => checkTurn(turn, `turns[${index}]`));
    checkString(WHERE, 'model', options.model);
    checkInteger(WHERE, 'delayMs', options.delayMs, 0);
    checkChoice(WHERE, 'schemaFormat', options.schemaFormat, PLAN_SCHEMA_FORMATS);
    this.schemaFormat = options.schemaFormat ?? 'json-schema';
    this.#turns = [...options.turns];
    this.#delayMs = options.delayMs ?? 0;
    this.name = `scripted:${options.model ?? 'script'}`;
  }

  /** Turns not yet played. */
  get remaining(): number {
    return Math.max(0, this.#turns.length - this.requests.length);
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    // Recorded now, not when iteration starts, so the record is what the caller passed.
    const recorded = record(request);
    this.requests.push(recorded);
    return this.#play(recorded, this.requests.length, request.signal);
  }

  async *#play(
    request: RecordedRequest,
    number: number,
    signal?: AbortSignal,
  ): AsyncGenerator<ModelStreamEvent> {
    signal?.throwIfAborted();
    const turn = this.#turns[number - 1];
    if (turn === undefined) {
      throw new ModelProviderError(
        `${this.name}: the script has ${this.#turns.length} turn${this.#turns.length === 1 ? '' : 's'}, ` +
          `and request ${number} has no answer`,
        { provider: this.name },
      );
    }
    const answer = typeof turn === 'function' ? await turn(request, number) : turn;
    if (typeof turn === 'function') checkTurn(answer, `the answer of turns[${number - 1}]`);
    const events = Array.isArray(answer)
      ? (answer as readonly ModelStreamEvent[])
      : replyEvents(answer as ScriptedReply, number);
    for (const event of events) {
      if (this.#delayMs > 0) await pause(this.#delayMs, signal);
      signal?.throwIfAborted();
      yield structuredClone(event);
    }
  }

  toString(): string {
    return this.name;
  }

  toJSON(): { name: string } {
    return { name: this.name };
  }
}

/** Waits; an abort throws the signal's reason, as the network providers do. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, undefined, signal ? { signal } : undefined);
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  }
}

function record(request: ModelRequest): RecordedRequest {
  const { signal: _signal, ...rest } = request;
  return structuredClone(rest);
}

function replyEvents(reply: ScriptedReply, turn: number): ModelStreamEvent[] {
  const text = reply.text ?? '';
  const events: ModelStreamEvent[] = [];
  for (const piece of text.match(/\s+|\S+\s*/g) ?? []) events.push({ type: 'text-delta', text: piece });
  const calls: ModelToolCall[] = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${turn}_${index + 1}`,
    name: call.name,
    ...(typeof call.arguments === 'string'
      ? parseToolArguments(call.arguments)
      : { arguments: call.arguments ?? {} }),
  }));
  for (const call of calls) events.push({ type: 'tool-call', call });
  const turnValue: AssistantTurn = {
    message: { role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) },
    stopReason: reply.stopReason ?? (calls.length > 0 ? 'tool_calls' : 'end'),
    ...(reply.usage ? { usage: reply.usage } : {}),
  };
  events.push({ type: 'done', turn: turnValue });
  return events;
}

/** The shape of one turn, so a typo in a script fails at construction, not mid-test. */
function checkTurn(turn: unknown, where: string): void {
  if (typeof turn === 'function') return;
  if (Array.isArray(turn)) {
    turn.forEach((event: unknown, index) => {
      const type = isPlainObject(event) ? event.type : undefined;
      if (type !== 'text-delta' && type !== 'tool-call' && type !== 'done') {
        throw new TypeError(
          `${WHERE}: ${where}[${index}] must be a text-delta, tool-call or done event, not ${show(event)}`,
        );
      }
    });
    return;
  }
  if (!isPlainObject(turn)) {
    throw new TypeError(
      `${WHERE}: ${where} must be a reply object, an array of events or a function, not ${show(turn)}`,
    );
  }
  if (turn.text !== undefined && typeof turn.text !== 'string') {
    throw new TypeError(`${WHERE}: ${where}.text must be a string, not ${show(turn.text)}`);
  }
  if (turn.toolCalls !== undefined && !Array.isArray(turn.toolCalls)) {
    throw new TypeError(`${WHERE}: ${where}.toolCalls must be an array, not ${show(turn.toolCalls)}`);
  }
  (turn.toolCalls ?? []).forEach((call: unknown, index: number) => {
    const at = `${where}.toolCalls[${index}]`;
    if (!isPlainObject(call) || typeof call.name !== 'string' || call.name === '') {
      throw new TypeError(`${WHERE}: ${at} must be an object with a non-empty name, not ${show(call)}`);
    }
    if (call.id !== undefined && (typeof call.id !== 'string' || call.id === '')) {
      throw new TypeError(`${WHERE}: ${at}.id must be a non-empty string, not ${show(call.id)}`);
    }
    if (
      call.arguments !== undefined &&
      typeof call.arguments !== 'string' &&
      !isPlainObject(call.arguments)
    ) {
      throw new TypeError(
        `${WHERE}: ${at}.arguments must be an object or JSON text, not ${show(call.arguments)}`,
      );
    }
  });
  const stops = ['end', 'tool_calls', 'max_tokens', 'other'];
  if (turn.stopReason !== undefined && !stops.includes(turn.stopReason as string)) {
    throw new TypeError(
      `${WHERE}: ${where}.stopReason must be one of ${stops.join(', ')}, not ${show(turn.stopReason)}`,
    );
  }
}
