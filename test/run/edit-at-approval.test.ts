/**
 * Editing at approval: a lazy plan's `approve` may answer `{ approved: true, plan }`; the edit is
 * compiled against the same tools, input and state, asked about again with its diagnostics when
 * it has errors (at most maxEditRetries times), and is what runs. An edit that changes nothing
 * is no edit.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalRecords } from './journal-file.js';
import type { PlanApprovalRequest, Tool } from '../../src/index.js';
import { isPlanValidationError } from '../../src/index.js';
import { planOf } from '../../src/compile/plan-of.js';
import { run } from '../../src/run/index.js';
import type { RunEvent } from '../../src/run/types.js';

function payTools() {
  const paid: number[] = [];
  const pay: Tool = {
    name: 'processPayment',
    inputSchema: {
      type: 'object',
      properties: { amount: { type: 'number' } },
      required: ['amount'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: { receipt: { type: 'string' } } },
    execute: ({ amount }) => {
      paid.push(amount as number);
      return { receipt: `paid ${amount as number}` };
    },
  };
  const lookup: Tool = {
    name: 'lookupOrder',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    outputSchema: { type: 'object', properties: { total: { type: 'number' } } },
    execute: () => ({ total: 120 }),
  };
  return { tools: [pay, lookup], paid };
}

const PLAN = {
  type: 'plan',
  mode: 'lazy',
  plan: [{ _id: 'pay', _tool: 'processPayment', amount: 500, _outputPath: '†state.receipt' }],
};
const EDITED = [{ _id: 'pay', _tool: 'processPayment', amount: 50, _outputPath: '†state.receipt' }];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('editing a lazy plan at approval', () => {
  it('runs the edited plan, and the result says it was edited', async () => {
    const { tools, paid } = payTools();
    const result = await run(PLAN, { tools, approve: () => ({ approved: true, plan: EDITED }) });
    expect(result.status).toBe('succeeded');
    expect(paid).toEqual([50]);
    expect(result.state).toEqual({ receipt: { receipt: 'paid 50' } });
    expect(result.edited).toBe(true);
    expect(result.editedPlan).toEqual(EDITED);
    expect(planOf(result)?.calls[0]?.args).toEqual({ amount: 50 });
  });

  it('takes the edit as JSON text, with calls added', async () => {
    const { tools, paid } = payTools();
    const text = JSON.stringify([
      { _id: 'order', _tool: 'lookupOrder', id: 'o-1', _outputPath: '†state.order' },
      { _id: 'pay', _tool: 'processPayment', amount: '†state.order.total', _outputPath: '†state.receipt' },
    ]);
    const result = await run(PLAN, { tools, approve: () => ({ approved: true, plan: text }) });
    expect(paid).toEqual([120]);
    expect(result.calls.map((c) => [c.id, c.status])).toEqual([
      ['order', 'succeeded'],
      ['pay', 'succeeded'],
    ]);
    expect(result.edited).toBe(true);
    expect(result.editedPlan).toEqual(JSON.parse(text));
  });

  it('asks again with the diagnostics and the text of an edit with errors', async () => {
    const { tools, paid } = payTools();
    const asked: PlanApprovalRequest[] = [];
    const events: RunEvent[] = [];
    const result = await run(PLAN, {
      tools,
      onEvent: (event) => events.push(event),
      approve: (request) => {
        if (request.kind !== 'plan') return false;
        asked.push(request);
        if (asked.length === 1)
          return { approved: true, plan: [{ _id: 'pay', _tool: 'processPayment', amont: 5 }] };
        return { approved: true, plan: EDITED };
      },
    });
    expect(asked).toHaveLength(2);
    expect(asked[0]!.edit).toBeUndefined();
    const edit = asked[1]!.edit!;
    expect(edit.attempt).toBe(1);
    expect(edit.retriesLeft).toBe(4);
    expect(edit.text).toContain('"amont": 5');
    expect(edit.diagnostics.length).toBeGreaterThan(0);
    expect(edit.diagnostics.every((d) => d.line >= 1 && d.column >= 1)).toBe(true);
    expect(edit.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    // The plan asked about is still the one given.
    expect(asked[1]!.plan).toBe(asked[0]!.plan);
    expect(events.filter((e) => e.type === 'approval:requested')).toHaveLength(2);
    expect(paid).toEqual([50]);
    expect(result.edited).toBe(true);
  });

  it('ends unapproved with a PlanValidationError once maxEditRetries is spent', async () => {
    const { tools, paid } = payTools();
    let asked = 0;
    const events: RunEvent[] = [];
    const error = await run(PLAN, {
      tools,
      maxEditRetries: 2,
      onEvent: (event) => events.push(event),
      approve: () => {
        asked++;
        return { approved: true, plan: '[{"_id": "pay", "_tool": "nope"}]' };
      },
    }).catch((e: unknown) => e);
    expect(isPlanValidationError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /edited plan 3 still does not compile: 1:\d+: E_\w+: .*maxEditRetries \(2\)/,
    );
    expect(asked).toBe(3);
    expect(paid).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'run:end', status: 'rejected' });
  });

  it('refuses a bad maxEditRetries', async () => {
    const { tools } = payTools();
    await expect(run(PLAN, { tools, maxEditRetries: -1, approve: () => true })).rejects.toThrow(
      /maxEditRetries to be a whole number >= 0/,
    );
  });

  it('counts an edit that changes nothing as no edit', async () => {
    const { tools, paid } = payTools();
    const same = [{ _tool: 'processPayment', _id: 'pay', _outputPath: '†state.receipt', amount: 500 }];
    const result = await run(PLAN, { tools, approve: () => ({ approved: true, plan: same }) });
    expect(paid).toEqual([500]);
    expect(result.edited).toBeUndefined();
    expect(result.editedPlan).toBeUndefined();
  });

  it('takes no plan in a call approval', async () => {
    const { tools } = payTools();
    const guarded = tools.map((t) => (t.name === 'processPayment' ? { ...t, needsApproval: true } : t));
    const result = await run(
      { type: 'plan', plan: PLAN.plan },
      { tools: guarded, approve: () => ({ approved: true, plan: EDITED }) },
    );
    expect(result.calls[0]!.status).toBe('rejected');
    expect(result.calls[0]!.error?.message).toMatch(/edited plan where none is taken/);
  });

  it('binds the journal to the edited plan, and its header says edited', async () => {
    const { tools } = payTools();
    const dir = mkdtempSync(join(tmpdir(), 'planmode-edit-'));
    dirs.push(dir);
    await run(PLAN, { tools, journal: dir, approve: () => ({ approved: true, plan: EDITED }) });
    const headers = readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => journalRecords(join(dir, name)))
      .map((records) => ({ header: records[0]!, records }));
    const edited = headers.filter((h) => h.header.edited === true);
    expect(edited).toHaveLength(1);
    const ends = edited[0]!.records;
    expect(ends.find((e) => e.type === 'call:end')?.output).toEqual({ receipt: 'paid 50' });
  });
});
