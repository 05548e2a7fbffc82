/** A provider from one `<provider>:<model>` string, for the CLI's `--model`. */
import { optionKeys, rejectUnknownOptions } from '../../language/option-keys.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PLAN_SCHEMA_FORMATS } from '../../compile/plan-schema/index.js';
import type { ModelProvider, PlanSchemaFormat } from '../model.js';
import { AnthropicProvider } from './anthropic.js';
import { OpenAICompatibleProvider } from './openai.js';
import {
  checkChoice,
  checkInteger,
  checkOptionsObject,
  checkRecord,
  checkURL,
  type Environment,
  show,
} from './options.js';
import { ScriptedProvider, type ScriptedTurn } from './scripted.js';

/** The provider names {@link createProvider} knows. */
export const PROVIDER_NAMES = ['openai', 'anthropic', 'scripted'] as const;

export interface CreateProviderOptions {
  /**
   * Where the API is, for `openai:` (a vLLM, Ollama or llama.cpp server: then no key is
   * required) or `anthropic:`.
   * @default env.OPENAI_BASE_URL / env.ANTHROPIC_BASE_URL, else the vendor's API
   */
  readonly baseURL?: string;
  /**
   * Where API keys and base URLs are read: `OPENAI_API_KEY`, `OPENAI_BASE_URL`,
   * `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`.
   * @default process.env
   */
  readonly env?: Environment;
  /**
   * Retries of a failed request (see the providers' `maxRetries`).
   * @default 2
   */
  readonly maxRetries?: number;
  /**
   * Milliseconds to wait for an answer to begin.
   * @default 600000
   */
  readonly timeoutMs?: number;
  /**
   * The form of the plan schema `solve()` sends, for `openai:` (`grammar` for llama.cpp's
   * `llama-server` or vLLM) and `scripted:` (see ModelProvider.schemaFormat).
   * @default the provider's own: 'json-schema'
   */
  readonly schemaFormat?: PlanSchemaFormat;
  /**
   * The directory a `scripted:` file is resolved from.
   * @default process.cwd()
   */
  readonly cwd?: string;
}

/**
 * Builds a provider from a spec:
 *
 * - `openai:<model>`: Chat Completions (`openai:gpt-4o`; `openai:llama3.1` with the base URL of
 *   an Ollama server);
 * - `anthropic:<model>`: the Messages API (`anthropic:claude-sonnet-4-6`);
 * - `scripted:<file>`: a {@link ScriptedProvider} playing the turns in a JSON file, either an
 *   array of turns or `{ "turns": [...] }` (replies `{ text?, toolCalls? }` or event arrays),
 *   for demos without a network.
 *
 * Only the text up to the first `:` names the provider, so model names may contain `:`
 * (`openai:qwen2.5:7b`).
 *
 * @throws {TypeError} for a spec without a provider or a model, an unknown provider, bad options,
 *   or a scripted file that cannot be read or has the wrong shape.
 * @throws {ModelProviderError} when the provider needs an API key and none is set.
 */
const CREATE_PROVIDER_OPTIONS = optionKeys<CreateProviderOptions>({
  baseURL: true,
  env: true,
  maxRetries: true,
  timeoutMs: true,
  schemaFormat: true,
  cwd: true,
});

export function createProvider(spec: string, options: CreateProviderOptions = {}): ModelProvider {
  if (typeof spec !== 'string')
    throw new TypeError(`createProvider: the spec must be a string, not ${show(spec)}`);
  checkOptionsObject('createProvider', options);
  rejectUnknownOptions('createProvider', options, CREATE_PROVIDER_OPTIONS);
  checkURL('createProvider', 'baseURL', options.baseURL);
  checkRecord('createProvider', 'env', options.env);
  checkInteger('createProvider', 'maxRetries', options.maxRetries, 0);
  checkInteger('createProvider', 'timeoutMs', options.timeoutMs, 1);
  checkChoice('createProvider', 'schemaFormat', options.schemaFormat, PLAN_SCHEMA_FORMATS);
  const colon = spec.indexOf(':');
  const provider = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  const model = colon < 0 ? '' : spec.slice(colon + 1).trim();
  const known = PROVIDER_NAMES.join(', ');
  if (provider === '') {
    throw new TypeError(
      `createProvider: ${show(spec)} names no provider: write <provider>:<model>, one of ${known}`,
    );
  }
  if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw new TypeError(
      `createProvider: unknown provider ${show(provider)} in ${show(spec)}: use one of ${known}`,
    );
  }
  if (model === '') {
    const example = provider === 'scripted' ? 'scripted:turns.json' : `${provider}:<model>`;
    throw new TypeError(
      `createProvider: ${show(spec)} names no ${provider === 'scripted' ? 'file' : 'model'}: write ${example}`,
    );
  }
  const common = {
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const { schemaFormat } = options;
  switch (provider) {
    case 'openai':
      return new OpenAICompatibleProvider({ model, ...common, ...(schemaFormat && { schemaFormat }) });
    case 'anthropic':
      // Anthropic's structured outputs take the object form the provider makes itself.
      if (schemaFormat !== undefined)
        throw new TypeError(
          'createProvider: schemaFormat is for openai: and scripted: providers, not anthropic:',
        );
      return new AnthropicProvider({ model, ...common });
    default: {
      const turns = readTurns(resolve(options.cwd ?? process.cwd(), model));
      return new ScriptedProvider({ turns, model, ...(schemaFormat && { schemaFormat }) });
    }
  }
}

function readTurns(file: string): ScriptedTurn[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TypeError(`createProvider: cannot read the script ${file}: ${(error as Error).message}`);
  }
  const turns = Array.isArray(value) ? value : (value as { turns?: unknown } | null)?.turns;
  if (!Array.isArray(turns)) {
    throw new TypeError(`createProvider: the script ${file} must be an array of turns or { "turns": [...] }`);
  }
  return turns as ScriptedTurn[];
}
