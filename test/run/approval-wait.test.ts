/**
 * RunResult.approvalWaitMs: the time the run waited on `approve`, told apart from its own. The
 * clock is fake and moves only when an answer takes time, so the numbers are exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/run/run.js';
import type { ApprovalRequest } from '../../src/run/types.js';
import { defineTool } from '../../src/tools/tool.js';

const guarded = defineTool({ name: 'guarded', needsApproval: true, execute: async () => 'done' });
const plain = defineTool({ name: 'plain', execute: async () => 'ok' });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('approvalWaitMs', () => {
  it('is 0 when nothing is asked', async () => {
    const result = await run([{ _tool: 'plain' }], { tools: [plain] });
    expect(result.approvalWaitMs).toBe(0);
  });

  it("counts the time a lazy plan's approval took", async () => {
    const result = await run(
      { type: 'plan', mode: 'lazy', plan: [{ _tool: 'plain' }] },
      {
        tools: [plain],
        approve: () => {
          later(8_000);
          return true;
        },
      },
    );
    expect(result.status).toBe('succeeded');
    expect(result.approvalWaitMs).toBe(8_000);
    expect(Date.parse(result.endedAt) - Date.parse(result.startedAt)).toBe(8_000);
  });

  it('counts overlapping call approvals once: the time at least one was pending', async () => {
    // a and b are asked at once; b's answer takes 5 s and then lets a's answer come. A tool that
    // needs approval is an effect, which waits for every call before it: _independent lets
    // the two calls be asked at once.
    let answerA!: (yes: boolean) => void;
    const approve = (request: ApprovalRequest): boolean | Promise<boolean> => {
      if (request.kind === 'call' && request.call === 'a')
        return new Promise((resolve) => (answerA = resolve));
      later(5_000);
      answerA(true);
      return true;
    };
    const result = await run(
      [
        { _id: 'a', _tool: 'guarded', _independent: true },
        { _id: 'b', _tool: 'guarded', _independent: true },
      ],
      { tools: [guarded], approve },
    );
    expect(result.calls.map((c) => c.status)).toEqual(['succeeded', 'succeeded']);
    expect(result.approvalWaitMs).toBe(5_000);
  });

  it('counts a rejection too, and an answer that throws', async () => {
    const rejected = await run([{ _tool: 'guarded' }], {
      tools: [guarded],
      approve: () => {
        later(3_000);
        return false;
      },
    });
    expect(rejected.status).toBe('rejected');
    expect(rejected.approvalWaitMs).toBe(3_000);
    const thrown = await run([{ _tool: 'guarded' }], {
      tools: [guarded],
      approve: () => {
        later(2_000);
        throw new Error('no one there');
      },
    });
    expect(thrown.approvalWaitMs).toBe(2_000);
  });
});
