/**
 * The one contract between the agent and a model: provider-neutral messages and tool
 * definitions in, streamed events and one assistant turn out. Every provider (scripted,
 * OpenAI-compatible, Anthropic) maps these to and from its own wire format, so nothing above
 * this file knows which API is on the other end.
 */
import type { JsonSchema } from '../tools/tool.js';
import type { PLAN_SCHEMA_FORMATS } from '../compile/plan-schema/index.js';

/** A tool call the model asked for. */
export interface ModelToolCall {
  /** The provider's id for the call; the tool result must carry the same id. */
  readonly id: string;
  readonly name: string;
  /** The arguments, parsed. `{}` when the model sent text that is not a JSON object. */
  readonly arguments: Record<string, unknown>;
  /** The arguments as the model wrote them, when they were not a JSON object: the reason is in `argumentsError`. */
  readonly argumentsText?: string;
  /** Why `argumentsText` could not be used, for the tool result that tells the model. */
  readonly argumentsError?: string;
}

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
}

export interface AssistantMessage {
  readonly role: 'assistant';
  /** Text of the turn; '' when the turn only calls tools. */
  readonly content: string;
  readonly toolCalls?: readonly ModelToolCall[];
}

/** The answer to one tool call of the previous assistant turn. */
export interface ToolResultMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  /** The tool's name, for providers that want it next to the result. */
  readonly name: string;
  /** What the model reads: JSON text of the result, or an explanation of the refusal or error. */
  readonly content: string;
  /** The call failed or was refused. */
  readonly isError?: boolean;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it: what it is called, what it does, what it takes. */
export interface ModelToolDefinition {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object schema). */
  readonly inputSchema: JsonSchema;
}

/** A JSON Schema the whole answer must follow (structured output). */
export interface ResponseFormat {
  /** A short name for the schema (OpenAI requires one: letters, digits, `_` and `-`). */
  readonly name: string;
  readonly schema: JsonSchema;
}

export interface ModelRequest {
  readonly messages: readonly Message[];
  /** The tools offered for this turn; none means the model can only answer. */
  readonly tools: readonly ModelToolDefinition[];
  /** When set, the answer's text is JSON that follows this schema. */
  readonly responseFormat?: ResponseFormat;
  /** Aborts the request: the stream then throws the signal's `reason` (not a ModelProviderError). */
  readonly signal?: AbortSignal;
  /**
   * Most tool calls the reply may make. The HTTP providers stop reading the reply at the call
   * past it (which closes the connection) and throw a TooManyToolCallsError; complete() and the
   * agent's turns hold every provider to it as the calls arrive.
   * @default DEFAULT_MAX_TOOL_CALLS_PER_TURN (256)
   */
  readonly maxToolCalls?: number;
}

export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** What the API said about its reply, as it said it (for traces and logs). */
export interface ModelResponseInfo {
  /** The reply's id (`chatcmpl-...`, `msg_...`). */
  readonly id?: string;
  /** The model that answered, which may name a version the request did not. */
  readonly model?: string;
  /** The API's own word for why the model stopped (`stop`, `end_turn`, `length`, ...). */
  readonly finishReason?: string;
}

/** One whole assistant turn, as the stream ends with it. */
export interface AssistantTurn {
  readonly message: AssistantMessage;
  /** Why the model stopped: it answered, it wants tools run, it ran out of tokens, or another reason. */
  readonly stopReason: 'end' | 'tool_calls' | 'max_tokens' | 'other';
  readonly usage?: ModelUsage;
  /** The reply's id, model and finish reason, when the API sent them. */
  readonly response?: ModelResponseInfo;
}

/**
 * What a provider's stream yields; the last event is always `done`, or the stream throws. A
 * `tool-call` event comes as soon as that call's arguments are complete, and promises they are:
 * the agent may start the call at once, while the rest of the turn streams. `done` lists the
 * streamed calls first, in the order they came (then any the provider did not stream).
 */
export type ModelStreamEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call'; readonly call: ModelToolCall }
  | { readonly type: 'done'; readonly turn: AssistantTurn };

/** A model behind some API. */
export interface ModelProvider {
  /** `<provider>:<model>`, for messages and logs (never a key). */
  readonly name: string;
  /**
   * One assistant turn for the request, streamed. Throws {@link ModelProviderError} for an
   * API error, a transport failure or an answer it cannot read.
   */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /**
   * True when the provider enforces a response format's schema exactly, in the subset that
   * OpenAI's strict structured outputs accept. `solve()` then sends the plan schema in that
   * form (planSchema's `openai-strict`) and drops the nulls strict mode makes the model write
   * for the keys it leaves out.
   * @default false
   */
  readonly strictSchemas?: boolean;
  /**
   * The form of the plan schema `solve()` sends (planSchema's `format`): `grammar` for a
   * grammar-based engine behind the API (llama.cpp's `llama-server`, vLLM, ...). With
   * `openai-strict` or `grammar`, the nulls the model writes for left-out keys are dropped.
   * @default 'openai-strict' when strictSchemas is true, else 'json-schema'
   */
  readonly schemaFormat?: PlanSchemaFormat;
}

/** The forms of the plan schema (planSchema's `format`). */
export type PlanSchemaFormat = (typeof PLAN_SCHEMA_FORMATS)[number];
