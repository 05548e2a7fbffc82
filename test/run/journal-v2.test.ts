/**
 * Journal format version 2 (what planmode wrote before version 4 for plans of plain calls): only
 * the records a resume reads (no call:ready, no state:write lines), the calls' records written by
 * templates; still resumed, and appended to in version 2. Version 1 journals,
 * as the planmode before version 2 wrote them (fixtures/journal-v1, made by make-v1-journal.mjs
 * with that build), are still read, resumed and appended to in their own format. A version 2
 * journal is untrusted input like a version 1 one: the same attacks are refused.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isJournalError, run, type Tool } from '../../src/index.js';
import { Journal } from '../../src/run/journal/journal.js';
import { encodeRecord } from '../../src/run/journal/journal-encode.js';
import { encodeEvent } from '../../src/run/journal/journal-format.js';
import { HAND_AT, HAND_DIGESTS, journalRecords, journalWith, refusal, wholeEnd } from './journal-file.js';
import type { RunEvent } from '../../src/run/types.js';

const root = mkdtempSync(join(tmpdir(), 'planmode-journal-v2-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FIXTURES = join(import.meta.dirname, 'fixtures', 'journal-v1');
const V1_JOURNAL = 'f3f75577388504ec19f06498747e40c8ddfc138b34002a950d613463daff4fb6.jsonl';
/** The same run's version 2 journal (the same key), as the build before version 4 wrote it. */
const V2_FIXTURES = join(import.meta.dirname, 'fixtures', 'journal-v2-v3', 'shop');

let dirs = 0;
function freshDir(): string {
  dirs += 1;
  const dir = join(root, `case-${dirs}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** make-v1-journal.mjs's plan and tools: `log` notes each tool that runs. */
const PLAN = [
  { _id: 'price', _tool: 'price', item: 'book', _outputPath: '†state.price' },
  { _id: 'charge', _tool: 'charge', amount: '†state.price', card: 'visa', _outputPath: '†state.paid' },
  { _id: 'notify', _tool: 'notify', message: '†state.paid.receipt', _outputPath: '†state.sent' },
];

function shopTools(log: string[], stopAtNotify?: AbortController): Tool[] {
  return [
    { name: 'price', execute: () => (log.push('price'), 5) },
    {
      name: 'charge',
      execute: (args) => (log.push('charge'), { receipt: `r-${String(args.amount)}` }),
    },
    {
      name: 'notify',
      execute: (_args, ctx) => {
        log.push('notify');
        if (!stopAtNotify) return 'sent';
        return new Promise((_resolve, reject) => {
          ctx.abortSignal.addEventListener('abort', () => reject(ctx.abortSignal.reason as Error));
          stopAtNotify.abort();
        });
      },
    },
  ];
}

function records(path: string): Record<string, unknown>[] {
  return journalRecords(path);
}

describe('journal format version 2', () => {
  it('a version 2 journal an earlier planmode wrote is resumed, and appended to in version 2', async () => {
    // Written by the build before version 4 (fixtures/journal-v2-v3/make-journals.mjs), stopped
    // at notify as a crash would.
    const dir = freshDir();
    copyFileSync(join(V2_FIXTURES, V1_JOURNAL), join(dir, V1_JOURNAL));
    const path = join(dir, V1_JOURNAL);
    const before = readFileSync(path, 'utf8');
    const lines = records(path);
    expect(lines[0]).toMatchObject({ type: 'journal', version: 2 });
    expect(lines.map((line) => line.type)).toEqual([
      'journal',
      'run:start',
      'call:start',
      'call:end',
      'call:start',
      'call:end',
      'call:start',
      'call:end',
      'run:end',
    ]);

    const log: string[] = [];
    const resumed = await run(PLAN, { tools: shopTools(log), journal: dir, resume: true });
    expect(resumed.status).toBe('succeeded');
    expect(log).toEqual(['notify']);
    expect(resumed.state).toEqual({ price: 5, paid: { receipt: 'r-5' }, sent: 'sent' });
    // Appended in version 2: whole events, no call:ready or state:write.
    const after = readFileSync(path, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    const appended = after
      .slice(before.length)
      .split('\n')
      .filter((line) => line !== '');
    expect(appended.length).toBeGreaterThan(0);
    for (const line of appended) expect(line.startsWith('{"type":')).toBe(true);
    expect(records(path).filter((line) => line.type === 'call:ready')).toEqual([]);
    expect(
      records(path)
        .filter((line) => line.type === 'call:end')
        .at(-1),
    ).toMatchObject({
      call: 'notify',
      status: 'succeeded',
      output: 'sent',
      attempts: 1,
      branch: null,
      handled: false,
      error: null,
    });

    // And read back again: nothing left to run.
    log.length = 0;
    const again = await run(PLAN, { tools: shopTools(log), journal: dir, resume: true });
    expect(again.status).toBe('succeeded');
    expect(log).toEqual([]);
  });

  it('resumes a version 1 journal written by the planmode before version 2, appending in version 1', async () => {
    const dir = freshDir();
    copyFileSync(join(FIXTURES, V1_JOURNAL), join(dir, V1_JOURNAL));
    const before = readFileSync(join(dir, V1_JOURNAL), 'utf8');
    const log: string[] = [];
    const resumed = await run(PLAN, { tools: shopTools(log), journal: dir, resume: true });
    expect(resumed.status).toBe('succeeded');
    // price and charge completed in the version 1 journal: only notify runs.
    expect(log).toEqual(['notify']);
    expect(resumed.state).toEqual({ price: 5, paid: { receipt: 'r-5' }, sent: 'sent' });
    const after = readFileSync(join(dir, V1_JOURNAL), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    const appended = after
      .slice(before.length)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // Still version 1: every event, call:ready and state:write included.
    expect(appended.map((line) => line.type)).toContain('call:ready');
    expect(appended.map((line) => line.type)).toContain('state:write');
    expect(records(join(dir, V1_JOURNAL))[0]).toMatchObject({ type: 'journal', version: 1 });

    // And read back again.
    log.length = 0;
    const again = await run(PLAN, { tools: shopTools(log), journal: dir, resume: true });
    expect(again.status).toBe('succeeded');
    expect(log).toEqual([]);
  });

  it('reuses what a version 1 journal of an earlier version of the plan completed', async () => {
    const dir = freshDir();
    copyFileSync(join(FIXTURES, V1_JOURNAL), join(dir, V1_JOURNAL));
    const edited = [...PLAN.slice(0, 2), { _id: 'notify', _tool: 'notify', message: 'paid' }];
    const log: string[] = [];
    const resumed = await run(edited, { tools: shopTools(log), journal: dir, resume: true });
    expect(resumed.status).toBe('succeeded');
    expect(log).toEqual(['notify']);
    expect(resumed.resumedFrom).toMatchObject({
      journal: join(dir, V1_JOURNAL),
      reused: ['price', 'charge'],
    });
    // The new journal is version 4 and names the version 1 journal it resumed from.
    const own = readdirSync(dir).filter((file) => file.endsWith('.jsonl') && file !== V1_JOURNAL);
    expect(own).toHaveLength(1);
    expect(records(join(dir, own[0]!))[0]).toMatchObject({
      type: 'journal',
      version: 4,
      resumedFrom: V1_JOURNAL,
    });
  });
});

const DIGESTS = HAND_DIGESTS;
const AT = HAND_AT;
const HEADER_V2 = JSON.stringify({ type: 'journal', version: 2, digests: DIGESTS });
const START = JSON.stringify({ type: 'call:start', at: AT, call: 'a', tool: 't', attempt: 1, args: {} });
const end = wholeEnd;
const openError = refusal;
const journalOf = (text: string) => journalWith(freshDir(), text);

describe('a version 2 journal is untrusted input', () => {
  it('reads a version 2 journal Journal wrote', () => {
    const dir = journalOf(`${HEADER_V2}\n${START}\n${end()}\n`);
    const journal = Journal.open({ dir, runKey: 'run', resume: true, digests: DIGESTS });
    expect([...journal.completed.keys()]).toEqual(['a']);
    expect(journal.eventsRead).toBe(2);
    journal.close();
  });

  it('refuses call:ready and state:write lines under a version 2 header (a v2 header on v1 records)', () => {
    const ready = JSON.stringify({ type: 'call:ready', at: AT, call: 'a', tool: 't' });
    const write = JSON.stringify({ type: 'state:write', at: AT, call: 'a', path: '†state.x', value: 1 });
    for (const [line, type] of [
      [ready, 'call:ready'],
      [write, 'state:write'],
    ] as const) {
      const error = openError(journalOf(`${HEADER_V2}\n${line}\n${end()}\n`));
      expect(error.message).toContain(
        `line 2: a version 2 journal holds no ${type} records (planmode writes them only in version 1 journals)`,
      );
    }
  });

  it('refuses forged counts and numbers past what a count can be', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ attempts: -1 }, /a call:end must have a whole number \(0 or more\) "attempts", got -1/],
      [{ attempts: 2 ** 60 }, /a call:end must have a whole number \(0 or more\) "attempts"/],
      [{ attempts: 1.5 }, /"attempts", got 1\.5/],
      [{ branch: 2 ** 60 }, /an alternative index \(0 or more\) or null "branch"/],
      [{ durationMs: -5 }, /a number of milliseconds or null "durationMs"/],
    ];
    for (const [extra, message] of cases) {
      expect(openError(journalOf(`${HEADER_V2}\n${end(extra)}\n`)).message).toMatch(message);
    }
    // 1e999 is Infinity once parsed: not a count.
    const huge = end().replace('"attempts":1', '"attempts":1e999');
    expect(openError(journalOf(`${HEADER_V2}\n${huge}\n`)).message).toMatch(
      /line 2: the record.s value at \/attempts is Infinity/,
    );
  });

  it('removes a last line cut off by a crash, and refuses a cut-off line before the end', () => {
    const whole = end();
    const cutLast = journalOf(`${HEADER_V2}\n${START}\n${whole.slice(0, 60)}`);
    const journal = Journal.open({ dir: cutLast, runKey: 'run', resume: true, digests: DIGESTS });
    expect(journal.skippedLines).toBe(1);
    expect(journal.completed.size).toBe(0);
    journal.close();
    expect(readFileSync(join(cutLast, 'run.jsonl'), 'utf8')).toBe(`${HEADER_V2}\n${START}\n`);

    const cutMiddle = journalOf(`${HEADER_V2}\n${whole.slice(0, 60)}\n${whole}\n`);
    expect(openError(cutMiddle).message).toMatch(/line 2: the line is not JSON/);
  });

  it('refuses a version it does not know, a second header, and a line past the limit', () => {
    const v5 = JSON.stringify({ type: 'journal', version: 5, digests: DIGESTS });
    expect(openError(journalOf(`${v5}\n`)).message).toMatch(
      /the journal header says version 5; this planmode reads versions 1, 2, 3 and 4/,
    );
    const text = JSON.stringify({ type: 'journal', version: '2', digests: DIGESTS });
    expect(openError(journalOf(`${text}\n`)).message).toMatch(/says version "2"/);
    expect(openError(journalOf(`${HEADER_V2}\n${HEADER_V2}\n`)).message).toMatch(
      /line 2: a journal header may only be the first line/,
    );
    const dir = journalOf(`${HEADER_V2}\n${end({ output: 'x'.repeat(2_000) })}\n`);
    let error: unknown;
    try {
      Journal.open({ dir, runKey: 'run', resume: true, digests: DIGESTS, limits: { maxTextLength: 1_000 } });
    } catch (e) {
      error = e;
    }
    expect(isJournalError(error) && error.message).toMatch(
      /line 2: the line is longer than limits.maxTextLength \(1000 characters\)/,
    );
  });

  it("refuses another run's version 2 journal, naming the parts that differ", () => {
    const other = JSON.stringify({
      type: 'journal',
      version: 2,
      digests: { ...DIGESTS, plan: 'e'.repeat(64) },
    });
    expect(openError(journalOf(`${other}\n${end()}\n`)).message).toMatch(/plan/);
  });
});

describe('the version 2 writer of call records', () => {
  const shared = Object.freeze({ big: Object.freeze([1, 2, 3]) });
  const events: RunEvent[] = [
    { type: 'call:start', at: AT, call: 'a"\u2028', tool: 't', attempt: 2, args: { x: 'é\n', shared } },
    JSON.parse(end()) as RunEvent,
    JSON.parse(end({ output: undefined, status: 'failed', error: { message: 'm', code: 'C' } })) as RunEvent,
    {
      ...(JSON.parse(end()) as object),
      resumed: true,
      args: { shared },
      reused: true,
    } as unknown as RunEvent,
    { ...(JSON.parse(end()) as object), output: () => 1 } as unknown as RunEvent,
    { ...(JSON.parse(end()) as object), durationMs: Number.NaN } as unknown as RunEvent,
    { ...(JSON.parse(end()) as object), output: 10n } as unknown as RunEvent,
    { ...(JSON.parse(end()) as object), extra: 1 } as unknown as RunEvent,
    {
      ...(JSON.parse(end()) as object),
      output: {
        toJSON() {
          throw new Error('no');
        },
      },
    } as unknown as RunEvent,
  ];

  it('writes what encodeEvent writes, for the shapes the run makes and for the odd ones', () => {
    for (const event of events) {
      const line = encodeRecord(event);
      expect(line.endsWith('\n')).toBe(true);
      expect(line.indexOf('\n')).toBe(line.length - 1);
      expect(JSON.parse(line)).toEqual(JSON.parse(encodeEvent(event)));
    }
  });
});
