/**
 * Starts written ahead: a call's `call:end` goes into the journal in the same write(2) as the
 * `call:start` lines of the calls it frees (and of calls waiting for a slot), so a journaled call
 * costs one write, not two. The crash promises stay as they were: an end is in the file before
 * anyone hears of its call; a start before its tool runs; a start written ahead of a call that
 * then never runs reads, on resume, as a call to run from its start.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, type RunEvent, type Tool } from '../../src/index.js';
import { journalRecords } from './journal-file.js';

const root = mkdtempSync(join(tmpdir(), 'planmode-journal-ahead-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
const freshDir = () => mkdtempSync(join(root, `case-${++dirs}-`));

function records(dir: string): Record<string, unknown>[] {
  const [name] = readdirSync(dir).filter((file) => file.endsWith('.jsonl'));
  return journalRecords(join(dir, name!));
}

const starts = (lines: Record<string, unknown>[], call: string) =>
  lines.filter((r) => r.type === 'call:start' && r.call === call);

function tools(log: string[]): Tool[] {
  return [{ name: 'step', execute: (args) => (log.push(`step ${String(args.n)}`), Number(args.n) + 1) }];
}

const CHAIN = [
  { _id: 'a', _tool: 'step', n: 1, _outputPath: '†state.a' },
  { _id: 'b', _tool: 'step', n: '†state.a', _outputPath: '†state.b' },
  { _id: 'c', _tool: 'step', n: '†state.b', _outputPath: '†state.c' },
];

describe('starts written ahead', () => {
  it("when anyone hears of a call's end, the start of the call it frees is in the file, with its resolved arguments, and is not written again", async () => {
    const dir = freshDir();
    const seen: Record<string, Record<string, unknown>[]> = {};
    const result = await run(CHAIN, {
      tools: tools([]),
      journal: dir,
      onEvent: (event: RunEvent) => {
        if (event.type === 'call:end')
          seen[event.call] = starts(records(dir), event.call === 'a' ? 'b' : 'c');
      },
    });
    expect(result.status).toBe('succeeded');
    expect(seen.a).toEqual([
      expect.objectContaining({ type: 'call:start', call: 'b', tool: 'step', attempt: 1, args: { n: 2 } }),
    ]);
    expect(seen.b).toEqual([expect.objectContaining({ call: 'c', attempt: 1, args: { n: 3 } })]);
    const lines = records(dir);
    for (const call of ['a', 'b', 'c']) expect(starts(lines, call)).toHaveLength(1);
    // Each start comes before its call's end, and b's start right after a's end: one write.
    const order = lines.slice(1).map((r) => `${String(r.type)} ${String(r.call ?? '')}`);
    expect(order).toEqual([
      'run:start ',
      'call:start a',
      'call:end a',
      'call:start b',
      'call:end b',
      'call:start c',
      'call:end c',
      'run:end ',
    ]);
  });

  it("a fan-out's first end carries the starts of as many readers as may run at once", async () => {
    const dir = freshDir();
    const plan = [
      { _id: 'root', _tool: 'step', n: 0, _outputPath: '†state.root' },
      ...Array.from({ length: 30 }, (_, k) => ({
        _id: `r${k}`,
        _tool: 'step',
        n: '†state.root',
        _outputPath: `†state.r${k}`,
      })),
    ];
    let atRootEnd = -1;
    const result = await run(plan, {
      tools: tools([]),
      journal: dir,
      concurrency: 8,
      onEvent: (event: RunEvent) => {
        if (event.type === 'call:end' && event.call === 'root') {
          atRootEnd = records(dir).filter((r) => r.type === 'call:start' && r.call !== 'root').length;
        }
      },
    });
    expect(result.status).toBe('succeeded');
    expect(atRootEnd).toBe(8);
    const lines = records(dir);
    for (let k = 0; k < 30; k++) expect(starts(lines, `r${k}`)).toHaveLength(1);
  });

  it('an observer that cancels the run on an end: the next call never runs, ends cancelled without arguments, and a resume runs it from its start', async () => {
    const dir = freshDir();
    const log: string[] = [];
    const controller = new AbortController();
    const heard: string[] = [];
    const first = await run(CHAIN, {
      tools: tools(log),
      journal: dir,
      signal: controller.signal,
      onEvent: (event: RunEvent) => {
        heard.push(`${event.type} ${'call' in event ? String(event.call) : ''}`);
        if (event.type === 'call:end' && event.call === 'a') controller.abort();
      },
    });
    expect(first.status).toBe('cancelled');
    expect(log).toEqual(['step 1']);
    // Observers hear what they heard before: no start of b.
    expect(heard).not.toContain('call:start b');
    expect(first.calls.map((c) => [c.id, c.status, c.args])).toEqual([
      ['a', 'succeeded', { n: 1 }],
      ['b', 'cancelled', undefined],
      ['c', 'cancelled', undefined],
    ]);
    const lines = records(dir);
    // b's start was written with a's end; its cancelled end follows.
    expect(starts(lines, 'b')).toHaveLength(1);
    expect(lines.find((r) => r.type === 'call:end' && r.call === 'b')).toMatchObject({ status: 'cancelled' });

    const again = await run(CHAIN, { tools: tools(log), journal: dir, resume: true });
    expect(again.status).toBe('succeeded');
    expect(log).toEqual(['step 1', 'step 2', 'step 3']);
    expect(again.state).toEqual({ a: 2, b: 3, c: 4 });
  });
});
