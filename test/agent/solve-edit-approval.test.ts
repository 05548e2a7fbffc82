/**
 * Editing a lazy solution at approval, against the loopback Chat Completions server: the edited
 * plan is what runs, and the next turn tells the model a person edited its plan (with theirs
 * as the current plan), so it does not propose its own again.
 */
import { describe, expect, it } from 'vitest';
import type { SolveApprovalRequest } from '../../src/agent/plan-loop/solve-approvals.js';
import { against, told } from './solve-against.js';

const lookupOf = (symbol: string) => ({
  calls: [{ _id: 'price', _tool: 'lookup', symbol, _outputPath: '†state.price' }],
  output: null,
});
const done = { text: JSON.stringify({ calls: [], output: 'done' }) };

describe('solve(): a lazy solution edited at approval', () => {
  it('runs the edited plan, and the next prompt says the person edited it', async () => {
    const log: string[] = [];
    const asked: SolveApprovalRequest[] = [];
    const { result, requests } = await against(
      [{ text: JSON.stringify(lookupOf('OTHER')) }, done],
      {
        mode: 'lazy',
        approve: (request) => {
          asked.push(request);
          if (request.kind !== 'plan') return false;
          return {
            approved: true,
            plan: [{ _id: 'price', _tool: 'lookup', symbol: 'ACME', _outputPath: '†state.price' }],
          };
        },
      },
      log,
    );
    expect(log).toEqual(['lookup ACME']);
    expect(result.runs[0]!.edited).toBe(true);
    expect(result.state).toMatchObject({ price: 42 });
    expect(result.status).toBe('done');
    const next = told(requests, 1);
    expect(next).toMatch(/A person edited your plan before it ran/);
    // Their plan is the current plan the model sees; its own is not.
    expect(next).toContain('"symbol": "ACME"');
    expect(next).not.toContain('OTHER');
  });

  it('asks again with the diagnostics of an edit with errors, then runs the mended one', async () => {
    const log: string[] = [];
    const edits: unknown[] = [];
    const { result } = await against(
      [{ text: JSON.stringify(lookupOf('OTHER')) }, done],
      {
        mode: 'lazy',
        approve: (request) => {
          if (request.kind !== 'plan') return false;
          edits.push(request.edit?.diagnostics.map((d) => d.code));
          if (!request.edit)
            return { approved: true, plan: '[{"_id": "price", "_tool": "lookup", "sym": "ACME"}]' };
          return { approved: true, plan: [{ _id: 'price', _tool: 'lookup', symbol: 'ACME' }] };
        },
      },
      log,
    );
    expect(edits[0]).toBeUndefined();
    expect((edits[1] as string[]).length).toBeGreaterThan(0);
    expect(log).toEqual(['lookup ACME']);
    expect(result.status).toBe('done');
  });

  it('ends rejected with the diagnostics once maxEditRetries is spent', async () => {
    const log: string[] = [];
    const { result } = await against(
      [{ text: JSON.stringify(lookupOf('OTHER')) }, done],
      {
        mode: 'lazy',
        maxEditRetries: 0,
        approve: () => ({ approved: true, plan: '[{"_tool": "missing"}]' }),
      },
      log,
    );
    expect(log).toEqual([]);
    expect(result.status).toBe('rejected');
    expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });
});
