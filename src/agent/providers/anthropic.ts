/** Claude through the Messages API and the official `@anthropic-ai/sdk`. */
import { optionKeys, rejectUnknownOptions } from '../../language/option-keys.js';
import type Anthropic from '@anthropic-ai/sdk';
import { importOptional } from '../../optional-dependencies.js';
import { ModelProviderError } from '../../errors.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../model.js';
import { type ErrorContext, toModelProviderError } from './api-error.js';
import { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES } from './reply-bytes.js';
import { toMessagesRequest } from './anthropic-request.js';
import { readMessagesStream } from './anthropic-stream.js';
import {
  checkApiKey,
  checkInteger,
  checkOptionsObject,
  checkRecord,
  checkString,
  checkURL,
  type Environment,
  showURL,
} from './options.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Every current Claude model can write this much in one turn; a plan rarely needs more. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

const ANTHROPIC_OPTIONS = optionKeys<AnthropicProviderOptions>({
  model: true,
  apiKey: true,
  baseURL: true,
  maxTokens: true,
  maxRetries: true,
  timeoutMs: true,
  maxResponseBytes: true,
  body: true,
  env: true,
});

export interface AnthropicProviderOptions {
  /** The model (`claude-sonnet-4-6`, `claude-opus-4-6`, `claude-haiku-4-5`, ...). */
  readonly model: string;
  /**
   * The API key. Never printed: not in messages, errors, `String(provider)` or
   * `JSON.stringify(provider)`.
   * @default env.ANTHROPIC_API_KEY
   */
  readonly apiKey?: string;
  /**
   * Where the API is (a proxy or gateway that speaks the Messages API).
   * @default env.ANTHROPIC_BASE_URL, else 'https://api.anthropic.com'
   */
  readonly baseURL?: string;
  /**
   * The most tokens the model may write in one turn (the API requires a limit). A turn that
   * reaches it ends with `stopReason: 'max_tokens'`.
   * @default 8192
   */
  readonly maxTokens?: number;
  /**
   * Retries of a request that failed with 408, 409, 429, 5xx or a connection error, with the
   * SDK's backoff. Only the request is retried, never a stream that has begun.
   * @default 2
   */
  readonly maxRetries?: number;
  /**
   * Milliseconds to wait for an answer to begin before the request fails (and is retried).
   * @default 600000
   */
  readonly timeoutMs?: number;
  /**
   * Most bytes of one HTTP response body (the SSE stream, framing included), counted as they
   * come off the socket: a server that streams forever or sends an enormous body is cut there
   * (a ReplyTooLargeError) before the SDK buffers or parses more of it.
   * @default DEFAULT_MAX_RESPONSE_BYTES (64 MiB)
   */
  readonly maxResponseBytes?: number;
  /**
   * More request body fields for every request: `temperature`, `thinking`, `metadata`,
   * `output_config.effort`. The fields the provider sets (model, max_tokens, messages,
   * system, tools, stream, output_config.format) win.
   * @default {}
   */
  readonly body?: Readonly<Record<string, unknown>>;
  /**
   * Where `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` are read.
   * @default process.env
   */
  readonly env?: Environment;
}

const WHERE = 'AnthropicProvider';

export class AnthropicProvider implements ModelProvider {
  readonly name: string;
  readonly model: string;
  readonly baseURL: string;
  readonly #clientOptions: ConstructorParameters<typeof Anthropic>[0];
  #client: Promise<Anthropic> | undefined;
  readonly #errors: Omit<ErrorContext, 'sdk'>;
  #sdk: ErrorContext['sdk'] | undefined;
  readonly #maxTokens: number;
  readonly #body: Readonly<Record<string, unknown>>;

  /** @throws {ModelProviderError} when no key is set. */
  constructor(options: AnthropicProviderOptions) {
    checkOptionsObject(WHERE, options);
    rejectUnknownOptions(WHERE, options, ANTHROPIC_OPTIONS);
    checkString(WHERE, 'model', options.model, false);
    checkApiKey(WHERE, options.apiKey);
    checkURL(WHERE, 'baseURL', options.baseURL);
    checkInteger(WHERE, 'maxTokens', options.maxTokens, 1);
    checkInteger(WHERE, 'maxRetries', options.maxRetries, 0);
    checkInteger(WHERE, 'timeoutMs', options.timeoutMs, 1);
    checkInteger(WHERE, 'maxResponseBytes', options.maxResponseBytes, 1);
    checkRecord(WHERE, 'body', options.body);
    checkRecord(WHERE, 'env', options.env);
    const env = options.env ?? process.env;
    this.model = options.model;
    this.name = `anthropic:${options.model}`;
    this.baseURL = options.baseURL ?? (env.ANTHROPIC_BASE_URL || ANTHROPIC_DEFAULT_BASE_URL);
    const apiKey = options.apiKey ?? (env.ANTHROPIC_API_KEY || undefined);
    if (apiKey === undefined) {
      throw new ModelProviderError(`${this.name}: no API key: set ANTHROPIC_API_KEY, or pass apiKey`, {
        provider: this.name,
      });
    }
    const timeoutMs = options.timeoutMs ?? 600_000;
    // An explicit key: the SDK then reads no other credentials (auth tokens, profiles on disk).
    this.#clientOptions = {
      apiKey,
      baseURL: this.baseURL,
      maxRetries: options.maxRetries ?? 2,
      timeout: timeoutMs,
      fetch: boundedFetch(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, this.name),
      logLevel: 'off',
    };
    this.#errors = { provider: this.name, baseURL: this.baseURL, timeoutMs, apiKey };
    this.#maxTokens = options.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
    this.#body = { ...options.body };
  }

  /**
   * Loads the `@anthropic-ai/sdk` package now instead of at the first request, so that a
   * missing one is reported before any work starts. Requests load it themselves; calling this
   * is optional.
   * @throws {MissingDependencyError} when the `@anthropic-ai/sdk` package is not installed.
   */
  async loadSdk(): Promise<void> {
    await this.#loadClient();
  }

  // The SDK is loaded here, not at import, so that `planmode/agent` costs nothing for a user of
  // another provider, and works without the package installed.
  #loadClient(): Promise<Anthropic> {
    this.#client ??= importOptional(
      '@anthropic-ai/sdk',
      `the ${this.name} provider`,
      () => import('@anthropic-ai/sdk'),
    ).then((sdk) => {
      this.#sdk = sdk.default;
      return new sdk.default(this.#clientOptions);
    });
    // A failed load is not kept, so that installing the package mid-session is enough.
    this.#client.catch(() => (this.#client = undefined));
    return this.#client;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    // Built now, so a caller that changes its arrays after the call does not change the request.
    const body = toMessagesRequest(request, {
      model: this.model,
      maxTokens: this.#maxTokens,
      body: this.#body,
    });
    return this.#stream(body, request.signal, request.maxToolCalls);
  }

  async *#stream(
    body: ReturnType<typeof toMessagesRequest>,
    signal: AbortSignal | undefined,
    maxToolCalls: number | undefined,
  ): AsyncGenerator<ModelStreamEvent> {
    signal?.throwIfAborted();
    const client = await this.#loadClient();
    try {
      const events = await client.messages.create(body, signal ? { signal } : undefined);
      yield* readMessagesStream(events, this.name, maxToolCalls);
    } catch (error) {
      // The SDK ends an aborted stream quietly; readMessagesStream then throws for the missing
      // turn, and the abort's reason is what the caller should see.
      signal?.throwIfAborted();
      throw toModelProviderError(error, { ...this.#errors, sdk: this.#sdk! });
    }
  }

  toString(): string {
    return this.name;
  }

  toJSON(): { name: string; baseURL: string } {
    return { name: this.name, baseURL: showURL(this.baseURL) };
  }
}
