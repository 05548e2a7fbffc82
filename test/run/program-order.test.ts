/**
 * Effects follow program order at run time: the refund walkthrough's history check never sees
 * the refund, whatever the tools' timing, in whole plans (compiled with the run's tools, without
 * tools, or with others), streamed plans and remote runs; `_after` orders calls without data;
 * and a call does not start after a call it follows in program order failed unhandled.
 *
 * No sleeps: the history check takes one turn of the microtask queue, by which time any call
 * made ready beside it has been (the runner makes ready calls in one synchronous pass); if the
 * refund was, the check waits for the refund's end before it answers, so a history that could
 * see the refund does, every time.
 */
import { describe, expect, it } from 'vitest';
import {
  compile,
  type RunEvent,
  type RunOptions,
  type RunResult,
  run,
  type Tool,
  ToolRegistry,
} from '../../src/index.js';
import { planSuccessors } from '../../src/run/schedule/successors.js';
import { planWiring } from '../../src/run/schedule/plan-wiring.js';
import { loadExample } from '../fixtures/fixtures.js';
import { deferred } from '../deferred.js';

const example = loadExample('refund');

function statuses(result: RunResult): Record<string, string> {
  return Object.fromEntries(result.calls.map((c) => [c.id, c.status]));
}

/**
 * The refund walkthrough's tools (tools.json's definitions) with executes that record what the
 * history check saw: whether the refund had happened when the check returned.
 */
function refundDesk(options: { historyThrows?: boolean; definitions?: Tool[] } = {}) {
  const desk = {
    /** Per history check, whether a refund had happened when it returned. */
    seen: [] as boolean[],
    refunds: 0,
    approvals: 0,
    refundReady: false,
    refundEnded: deferred(),
    events: [] as string[],
  };
  const execute: Record<string, Tool['execute']> = {
    async checkBillingHistory() {
      await Promise.resolve();
      if (desk.refundReady) await desk.refundEnded.promise;
      desk.seen.push(desk.refunds > 0);
      if (options.historyThrows) throw new Error('billing system down');
      return { orders: 5, lastChargeback: null };
    },
    issueRefund() {
      desk.refunds++;
      desk.refundEnded.resolve();
      return { confirmationId: 'rf_123_5000' };
    },
  };
  const tools: Tool[] = (options.definitions ?? example.tools).map((tool) => ({
    ...tool,
    ...(execute[tool.name] && { execute: execute[tool.name] }),
  }));
  const runOptions = {
    // A registry, so that a run of the plan's text compiles the tools' schemas once.
    tools: new ToolRegistry(tools),
    input: example.input,
    approve: () => {
      desk.approvals++;
      return true;
    },
    onEvent: (event: RunEvent) => {
      if (event.type === 'call:ready' && event.tool === 'issueRefund') desk.refundReady = true;
      if (event.type === 'call:start' || event.type === 'call:end')
        desk.events.push(`${event.type} ${event.tool}`);
    },
  } satisfies RunOptions;
  return { desk, tools, runOptions };
}

describe('the refund walkthrough', () => {
  it('the history check never sees the refund, over many runs', async () => {
    for (let k = 0; k < 25; k++) {
      const { desk, runOptions } = refundDesk();
      const result = await run(example.text, runOptions);
      expect(statuses(result)).toEqual({ '0': 'succeeded', '1': 'succeeded' });
      expect(desk.seen).toEqual([false]);
      expect(desk.refunds).toBe(1);
      expect(desk.events).toEqual([
        'call:start checkBillingHistory',
        'call:end checkBillingHistory',
        'call:start issueRefund',
        'call:end issueRefund',
      ]);
    }
  });

  it('holds for a plan compiled without tools and run with them', async () => {
    const plan = compile(example.text, { input: example.input }).plan!;
    expect(plan.calls[1]!.dependencies).toEqual([]);
    const { desk, runOptions } = refundDesk();
    const result = await run(plan, runOptions);
    expect(result.status).toBe('succeeded');
    expect(desk.seen).toEqual([false]);
  });

  it('holds for a plan compiled with tools that said otherwise', async () => {
    const quiet = example.tools.map(({ annotations: _a, needsApproval: _n, ...tool }) => tool);
    const plan = compile(example.text, { tools: quiet, input: example.input }).plan!;
    const { desk, runOptions } = refundDesk();
    await run(plan, runOptions);
    expect(desk.seen).toEqual([false]);
  });

  it('shares the compile’s lists when the run’s tools order calls alike', () => {
    const registry = new ToolRegistry(refundDesk().tools);
    const plan = compile(example.text, { tools: registry, input: example.input }).plan!;
    expect(planWiring(plan, registry).successors).toBe(planSuccessors(plan));
    // Another registry of the same definitions: the same program order.
    expect(planWiring(plan, new ToolRegistry(refundDesk().tools)).successors).toBe(planSuccessors(plan));
    // Plain tools, with a plan compiled without tools: nothing to derive.
    const plain = compile([{ _tool: 'a' }, { _tool: 'b' }]).plan!;
    expect(planWiring(plain, new ToolRegistry([{ name: 'a' }, { name: 'b' }])).successors).toBe(
      planSuccessors(plain),
    );
  });

  it('holds for a plan streamed one call at a time', async () => {
    const { desk, tools: definitions, runOptions } = refundDesk();
    const [history, refund] = (JSON.parse(example.text) as { calls: unknown[] }).calls;
    const arrived = deferred();
    // The history check waits until the refund has arrived (and been bound and looked at).
    const tools = definitions.map((tool) =>
      tool.name === 'checkBillingHistory'
        ? {
            ...tool,
            execute: async (
              args: Record<string, unknown>,
              ctx: Parameters<NonNullable<Tool['execute']>>[1],
            ) => {
              await arrived.promise;
              return tool.execute!(args, ctx);
            },
          }
        : tool,
    );
    async function* calls() {
      yield history;
      yield refund;
      // Asked for the next call: the refund has been taken in, and made ready if it could be.
      arrived.resolve();
    }
    const result = await run(calls(), { ...runOptions, tools });
    expect(statuses(result)).toEqual({ '0': 'succeeded', '1': 'succeeded' });
    expect(desk.seen).toEqual([false]);
  });

  it('holds when the calls run elsewhere (RunOptions.remote, as the distributed dispatcher does)', async () => {
    const { desk, runOptions } = refundDesk();
    const remote: RunOptions['remote'] = async ({ definition, args, call, signal, outputPaths }) =>
      definition.execute!(args, { toolCallId: call, abortSignal: signal, outputPaths });
    const result = await run(example.text, { ...runOptions, remote });
    expect(result.status).toBe('succeeded');
    expect(desk.seen).toEqual([false]);
  });

  it('_independent: true lets the refund run beside the check, which then sees it', async () => {
    const { desk, runOptions } = refundDesk();
    const plan = JSON.parse(example.text) as { calls: Record<string, unknown>[] };
    plan.calls[1]!._independent = true;
    await run(plan, runOptions);
    expect(desk.seen).toEqual([true]);
  });

  it('a tool marked independent: true does the same for every call of it', async () => {
    const definitions = example.tools.map((tool) =>
      tool.name === 'issueRefund' ? { ...tool, independent: true } : tool,
    );
    const { desk, runOptions } = refundDesk({ definitions });
    await run(example.text, runOptions);
    expect(desk.seen).toEqual([true]);
  });

  it('a refund after a check that failed does not start: upstream_failed, saying why', async () => {
    for (const compiledWith of ['the tools', 'no tools']) {
      const { desk, runOptions } = refundDesk({ historyThrows: true });
      const plan =
        compiledWith === 'no tools' ? compile(example.text, { input: example.input }).plan! : example.text;
      const result = await run(plan, runOptions);
      expect(statuses(result), compiledWith).toEqual({ '0': 'failed', '1': 'upstream_failed' });
      expect(result.status).toBe('failed');
      expect(result.calls[1]!.error).toEqual({
        message:
          'not started: it follows call 0 (checkBillingHistory), which failed; 1 (issueRefund) is an effect: it waits for every earlier call',
      });
      expect(desk.refunds).toBe(0);
      expect(desk.approvals).toBe(0);
    }
  });
});

/** A tool whose calls record their order; `fail` lists the calls that throw. */
function stepTool(options: { fail?: string[]; extra?: Partial<Tool> } = {}) {
  const log: string[] = [];
  const tool: Tool = {
    name: 'step',
    async execute(_args, ctx) {
      log.push(`start ${ctx.toolCallId}`);
      await Promise.resolve();
      log.push(`end ${ctx.toolCallId}`);
      if (options.fail?.includes(ctx.toolCallId)) throw new Error(`${ctx.toolCallId} broke`);
      return ctx.toolCallId;
    },
    ...options.extra,
  };
  return { tool, log };
}

describe('_after', () => {
  it('starts a call only after the calls it names have ended, earlier or later in the plan', async () => {
    const { tool, log } = stepTool();
    const result = await run(
      [
        { _id: 'a', _tool: 'step', _after: ['c'] },
        { _id: 'b', _tool: 'step', _after: ['a'] },
        { _id: 'c', _tool: 'step' },
      ],
      { tools: [tool] },
    );
    expect(result.status).toBe('succeeded');
    expect(log).toEqual(['start c', 'end c', 'start a', 'end a', 'start b', 'end b']);
  });

  it('a streamed call whose _after names a call not yet arrived waits for it', async () => {
    const { tool, log } = stepTool();
    async function* calls() {
      yield { _id: 'summary', _tool: 'step', _after: ['fetch'] };
      yield { _id: 'fetch', _tool: 'step' };
    }
    const result = await run(calls(), { tools: [tool] });
    expect(statuses(result)).toEqual({ summary: 'succeeded', fetch: 'succeeded' });
    expect(log.indexOf('end fetch')).toBeLessThan(log.indexOf('start summary'));
  });
});

describe('a call does not start after a call it follows failed', () => {
  it('an unhandled failure holds back what is _after it, and what is _after that', async () => {
    const { tool, log } = stepTool({ fail: ['a'] });
    const result = await run(
      [
        { _id: 'a', _tool: 'step' },
        { _id: 'b', _tool: 'step', _after: ['a'] },
        { _id: 'c', _tool: 'step', _after: ['b'] },
      ],
      { tools: [tool] },
    );
    expect(statuses(result)).toEqual({ a: 'failed', b: 'upstream_failed', c: 'upstream_failed' });
    expect(result.calls[1]!.error!.message).toBe(
      'not started: it follows call a (step), which failed; its _after names a',
    );
    expect(result.calls[2]!.error!.message).toBe(
      'not started: it follows call b (step), which did not run (upstream_failed); its _after names b',
    );
    expect(log).toEqual(['start a', 'end a']);
  });

  it('a later call waits for an effect, and does not start when the effect failed', async () => {
    const { tool } = stepTool({ fail: ['pay'] });
    const pay: Tool = { ...tool, name: 'pay', annotations: { destructiveHint: true } };
    const result = await run(
      [
        { _id: 'pay', _tool: 'pay' },
        { _id: 'receipt', _tool: 'step' },
      ],
      { tools: [pay, tool] },
    );
    expect(statuses(result)).toEqual({ pay: 'failed', receipt: 'upstream_failed' });
    expect(result.calls[1]!.error!.message).toBe(
      'not started: it follows call pay (pay), which failed; pay (pay) is an effect: every later call waits for it',
    );
  });

  it('a handled failure, a skipped call and a rejected one do not hold anything back', async () => {
    const { tool } = stepTool({ fail: ['handled'] });
    const ask: Tool = { ...tool, name: 'ask', needsApproval: true };
    const result = await run(
      [
        { type: 'state', schema: { type: 'object', properties: { never: { type: 'string' } } } },
        {
          type: 'plan',
          plan: [
            {
              _id: 'handled',
              _tool: 'step',
              _outputPath: '†state.ok || †state.error',
              _onError: '†state.error',
            },
            { _id: 'skipped', _tool: 'step', x: '†state.never' },
            { _id: 'rejected', _tool: 'ask' },
            { _id: 'last', _tool: 'step', _after: ['handled', 'skipped', 'rejected'] },
          ],
        },
      ],
      { tools: [tool, ask], approve: () => false },
    );
    expect(statuses(result)).toEqual({
      handled: 'failed',
      skipped: 'skipped',
      rejected: 'rejected',
      last: 'succeeded',
    });
  });

  it('write after write keeps its own rule: timing only', async () => {
    const { tool } = stepTool({ fail: ['first'] });
    const result = await run(
      [
        { _id: 'first', _tool: 'step', _outputPath: '†state.x' },
        { _id: 'second', _tool: 'step', _outputPath: '†state.x' },
      ],
      { tools: [tool] },
    );
    expect(statuses(result)).toEqual({ first: 'failed', second: 'succeeded' });
  });
});
