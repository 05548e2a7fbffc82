/**
 * `npm run bench:latency` divides each method's time by a bound computed from the model's pace
 * and the tools' latencies, and plays the methods' replies through a loopback Chat Completions
 * server. Its arithmetic is checked exactly here (no clock), and its server is checked to say,
 * through planmode's own OpenAI-compatible provider, exactly what each method's model says.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repliesOf } from '../../bench/latency-methods.js';
import { FINAL_SOLUTION, type PlayedPlan, preparePlan, sampleOf } from '../../bench/latency-plans.js';
import { type ModelServer, startModelServer } from '../../bench/latency-server.js';
import {
  boundOf,
  chunkCarrying,
  chunkEnds,
  levelsOf,
  type ModelPace,
  msAtChars,
  wholeReplyBoundOf,
} from '../../bench/latency-timeline.js';
import { complete, createProvider } from '../../src/agent/index.js';
import { importPlans } from '../../src/import/index.js';

const CORPUS = resolve(import.meta.dirname, '../corpora/nestools/test_data.part1.jsonl');
/** 100 tokens/s: 400 characters a second, 2.5 ms a character. */
const PACE: ModelPace = { firstTokenMs: 300, tokensPerSecond: 100, chunkChars: 4 };
const LATENCY = { minMs: 50, maxMs: 500 } as const;

describe('the model pace', () => {
  it('puts a character position at the first token plus its share of the rate', () => {
    expect(msAtChars(PACE, 0)).toBe(300);
    expect(msAtChars(PACE, 400)).toBe(1300);
  });

  it('sends a chunk every chunkChars characters and one at the end', () => {
    expect(chunkEnds(10, 4)).toEqual([4, 8, 10]);
    expect(chunkEnds(8, 4)).toEqual([4, 8]);
    expect(chunkEnds(0, 4)).toEqual([0]);
    // A character arrives with the chunk that carries it.
    expect(chunkCarrying(5, 10, 4)).toBe(8);
    expect(chunkCarrying(8, 10, 4)).toBe(8);
    expect(chunkCarrying(9, 10, 4)).toBe(10);
  });
});

describe('the bound', () => {
  it('starts each call at the later of its text arriving and the end of what it reads', () => {
    // a closes at 40 (400 ms), takes 100; b closes at 80 (500 ms) and reads a (ends 500);
    // c closes at 120 (600 ms) and reads b (ends 500 + 300 = 800). The reply is 160 characters.
    const calls = [
      { closesAt: 40, after: [], latencyMs: 100 },
      { closesAt: 80, after: [0], latencyMs: 300 },
      { closesAt: 120, after: [1], latencyMs: 50 },
    ];
    const bound = boundOf(calls, [0, 1, 2], 160, 28, PACE);
    expect(bound.startsMs).toEqual([400, 500, 800]);
    expect(bound.planEndMs).toBe(850);
    expect(bound.finalTurnMs).toBe(300 + 28 * 2.5);
    expect(bound.totalMs).toBe(850 + 370);
  });

  it('without streaming, starts no call before the whole reply has arrived', () => {
    // The calls of the first case, all waiting for the reply's end (160 characters: 700 ms).
    const calls = [
      { closesAt: 40, after: [], latencyMs: 100 },
      { closesAt: 80, after: [0], latencyMs: 300 },
      { closesAt: 120, after: [1], latencyMs: 50 },
    ];
    const bound = wholeReplyBoundOf(calls, [0, 1, 2], 160, 28, PACE);
    expect(bound.startsMs).toEqual([700, 800, 1100]);
    expect(bound.totalMs).toBe(1150 + 370);
  });

  it('waits for the chunk carrying a call, and ends the plan no earlier than the reply', () => {
    const bound = boundOf([{ closesAt: 41, after: [], latencyMs: 10 }], [0], 400, 0, PACE);
    // Character 41 comes with the chunk ending at 44; the reply ends at 1300 ms.
    expect(bound.startsMs).toEqual([300 + 44 * 2.5]);
    expect(bound.planEndMs).toBe(1300);
  });
});

describe('the turns of parallel function calling', () => {
  it('are the dependency levels, each in plan order', () => {
    // 0 and 2 read nothing; 1 reads 0; 3 reads 1 and 2; 4 reads 2.
    const after = [[], [0], [], [1, 2], [2]];
    expect(levelsOf(after, [0, 2, 1, 4, 3])).toEqual([[0, 2], [1, 4], [3]]);
  });
});

describe('a seeded sample of plans', () => {
  it('is the same for the same seed, in corpus order, and all of the pool when asked for more', () => {
    const pool = Array.from({ length: 50 }, (_, i) => i);
    const first = sampleOf(pool, 10, 1);
    expect(sampleOf(pool, 10, 1)).toEqual(first);
    expect(new Set(first).size).toBe(10);
    expect([...first].sort((a, b) => a - b)).toEqual(first);
    expect(sampleOf(pool, 10, 2)).not.toEqual(first);
    expect(sampleOf(pool, 80, 1)).toEqual(pool);
  });
});

describe('the loopback model plays each method through the OpenAI-compatible provider', () => {
  let server: ModelServer;
  let plan: PlayedPlan;
  /** nestools-3: three calls that read nothing of each other. */
  let wide: PlayedPlan;
  // Fast, so the test does not wait on the pace: nothing here depends on when chunks arrive.
  const fast: ModelPace = { firstTokenMs: 0, tokensPerSecond: 1_000_000, chunkChars: 7 };

  beforeAll(async () => {
    server = await startModelServer();
    const text = readFileSync(CORPUS, 'utf8').split('\n').slice(0, 3).join('\n');
    const [first, , third] = await Promise.all(
      importPlans('nestools', text).samples.map((sample) =>
        preparePlan(sample, { seed: 1, latency: LATENCY }),
      ),
    );
    for (const prepared of [first, third])
      if (!prepared || !('calls' in prepared)) throw new Error(String(prepared));
    plan = first as PlayedPlan;
    wide = third as PlayedPlan;
  });
  afterAll(() => server.close());

  /** The turns the provider reads for `method`'s replies, in order. */
  async function play(method: Parameters<typeof repliesOf>[0], played = plan) {
    const replies = repliesOf(method, played);
    const name = `${played.id}/${method}`;
    server.play(name, { pace: fast, replies });
    const provider = createProvider(`openai:${name}`, { baseURL: server.baseURL, maxRetries: 0, env: {} });
    const turns = [];
    for (let i = 0; i < replies.length; i++)
      turns.push(
        (await complete(provider, { messages: [{ role: 'user', content: 'go' }], tools: [] })).message,
      );
    expect(server.finish(name)).toBe(replies.length);
    return turns;
  }

  it('nestools-1 is a chain of three calls laid out in the solution', () => {
    expect(plan.calls.map((c) => c.tool)).toEqual(['scan_isbn', 'locate_book', 'engage_ar_experience']);
    expect(plan.levels).toEqual([[0], [1], [2]]);
    for (const call of plan.calls)
      expect(plan.solution.slice(0, call.closesAt).endsWith(call.text)).toBe(true);
    expect(JSON.parse(plan.solution)).toMatchObject({ output: null });
  });

  it('planmode: the solution, then the final answer, as text', async () => {
    const turns = await play('eager');
    expect(turns.map((t) => t.content)).toEqual([plan.solution, FINAL_SOLUTION]);
  });

  it('ReAct: one native call per turn with the concrete arguments, then the answer', async () => {
    const turns = await play('react');
    expect(turns.map((t) => (t.toolCalls ?? []).map((c) => [c.name, c.arguments]))).toEqual([
      ...plan.order.map((i) => [[plan.calls[i]!.tool, plan.calls[i]!.args]]),
      [],
    ]);
    expect(turns.at(-1)!.content).toBe('done');
  });

  it('parallel function calling: a turn per level, each call named and whole', async () => {
    const turns = await play('parallel');
    expect(turns.map((t) => (t.toolCalls ?? []).map((c) => c.id))).toEqual([
      ['call_1'],
      ['call_2'],
      ['call_3'],
      [],
    ]);
    expect(turns.flatMap((t) => (t.toolCalls ?? []).map((c) => c.arguments))).toEqual(
      plan.calls.map((c) => c.args),
    );
    // Three calls that read nothing of each other: one turn makes all three.
    expect(wide.levels).toEqual([[0, 1, 2]]);
    const [all, answer] = await play('parallel', wide);
    expect((all!.toolCalls ?? []).map((c) => [c.id, c.name, c.arguments])).toEqual(
      wide.calls.map((c, i) => [`call_${i + 1}`, c.tool, c.args]),
    );
    expect(answer!.toolCalls).toBeUndefined();
  });

  it('a request past the session is refused, not answered', async () => {
    const provider = createProvider('openai:nobody', { baseURL: server.baseURL, maxRetries: 0, env: {} });
    await expect(
      complete(provider, { messages: [{ role: 'user', content: 'go' }], tools: [] }),
    ).rejects.toThrow(/no reply left/);
  });
});
