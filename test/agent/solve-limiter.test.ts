/**
 * One quota across a process: a plain run, a solve() given the limiter as its option, and a
 * PlanAgent made with it (its solve() given none) all keep the same limiter's quota together.
 * Real timers, as the limiter's own tests: each call takes a moment, so that the three would
 * overlap if each kept a quota of its own.
 */
import { describe, expect, it } from 'vitest';
import { PlanAgent, ScriptedProvider } from '../../src/agent/index.js';
import { createLimiter, run, type Tool } from '../../src/index.js';

const json = (value: unknown) => ({ text: JSON.stringify(value) });

/**
 * A search limited to one call at a time, counting how many run at once across everyone. With
 * `holdUntil`, each call waits until that many run at once (then all go on), instead of a moment.
 */
function countedSearch(holdUntil?: number): { tool: Tool; most: () => number; calls: () => number } {
  let running = 0;
  let most = 0;
  let calls = 0;
  let release!: () => void;
  const together = new Promise<void>((resolve) => (release = resolve));
  const tool: Tool = {
    name: 'search',
    concurrency: 1,
    inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    outputSchema: { type: 'object', properties: { hit: { type: 'string' } } },
    annotations: { readOnlyHint: true },
    execute: async (args) => {
      running++;
      calls++;
      most = Math.max(most, running);
      if (holdUntil === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      else {
        if (running >= holdUntil) release();
        await together;
      }
      running--;
      return { hit: String(args.q) };
    },
  };
  return { tool, most: () => most, calls: () => calls };
}

const searches = (who: string) =>
  ['a', 'b', 'c'].map((q) => ({ _id: `${who}-${q}`, _tool: 'search', q, _outputPath: `†state.${q}` }));

/** A model that answers with three searches, then with the output. */
const model = (who: string) =>
  new ScriptedProvider({
    turns: [json({ calls: searches(who), output: null }), json({ calls: [], output: who })],
  });

describe('a limiter shared by run(), solve() and a PlanAgent', () => {
  it('holds one quota across all three: never two searches at once', async () => {
    const search = countedSearch();
    const limiter = createLimiter();
    const tools = [search.tool];
    const [plain, solved, agent] = await Promise.all([
      run(searches('run'), { tools, limiter }),
      new PlanAgent({ provider: model('solve'), tools }).solve('find a, b, c', { limiter }),
      new PlanAgent({ provider: model('agent'), tools, limiter }).solve('find a, b, c'),
    ]);
    expect(plain.status).toBe('succeeded');
    expect(solved).toMatchObject({ status: 'done', output: 'solve' });
    expect(agent).toMatchObject({ status: 'done', output: 'agent' });
    expect(search.calls()).toBe(9);
    expect(search.most()).toBe(1);
  });

  it('without the shared limiter, each keeps its own quota: the same three overlap', async () => {
    // The counterpart that shows the first test could fail: the same runs, a limiter each.
    // Each search is held until all three runs have one running: only three quotas can get there.
    const search = countedSearch(3);
    const tools = [search.tool];
    await Promise.all([
      run(searches('run'), { tools }),
      new PlanAgent({ provider: model('solve'), tools }).solve('find a, b, c'),
      new PlanAgent({ provider: model('agent'), tools }).solve('find a, b, c'),
    ]);
    expect(search.calls()).toBe(9);
    expect(search.most()).toBe(3);
  });

  it('a limiter that is not one is a TypeError naming the option', () => {
    expect(() => new PlanAgent({ provider: model('x'), tools: [], limiter: {} as never })).toThrow(
      /PlanAgent: limiter must be a limiter made by createLimiter\(\), not/,
    );
  });
});
