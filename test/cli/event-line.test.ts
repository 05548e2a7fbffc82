/**
 * An `--events` line whose event JSON cannot hold whole (a call's arguments past the longest
 * string, 300 arguments of one 2 MB value) keeps its call and tool: only the field at fault is
 * replaced, and named. Before, the line kept only its type and time.
 */
import { describe, expect, it } from 'vitest';
import { eventLine } from '../../src/cli/commands/event-line.js';
import type { RunEvent } from '../../src/index.js';

const AT = '2026-11-28T00:00:00.000Z';

describe('eventLine', () => {
  it('is the event as JSON when it can be', () => {
    const event = { type: 'call:start', call: 'a', tool: 't', args: { x: 1 }, at: AT } as unknown as RunEvent;
    expect(JSON.parse(eventLine(event))).toEqual(event);
  });

  it('replaces only the field JSON cannot hold, and keeps the call and tool', () => {
    const event = {
      type: 'call:start',
      call: 'charge',
      tool: 'pay',
      args: { amount: 10n },
      at: AT,
    } as unknown as RunEvent;
    const line = JSON.parse(eventLine(event)) as Record<string, unknown>;
    expect(line).toMatchObject({ type: 'call:start', call: 'charge', tool: 'pay', at: AT });
    expect(line.args).toEqual({ unserializable: expect.stringMatching(/^not written: .*BigInt/) });
    expect(line.unserializableFields).toEqual(['args']);
  });

  it('says so when every field can be written alone but not the line together', () => {
    // Throws the first time only: as a line past the longest string fails where its parts do not.
    let calls = 0;
    const args = {
      toJSON() {
        calls += 1;
        if (calls === 1) throw new RangeError('Invalid string length');
        return { x: 1 };
      },
    };
    const event = { type: 'call:start', call: 'a', tool: 't', args, at: AT } as unknown as RunEvent;
    expect(JSON.parse(eventLine(event))).toEqual({
      type: 'call:start',
      call: 'a',
      tool: 't',
      at: AT,
      unserializable: 'not written: Invalid string length',
      unserializableFields: ['args'],
    });
  });
});
