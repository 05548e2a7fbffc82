/**
 * Model providers: the contract of ../model.ts over a script, Chat Completions and the Messages
 * API, and the bound on how many bytes one reply may take, which every caller of a provider keeps.
 */
export {
  AnthropicProvider,
  type AnthropicProviderOptions,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
} from './anthropic.js';
export { type CreateProviderOptions, createProvider, PROVIDER_NAMES } from './create.js';
export { OpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai.js';
export type { Environment } from './options.js';
export {
  type RecordedRequest,
  ScriptedProvider,
  type ScriptedProviderOptions,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptedTurn,
} from './scripted.js';
export {
  checkMaxReplyBytes,
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  isReplyTooLargeError,
  ReplyBytes,
  ReplyTooLargeError,
} from './reply-bytes.js';
export {
  checkCountOption,
  ConversationTooLargeError,
  DEFAULT_MAX_CONVERSATION_BYTES,
  DEFAULT_MAX_TOOL_CALLS_PER_TURN,
  isConversationTooLargeError,
  isTooManyToolCallsError,
  TooManyToolCallsError,
} from './reply-count.js';
