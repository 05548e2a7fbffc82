/**
 * The lazier mode wins: a plan message that says `"mode": "lazy"` is lazy wherever it runs, and
 * an explicit `mode` option can make an eager plan lazy but never a lazy one eager (compile,
 * run of a document or of a compiled plan, and a run whose calls go to workers).
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/compile.js';
import type { ApprovalRequest, RemoteCall, Tool } from '../../src/index.js';
import { lazierMode } from '../../src/language/execution-mode.js';
import { run } from '../../src/run/run.js';

function refundDesk() {
  const refunds: unknown[] = [];
  const tools: Tool[] = [
    {
      name: 'issueRefund',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      execute: (args) => {
        refunds.push(args);
        return 'refunded';
      },
    },
  ];
  return { tools, refunds };
}

const lazyPlan = {
  type: 'plan',
  mode: 'lazy',
  plan: [{ _id: 'refund', _tool: 'issueRefund', amount: 50, _outputPath: '†state.refund' }],
};

/** An approver that records what it is asked and answers no. */
function refuser() {
  const asked: ApprovalRequest['kind'][] = [];
  return { asked, approve: (request: ApprovalRequest) => (asked.push(request.kind), false) };
}

describe('the lazier mode wins', () => {
  it('lazierMode: lazy when either says lazy', () => {
    expect(lazierMode('eager', undefined)).toBe('eager');
    expect(lazierMode('eager', 'eager')).toBe('eager');
    expect(lazierMode('eager', 'lazy')).toBe('lazy');
    expect(lazierMode('lazy', undefined)).toBe('lazy');
    expect(lazierMode('lazy', 'eager')).toBe('lazy');
  });

  it('compile: an eager option on a lazy document keeps it lazy', () => {
    const { tools } = refundDesk();
    expect(compile(lazyPlan, { tools, mode: 'eager' }).plan!.mode).toBe('lazy');
    expect(compile({ ...lazyPlan, mode: 'eager' }, { tools, mode: 'lazy' }).plan!.mode).toBe('lazy');
  });

  it('run(document, { mode: eager }): the plan is put to approve first, and a no runs nothing', async () => {
    const { tools, refunds } = refundDesk();
    const { asked, approve } = refuser();
    const result = await run(lazyPlan, { tools, mode: 'eager', approve });
    expect(result.status).toBe('rejected');
    expect(asked).toEqual(['plan']);
    expect(refunds).toEqual([]);
  });

  it('run(compiled lazy plan, { mode: eager }): still lazy', async () => {
    const { tools, refunds } = refundDesk();
    const plan = compile(lazyPlan, { tools }).plan!;
    const { asked, approve } = refuser();
    const events: string[] = [];
    const result = await run(plan, {
      tools,
      mode: 'eager',
      approve,
      onEvent: (e) => e.type === 'run:start' && events.push(e.mode),
    });
    expect(result.status).toBe('rejected');
    expect(events).toEqual(['lazy']);
    expect(asked).toEqual(['plan']);
    expect(refunds).toEqual([]);
  });

  it('a run whose calls go to workers (remote) dispatches nothing of a lazy plan before a yes', async () => {
    const { tools } = refundDesk();
    const dispatched: RemoteCall[] = [];
    const remote = (call: RemoteCall) => {
      dispatched.push(call);
      return Promise.resolve('refunded remotely');
    };
    const { asked, approve } = refuser();
    const result = await run(lazyPlan, { tools, mode: 'eager', remote, approve });
    expect(result.status).toBe('rejected');
    expect(asked).toEqual(['plan']);
    expect(dispatched).toEqual([]);
    // Approved, the call goes to the worker as usual.
    const approved = await run(lazyPlan, { tools, mode: 'eager', remote, approve: () => true });
    expect(approved.status).toBe('succeeded');
    expect(dispatched.map((c) => c.call)).toEqual(['refund']);
  });
});
