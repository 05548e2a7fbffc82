/**
 * Chat Completions through the official `openai` SDK: OpenAI itself, and with `baseURL` any
 * server that speaks the same API (vLLM, Ollama, llama.cpp's server, LM Studio, ...).
 */
import { optionKeys, rejectUnknownOptions } from '../../language/option-keys.js';
import type OpenAI from 'openai';
import { ModelProviderError } from '../../errors.js';
import { importOptional } from '../../optional-dependencies.js';
import { PLAN_SCHEMA_FORMATS } from '../../compile/plan-schema/index.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent, PlanSchemaFormat } from '../model.js';
import { type ErrorContext, toModelProviderError } from './api-error.js';
import { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES } from './reply-bytes.js';
import {
  checkApiKey,
  checkBoolean,
  checkChoice,
  checkInteger,
  checkOptionsObject,
  checkRecord,
  checkString,
  checkURL,
  type Environment,
  showURL,
} from './options.js';
import { toChatRequest } from './openai-request.js';
import { readChatStream } from './openai-stream.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** Sent when no key is needed (a local server) and none is set: the SDK insists on one. */
const NO_KEY = 'no-key';

const OPENAI_OPTIONS = optionKeys<OpenAICompatibleProviderOptions>({
  model: true,
  apiKey: true,
  baseURL: true,
  requireApiKey: true,
  maxRetries: true,
  timeoutMs: true,
  strict: true,
  schemaFormat: true,
  maxResponseBytes: true,
  body: true,
  env: true,
});

export interface OpenAICompatibleProviderOptions {
  /** The model, as the server names it (`gpt-4o`, `Qwen/Qwen2.5-7B-Instruct`, `llama3.1`, ...). */
  readonly model: string;
  /**
   * The API key, sent as `Authorization: Bearer <key>`. Never printed: not in messages, errors,
   * `String(provider)` or `JSON.stringify(provider)`.
   * @default env.OPENAI_API_KEY
   */
  readonly apiKey?: string;
  /**
   * Where the API is: `http://localhost:8000/v1` for vLLM, `http://localhost:11434/v1` for
   * Ollama, `http://localhost:8080/v1` for llama.cpp's server.
   * @default env.OPENAI_BASE_URL, else 'https://api.openai.com/v1'
   */
  readonly baseURL?: string;
  /**
   * Whether a missing key is an error when the provider is built. Local servers usually need
   * none; then a placeholder is sent, since the SDK always sends one.
   * @default true without a baseURL option, false with one
   */
  readonly requireApiKey?: boolean;
  /**
   * Retries of a request that failed with 408, 409, 429, 5xx or a connection error, with the
   * SDK's backoff (and its `retry-after` handling). Only the request is retried, never a
   * stream that has begun.
   * @default 2
   */
  readonly maxRetries?: number;
  /**
   * Milliseconds to wait for an answer to begin before the request fails (and is retried).
   * @default 600000
   */
  readonly timeoutMs?: number;
  /**
   * Sends `strict: true` with a response format, so OpenAI enforces the schema exactly. The
   * schema must then follow OpenAI's strict subset (every property required,
   * `additionalProperties: false`), or the API answers 400; `solve()` sends its plan schema in
   * that form when this is on.
   * @default false
   */
  readonly strict?: boolean;
  /**
   * The form of the plan schema `solve()` sends (see ModelProvider.schemaFormat): `grammar` for
   * a grammar-based engine behind the API (llama.cpp's `llama-server`, vLLM), which then
   * enforces every reference pattern. With `strict`, only `openai-strict` may be given.
   * @default 'openai-strict' with strict, else 'json-schema'
   */
  readonly schemaFormat?: PlanSchemaFormat;
  /**
   * Most bytes of one HTTP response body (the SSE stream, framing included), counted as they
   * come off the socket: a server that streams forever or sends an enormous body is cut there
   * (a ReplyTooLargeError) before the SDK buffers or parses more of it.
   * @default DEFAULT_MAX_RESPONSE_BYTES (64 MiB)
   */
  readonly maxResponseBytes?: number;
  /**
   * More request body fields for every request: `temperature`, `max_completion_tokens`,
   * `seed`, `reasoning_effort`, a server's own extensions. The fields the provider sets
   * (model, messages, tools, response_format, stream, stream_options) win.
   * @default {}
   */
  readonly body?: Readonly<Record<string, unknown>>;
  /**
   * Where `OPENAI_API_KEY` and `OPENAI_BASE_URL` are read.
   * @default process.env
   */
  readonly env?: Environment;
}

const WHERE = 'OpenAICompatibleProvider';

export class OpenAICompatibleProvider implements ModelProvider {
  readonly name: string;
  readonly model: string;
  readonly baseURL: string;
  readonly #clientOptions: ConstructorParameters<typeof OpenAI>[0];
  #client: Promise<OpenAI> | undefined;
  readonly #errors: Omit<ErrorContext, 'sdk'>;
  #sdk: ErrorContext['sdk'] | undefined;
  readonly #strict: boolean;
  /** See ModelProvider.schemaFormat. */
  readonly schemaFormat: PlanSchemaFormat;
  readonly #body: Readonly<Record<string, unknown>>;

  /** @throws {ModelProviderError} when a key is required and none is set. */
  constructor(options: OpenAICompatibleProviderOptions) {
    checkOptionsObject(WHERE, options);
    rejectUnknownOptions(WHERE, options, OPENAI_OPTIONS);
    checkString(WHERE, 'model', options.model, false);
    checkApiKey(WHERE, options.apiKey);
    checkURL(WHERE, 'baseURL', options.baseURL);
    checkBoolean(WHERE, 'requireApiKey', options.requireApiKey);
    checkInteger(WHERE, 'maxRetries', options.maxRetries, 0);
    checkInteger(WHERE, 'timeoutMs', options.timeoutMs, 1);
    checkInteger(WHERE, 'maxResponseBytes', options.maxResponseBytes, 1);
    checkBoolean(WHERE, 'strict', options.strict);
    checkChoice(WHERE, 'schemaFormat', options.schemaFormat, PLAN_SCHEMA_FORMATS);
    if (options.strict === true && (options.schemaFormat ?? 'openai-strict') !== 'openai-strict') {
      // OpenAI's strict mode answers 400 to a schema outside its subset (oneOf, unlisted keys).
      throw new TypeError(
        `${WHERE}: strict needs schemaFormat 'openai-strict', not '${options.schemaFormat}'; leave out one of them`,
      );
    }
    checkRecord(WHERE, 'body', options.body);
    checkRecord(WHERE, 'env', options.env);
    const env = options.env ?? process.env;
    this.model = options.model;
    this.name = `openai:${options.model}`;
    this.baseURL = options.baseURL ?? (env.OPENAI_BASE_URL || OPENAI_DEFAULT_BASE_URL);
    const apiKey = options.apiKey ?? (env.OPENAI_API_KEY || undefined);
    if (apiKey === undefined && (options.requireApiKey ?? options.baseURL === undefined)) {
      throw new ModelProviderError(
        `${this.name}: no API key: set OPENAI_API_KEY, or pass apiKey (for a local server that needs none, requireApiKey: false)`,
        { provider: this.name },
      );
    }
    const timeoutMs = options.timeoutMs ?? 600_000;
    this.#clientOptions = {
      apiKey: apiKey ?? NO_KEY,
      baseURL: this.baseURL,
      maxRetries: options.maxRetries ?? 2,
      timeout: timeoutMs,
      fetch: boundedFetch(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, this.name),
      // Errors reach the caller as ModelProviderErrors; the SDK's own logging would print
      // unreadable chunks to stderr beside them.
      logLevel: 'off',
    };
    this.#errors = { provider: this.name, baseURL: this.baseURL, timeoutMs, apiKey: apiKey ?? '' };
    this.#strict = options.strict ?? false;
    this.schemaFormat = options.schemaFormat ?? (this.#strict ? 'openai-strict' : 'json-schema');
    this.#body = { ...options.body };
  }

  /** With `strict`, a response format's schema is enforced exactly (see ModelProvider). */
  get strictSchemas(): boolean {
    return this.#strict;
  }

  /**
   * Loads the `openai` package now instead of at the first request, so that a missing one is
   * reported before any work starts. Requests load it themselves; calling this is optional.
   * @throws {MissingDependencyError} when the `openai` package is not installed.
   */
  async loadSdk(): Promise<void> {
    await this.#loadClient();
  }

  // The SDK is loaded here, not at import, so that `planmode/agent` costs nothing for a user of
  // another provider, and works without the package installed.
  #loadClient(): Promise<OpenAI> {
    this.#client ??= importOptional('openai', `the ${this.name} provider`, () => import('openai')).then(
      (sdk) => {
        this.#sdk = sdk.default;
        return new sdk.default(this.#clientOptions);
      },
    );
    // A failed load is not kept, so that installing the package mid-session is enough.
    this.#client.catch(() => (this.#client = undefined));
    return this.#client;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    // Built now, so a caller that changes its arrays after the call does not change the request.
    const body = toChatRequest(request, { model: this.model, strict: this.#strict, body: this.#body });
    return this.#stream(body, request.signal, request.maxToolCalls);
  }

  async *#stream(
    body: ReturnType<typeof toChatRequest>,
    signal: AbortSignal | undefined,
    maxToolCalls: number | undefined,
  ): AsyncGenerator<ModelStreamEvent> {
    signal?.throwIfAborted();
    const client = await this.#loadClient();
    try {
      const chunks = await client.chat.completions.create(body, signal ? { signal } : undefined);
      yield* readChatStream(chunks, this.name, maxToolCalls);
    } catch (error) {
      // The SDK ends an aborted stream quietly; readChatStream then throws for the missing
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
