/**
 * An unknown option is a TypeError that names it and lists the options, in every entry point
 * that takes an options object: a typo (`concurency`) never runs with the default in silence.
 */
import { describe, expect, it } from 'vitest';
import {
  AnthropicProvider,
  OpenAICompatibleProvider,
  PlanAgent,
  ScriptedProvider,
  createProvider,
} from '../src/agent/index.js';
import { compile, run, simulate, startRun } from '../src/index.js';

const tools = [{ name: 'noop', execute: () => 1 }];
const plan = [{ _tool: 'noop', _outputPath: '†state.x' }];
const provider = new ScriptedProvider({ turns: [] });
const typo = { concurency: 4 } as unknown as Record<string, never>;

describe('unknown options are refused by name', () => {
  const cases: [string, () => unknown][] = [
    ['compile', () => compile(plan, { tools, ...typo })],
    ['simulate', () => simulate(plan, { tools, ...typo })],
    ['createProvider', () => createProvider('scripted:x', typo)],
    ['OpenAICompatibleProvider', () => new OpenAICompatibleProvider({ model: 'm', apiKey: 'k', ...typo })],
    ['AnthropicProvider', () => new AnthropicProvider({ model: 'm', apiKey: 'k', ...typo })],
    ['ScriptedProvider', () => new ScriptedProvider({ turns: [], ...typo })],
    ['PlanAgent', () => new PlanAgent({ provider, tools, ...typo })],
  ];
  for (const [name, call] of cases) {
    it(name, () => {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(
        /unknown option "concurency"; the options are .*\b(tools|turns|model|baseURL|provider)\b/,
      );
    });
  }

  it('run and startRun', async () => {
    await expect(run(plan, { tools, ...typo })).rejects.toThrow(/^run: unknown option "concurency"/);
    expect(() => startRun(plan, { tools, ...typo })).toThrow(/^run: unknown option "concurency"/);
  });

  it('PlanAgent.solve (solve())', async () => {
    await expect(new PlanAgent({ provider, tools }).solve('task', { ...typo })).rejects.toThrow(
      /unknown option "concurency"/,
    );
  });

  it('a key the options do have still passes', async () => {
    expect(compile(plan, { tools, strict: false }).ok).toBe(true);
    expect((await run(plan, { tools, concurrency: 2 })).status).toBe('succeeded');
  });
});
