/**
 * The huge reply, in a file of its own so that the process's peak memory is this test's: a
 * model that answers every turn with a 50,000-call plan (some 2.8 MB) over the real Chat
 * Completions wire protocol.
 */
import { describe, expect, it } from 'vitest';
import { against, planOf, told } from './solve-against.js';

describe('replies are bounded in bytes before they are read', () => {
  it('huge: a 50,000-call plan is cut at maxReplyBytes and never parsed or run; memory stays flat', async () => {
    const log: string[] = [];
    const huge = planOf(50_000);
    expect(huge.length).toBeGreaterThan(2_000_000);
    const before = process.memoryUsage().rss;
    // Read whole, as a lazy loop reads: nothing of a cut reply runs.
    const { result, requests, events } = await against(
      [{ text: huge, piece: 4096 }],
      { streamCalls: false },
      log,
    );
    // The process's peak resident set, in bytes: this file's first test, so nothing before it
    // set the peak but loading the modules (which only makes the difference larger).
    const peak = process.resourceUsage().maxRSS * 1024;
    expect(result.status).toBe('invalid');
    expect(requests).toHaveLength(3);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'E_LIMIT',
        message: expect.stringMatching(/longer than 1048576 bytes \(maxReplyBytes\)/),
      }),
    ]);
    expect(told(requests, 1)).toMatch(/^Your answer was too long to read\./);
    expect(log).toEqual([]);
    expect(events.filter((e) => e.type === 'solution')).toEqual([]);
    // Three cut replies of 1 MiB each: far below what parsing and running 50,000 calls five
    // times takes (about 800 MB above the start, measured the same way before the bound).
    expect(peak - before).toBeLessThan(150 * 1024 * 1024);
  });

  it('streamed: the calls up to budget.maxCallsPerPlan run once each, the rest never; the cut reply is told with what ran', async () => {
    const log: string[] = [];
    const { result, requests } = await against(
      [{ text: planOf(50_000), piece: 4096 }],
      { budget: { maxCallsPerPlan: 100 } },
      log,
    );
    expect(result.status).toBe('invalid');
    // Every call of the plan is the same lookup: the repairs' copies took its result instead.
    expect(log).toHaveLength(100);
    expect(told(requests, 1)).toMatch(/^Your answer was too long to read\./);
    expect(told(requests, 1)).toMatch(/started before it ended, and ran; they will not run again/);
    expect(result.runs.map((r) => r.calls.filter((c) => c.attempts > 0).length)).toEqual([100, 0, 0]);
  });
});
