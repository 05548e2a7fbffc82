import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { complete } from '../../../src/agent/complete.js';
import {
  AnthropicProvider,
  createProvider,
  OpenAICompatibleProvider,
  ScriptedProvider,
} from '../../../src/agent/providers/index.js';
import { ModelProviderError } from '../../../src/errors.js';

const OPENAI_KEY = 'sk-proj-create-test-SECRET';
const ANTHROPIC_KEY = 'sk-ant-create-test-SECRET';
const env = { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY };

describe('createProvider', () => {
  it('builds the provider the spec names, with keys from env that never show', () => {
    const openai = createProvider('openai:gpt-4o', { env });
    expect(openai).toBeInstanceOf(OpenAICompatibleProvider);
    expect(openai.name).toBe('openai:gpt-4o');
    const anthropic = createProvider('anthropic:claude-sonnet-4-6', { env });
    expect(anthropic).toBeInstanceOf(AnthropicProvider);
    expect(anthropic.name).toBe('anthropic:claude-sonnet-4-6');
    for (const provider of [openai, anthropic]) {
      for (const text of [String(provider), JSON.stringify(provider), inspect(provider, { depth: 10 })]) {
        expect(text).not.toContain(OPENAI_KEY);
        expect(text).not.toContain(ANTHROPIC_KEY);
      }
    }
  });

  it('keeps colons after the first in the model name, and passes the base URL on', () => {
    const local = createProvider('openai:qwen2.5:7b', { baseURL: 'http://127.0.0.1:11434/v1', env: {} });
    expect(local.name).toBe('openai:qwen2.5:7b');
    expect((local as OpenAICompatibleProvider).baseURL).toBe('http://127.0.0.1:11434/v1');
  });

  it('says which key is missing, without a key in sight', () => {
    expect(() => createProvider('openai:gpt-4o', { env: {} })).toThrow(ModelProviderError);
    expect(() => createProvider('openai:gpt-4o', { env: {} })).toThrow(/set OPENAI_API_KEY/);
    expect(() => createProvider('anthropic:claude-haiku-4-5', { env: {} })).toThrow(/set ANTHROPIC_API_KEY/);
  });

  it('rejects a spec without a provider or a model, or with an unknown provider', () => {
    expect(() => createProvider('gpt-4o', { env })).toThrow(
      new TypeError(
        'createProvider: unknown provider "gpt-4o" in "gpt-4o": use one of openai, anthropic, scripted',
      ),
    );
    expect(() => createProvider('mistral:large', { env })).toThrow(/unknown provider "mistral"/);
    expect(() => createProvider(':gpt-4o', { env })).toThrow(/":gpt-4o" names no provider/);
    expect(() => createProvider('openai:', { env })).toThrow(
      new TypeError('createProvider: "openai:" names no model: write openai:<model>'),
    );
    expect(() => createProvider('anthropic:  ', { env })).toThrow(/names no model/);
    expect(() => createProvider('openai:gpt-4o', { env, baseURL: 'ftp://x' })).toThrow(
      /baseURL must be an http/,
    );
  });

  it('scripted:<file> plays the turns in a JSON file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'planmode-scripted-'));
    writeFileSync(join(dir, 'demo.json'), JSON.stringify({ turns: [{ text: 'Hello from the script.' }] }));
    writeFileSync(join(dir, 'bare.json'), JSON.stringify([{ toolCalls: [{ name: 'now' }] }]));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ turns: [{ text: 7 }] }));
    writeFileSync(join(dir, 'broken.json'), '{ "turns": [');
    const demo = createProvider('scripted:demo.json', { cwd: dir });
    expect(demo).toBeInstanceOf(ScriptedProvider);
    expect(demo.name).toBe('scripted:demo.json');
    expect(
      (await complete(demo, { messages: [{ role: 'user', content: 'hi' }], tools: [] })).message.content,
    ).toBe('Hello from the script.');
    const bare = createProvider(`scripted:${join(dir, 'bare.json')}`);
    expect((await complete(bare, { messages: [], tools: [] })).stopReason).toBe('tool_calls');
    expect(() => createProvider('scripted:bad.json', { cwd: dir })).toThrow(
      /turns\[0\]\.text must be a string, not 7/,
    );
    expect(() => createProvider('scripted:broken.json', { cwd: dir })).toThrow(
      /cannot read the script .*broken\.json/,
    );
    expect(() => createProvider('scripted:missing.json', { cwd: dir })).toThrow(
      /cannot read the script .*ENOENT/,
    );
    expect(() => createProvider('scripted:', { cwd: dir })).toThrow(
      /names no file: write scripted:turns\.json/,
    );
  });
});
