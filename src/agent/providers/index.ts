/** Model providers: the contract of ../model.ts over a script, Chat Completions and the Messages API. */
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
