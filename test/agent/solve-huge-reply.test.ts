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
    const { result, requests, events } = await against([{ text: huge, piece: 4096 }], {}, log);
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
});
