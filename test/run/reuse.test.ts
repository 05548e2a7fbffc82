/** RunOptions.reuse: an earlier result written in a call's place, the tool not run, the report marked. */
import { describe, expect, it } from 'vitest';
import { run, ToolRegistry, type RunEvent, type Tool } from '../../src/index.js';
import type { ReuseRequest } from '../../src/run/types.js';

function refundDesk() {
  const refunds: unknown[] = [];
  const tools: Tool[] = [
    {
      name: 'issueRefund',
      execute: (args) => {
        refunds.push(args);
        return { id: `refund_${refunds.length}` };
      },
    },
    { name: 'notify', execute: (args) => ({ sent: args.text }) },
  ];
  return { tools, refunds };
}

const plan = [
  { _id: 'refund', _tool: 'issueRefund', amount: 50, _outputPath: '†state.refund' },
  { _id: 'tell', _tool: 'notify', text: '†state.refund.id', _outputPath: '†state.told' },
];

describe('RunOptions.reuse', () => {
  it('writes the earlier result instead of running the tool; later calls read it; the report says reused', async () => {
    const { tools, refunds } = refundDesk();
    const asked: ReuseRequest[] = [];
    const events: RunEvent[] = [];
    const result = await run(plan, {
      tools,
      reuse: (request) => {
        asked.push(request);
        return request.tool === 'issueRefund' ? { output: { id: 'refund_earlier' } } : undefined;
      },
      onEvent: (event) => events.push(event),
    });
    expect(result.status).toBe('succeeded');
    expect(refunds).toEqual([]);
    expect(result.state).toEqual({ refund: { id: 'refund_earlier' }, told: { sent: 'refund_earlier' } });
    // The tool by name, its definition beside it, as in every request planmode makes.
    expect(asked.map((r) => [r.call, r.tool, r.definition.name, r.args])).toEqual([
      ['refund', 'issueRefund', 'issueRefund', { amount: 50 }],
      ['tell', 'notify', 'notify', { text: 'refund_earlier' }],
    ]);
    const [refund, tell] = result.calls;
    expect(refund).toMatchObject({
      status: 'succeeded',
      attempts: 0,
      reused: true,
      output: { id: 'refund_earlier' },
    });
    expect(tell!.reused).toBeUndefined();
    expect(tell!.attempts).toBe(1);
    const ends = events.filter((e) => e.type === 'call:end');
    expect(ends.map((e) => (e as { reused?: boolean }).reused)).toEqual([true, undefined]);
    // A reused call never starts.
    expect(events.filter((e) => e.type === 'call:start').map((e) => (e as { call: string }).call)).toEqual([
      'tell',
    ]);
  });

  it('undefined runs the tool as usual', async () => {
    const { tools, refunds } = refundDesk();
    const result = await run(plan, { tools, reuse: () => undefined });
    expect(refunds).toHaveLength(1);
    expect(result.calls.some((c) => c.reused)).toBe(false);
  });

  it('writes to the alternative the earlier call took', async () => {
    const branching = [{ _tool: 'check', _outputPath: '†state.sunny || †state.rainy' }];
    const tools = [{ name: 'check', execute: () => 'never' }];
    const result = await run(branching, { tools, reuse: () => ({ output: 'drizzle', branch: 1 }) });
    expect(result.state).toEqual({ rainy: 'drizzle' });
    expect(result.calls[0]).toMatchObject({ status: 'succeeded', branch: 1, reused: true });
  });

  it('a value that looks like a branch value is written as it is', async () => {
    const looksLikeOne = { '†branch': 1, value: 'x' };
    const result = await run([{ _tool: 'check', _outputPath: '†state.a || †state.b' }], {
      tools: [{ name: 'check', execute: () => 'never' }],
      reuse: () => ({ output: looksLikeOne }),
    });
    expect(result.state).toEqual({ a: looksLikeOne });
  });

  it('a hook that throws fails the call, and what reads it is upstream_failed', async () => {
    const { tools, refunds } = refundDesk();
    const result = await run(plan, {
      tools,
      reuse: () => {
        throw new Error('the ledger is unreadable');
      },
    });
    expect(refunds).toEqual([]);
    expect(result.calls.map((c) => c.status)).toEqual(['failed', 'upstream_failed']);
    expect(result.calls[0]!.error).toEqual({ message: 'the ledger is unreadable' });
  });

  it('an earlier result over the limits fails the call with LIMIT', async () => {
    const { tools } = refundDesk();
    const deep = JSON.parse('['.repeat(10) + ']'.repeat(10)) as unknown;
    const result = await run(plan, { tools, reuse: () => ({ output: deep }), limits: { maxDepth: 5 } });
    expect(result.calls[0]).toMatchObject({ status: 'failed', error: { code: 'LIMIT' } });
  });

  it('is not asked about a latent call whose output the plan holds', async () => {
    const asked: string[] = [];
    const result = await run([{ _tool: 'think', _output: 'thought', _outputPath: '†state.t' }], {
      tools: new ToolRegistry([{ name: 'think', latent: true }]),
      reuse: ({ call }) => {
        asked.push(call);
        return { output: 'reused' };
      },
    });
    expect(result.state).toEqual({ t: 'thought' });
    expect(asked).toEqual([]);
  });

  it('must be a function', async () => {
    const { tools } = refundDesk();
    await expect(run(plan, { tools, reuse: 'yes' as never })).rejects.toThrow(
      /Expected reuse to be a function, got/,
    );
  });
});
