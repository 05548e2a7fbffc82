/**
 * Quotas and workflows: a workflow call that holds a slot of a concurrency-limited group while
 * its sub-plan waits for a slot of the same group would wait forever; such a run does not start.
 * Without a check these runs never settle: each test bounds its wait, so a hang fails it.
 */
import { describe, expect, it } from 'vitest';
import { createLimiter, run, type Tool } from '../../src/index.js';

/** How long a test waits for the run to settle before it counts as hung. */
const HUNG_AFTER_MS = 5000;

/** The run's outcome, or 'hung' when it did not settle within HUNG_AFTER_MS. */
async function settled(result: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise((resolve) => (timer = setTimeout(() => resolve('hung'), HUNG_AFTER_MS)));
  try {
    return await Promise.race([
      result.then(
        (r) => ({ ran: r }),
        (e: unknown) => ({ threw: e }),
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const search: Tool = {
  name: 'search',
  quotaGroup: 'api',
  concurrency: 1,
  execute: async (args) => ({ hit: args.q }),
};

const workflow = (quota: Partial<Tool>): Tool => ({
  name: 'research',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  plan: [{ _id: 'find', _tool: 'search', q: '†input.q', _outputPath: '†state.found' }],
  output: '†state.found',
  ...quota,
});

describe('a workflow and a tool inside it in one concurrency-limited group', () => {
  it('is refused before any call starts, naming both and the group (it would wait for itself forever)', async () => {
    const outcome = await settled(
      run([{ _id: 'r', _tool: 'research', q: 'x' }], {
        tools: [search, workflow({ quotaGroup: 'api', concurrency: 1 })],
      }),
    );
    expect(outcome).not.toBe('hung');
    const error = (outcome as { threw?: unknown }).threw;
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /workflow 'research' .* its plan calls 'search', and both are in group 'api' \(concurrency 1\); .* Give 'research' a quotaGroup of its own/,
    );
  });

  it('through a workflow in between, and with the group set by a shared limiter', async () => {
    const outer: Tool = {
      name: 'survey',
      plan: [{ _id: 'one', _tool: 'research', q: 'y', _outputPath: '†state.one' }],
      output: '†state.one',
    };
    const limiter = createLimiter({ quotas: { survey: { concurrency: 2 }, search: { concurrency: 2 } } });
    const tools = [{ ...search, quotaGroup: 'survey', concurrency: undefined }, workflow({}), outer];
    const outcome = await settled(run([{ _id: 's', _tool: 'survey' }], { tools, limiter }));
    expect((outcome as { threw?: Error }).threw?.message).toMatch(
      /workflow 'survey' .* calls 'search' \(through 'research'\), and both are in group 'survey' \(concurrency 2\)/,
    );
  });

  it('a workflow in a group of its own runs: its calls and its sub-plan’s are limited apart', async () => {
    const outcome = await settled(
      run(
        [
          { _id: 'a', _tool: 'research', q: 'x', _outputPath: '†state.a' },
          { _id: 'b', _tool: 'research', q: 'y', _outputPath: '†state.b' },
        ],
        { tools: [search, workflow({ concurrency: 1 })] },
      ),
    );
    const result = (outcome as { ran: { status: string; state: unknown } }).ran;
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ a: { hit: 'x' }, b: { hit: 'y' } });
  });
});
