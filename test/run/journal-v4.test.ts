/**
 * Journal format version 4, what a new journal is: each call's start and end as a compact line
 * (`{"start": id, ...}`, `{"end": id, ...}`, fields at their usual value left out), every other
 * record as before. A compact line reads back as exactly the event the run told its observers;
 * journals of versions 2 and 3 written by the planmode before version 4 are still resumed and
 * appended to in their own version; a compact line is untrusted input like any other.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { branch, run, type RunEvent, type Tool } from '../../src/index.js';
import { Journal } from '../../src/run/journal/journal.js';
import { encodeCompact } from '../../src/run/journal/journal-compact.js';
import { encodeRecord } from '../../src/run/journal/journal-encode.js';
import { encodeEvent } from '../../src/run/journal/journal-format.js';
import {
  HAND_AT,
  HAND_DIGESTS,
  journalRecords,
  journalWith,
  refusal,
  wholeEnd,
  wholeRecord,
} from './journal-file.js';

const root = mkdtempSync(join(tmpdir(), 'planmode-journal-v4-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
function freshDir(): string {
  dirs += 1;
  const dir = join(root, `case-${dirs}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function journalIn(dir: string): string {
  const [name] = readdirSync(dir).filter((file) => file.endsWith('.jsonl'));
  return join(dir, name!);
}

const rawLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');

const ISO = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

const PLAN = [
  { _id: 'price', _tool: 'price', item: 'book', _outputPath: '†state.price' },
  { _id: 'charge', _tool: 'charge', amount: '†state.price', card: 'visa', _outputPath: '†state.paid' },
  { _id: 'pick', _tool: 'pick', paid: '†state.paid', _outputPath: '†state.left || †state.right' },
];

const tools: Tool[] = [
  { name: 'price', execute: () => 5 },
  { name: 'charge', execute: (args) => ({ receipt: `r-${String(args.amount)}` }) },
  { name: 'pick', execute: () => branch(1, 'right') },
];

describe('journal format version 4', () => {
  it('a new run writes compact lines, and each reads back as the event its observers got', async () => {
    const dir = freshDir();
    const told: RunEvent[] = [];
    const result = await run(PLAN, { tools, journal: dir, onEvent: (event) => told.push(event) });
    expect(result.status).toBe('succeeded');
    const path = journalIn(dir);
    const lines = rawLines(path);
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'journal', version: 4 });
    // Defaults left out: no attempt 1, no succeeded, no null branch or error, no handled false.
    expect(lines[2]).toMatch(
      new RegExp(`^\\{"start":"price","tool":"price","args":\\{"item":"book"\\},"at":"${ISO}"\\}$`),
    );
    expect(lines[3]).toMatch(
      new RegExp(`^\\{"end":"price","tool":"price","durationMs":\\d+,"output":5,"at":"${ISO}"\\}$`),
    );
    // A chosen alternative is written, as it is not the default.
    expect(lines.find((line) => line.startsWith('{"end":"pick"'))).toMatch(/"branch":1,.*"output":"right"/);

    const records = journalRecords(path);
    for (const event of told) {
      if (event.type !== 'call:start' && event.type !== 'call:end') continue;
      const record = records.find((r) => r.type === event.type && r.call === event.call);
      // A start written ahead carries the time it was written.
      const { at: _told, ...rest } = event;
      expect(record).toMatchObject(JSON.parse(JSON.stringify(rest)) as object);
      expect(Object.keys(record!).sort()).toEqual(Object.keys(event).sort());
    }
  });

  it('resumes its own journal: completed calls are put back, the rest run', async () => {
    const dir = freshDir();
    const controller = new AbortController();
    const log: string[] = [];
    const stopping: Tool[] = [
      { name: 'price', execute: () => (log.push('price'), 5) },
      { name: 'charge', execute: (args) => (log.push('charge'), { receipt: `r-${String(args.amount)}` }) },
      {
        name: 'pick',
        execute: (_args, ctx) => {
          log.push('pick');
          return new Promise((_resolve, reject) => {
            ctx.abortSignal.addEventListener('abort', () => reject(ctx.abortSignal.reason as Error));
            controller.abort();
          });
        },
      },
    ];
    expect((await run(PLAN, { tools: stopping, journal: dir, signal: controller.signal })).status).toBe(
      'cancelled',
    );
    log.length = 0;
    const resumed = await run(PLAN, {
      tools: [...tools.slice(0, 2).map((t) => ({ ...t, execute: () => log.push(t.name) })), tools[2]!],
      journal: dir,
      resume: true,
    });
    expect(resumed.status).toBe('succeeded');
    expect(log).toEqual([]);
    expect(resumed.state).toEqual({ price: 5, paid: { receipt: 'r-5' }, right: 'right' });
    expect(resumed.calls.find((c) => c.id === 'price')).toMatchObject({ status: 'succeeded', output: 5 });
  });

  it('a version 3 journal an earlier planmode wrote is resumed, and appended to in version 3', async () => {
    // Written by the build before version 4 (fixtures/journal-v2-v3/make-journals.mjs): a
    // _forEach over 5 elements, element 3 failed, element 4 never started.
    const dir = freshDir();
    const fixtures = join(import.meta.dirname, 'fixtures', 'journal-v2-v3', 'each');
    const [name] = readdirSync(fixtures);
    copyFileSync(join(fixtures, name!), join(dir, name!));
    const path = join(dir, name!);
    const before = readFileSync(path, 'utf8');
    expect(JSON.parse(before.split('\n')[0]!)).toMatchObject({ version: 3 });
    const ran: number[] = [];
    const step: Tool = {
      name: 'step',
      inputSchema: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] },
      outputSchema: { type: 'number' },
      execute: (args) => (ran.push(args.v as number), (args.v as number) * 10),
    };
    const list: Tool = {
      name: 'list',
      outputSchema: { type: 'array', items: { type: 'number' } },
      execute: () => [1, 2, 3, 4, 5],
    };
    const plan = [
      { _id: 'l', _tool: 'list', _outputPath: '†state.list' },
      { _id: 'each', _tool: 'step', _forEach: '†state.list', v: '†item', _outputPath: '†state.out' },
    ];
    const resumed = await run(plan, { tools: [list, step], journal: dir, resume: true, concurrency: 1 });
    expect(resumed.status).toBe('succeeded');
    expect(ran).toEqual([4, 5]);
    expect(resumed.state.out).toEqual([10, 20, 30, 40, 50]);
    const after = readFileSync(path, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    const appended = after.slice(before.length).split('\n').filter(Boolean);
    expect(appended.length).toBeGreaterThan(0);
    for (const line of appended) expect(line.startsWith('{"type":')).toBe(true);
  });
});

const DIGESTS = HAND_DIGESTS;
const AT = HAND_AT;
const header = (version: number) => JSON.stringify({ type: 'journal', version, digests: DIGESTS });
const START = JSON.stringify({ start: 'a', tool: 't', args: {}, at: AT });
const END = JSON.stringify({ end: 'a', tool: 't', durationMs: 1, output: 1, at: AT });
const openError = refusal;
const journalOf = (text: string) => journalWith(freshDir(), text);

describe('a version 4 journal is untrusted input', () => {
  it('reads compact lines and whole ones alike', () => {
    const whole = wholeEnd({ call: 'b', output: 2 });
    const journal = Journal.open({
      dir: journalOf(`${header(4)}\n${START}\n${END}\n${whole}\n`),
      runKey: 'run',
      resume: true,
      digests: DIGESTS,
    });
    expect([...journal.completed.keys()]).toEqual(['a', 'b']);
    expect(journal.completed.get('a')).toEqual({
      type: 'call:end',
      call: 'a',
      tool: 't',
      status: 'succeeded',
      branch: null,
      handled: false,
      attempts: 1,
      durationMs: 1,
      error: null,
      output: 1,
      at: AT,
    });
    journal.close();
  });

  it('refuses forged compact lines, at their line, saying what is wrong', () => {
    const cases: [string, RegExp][] = [
      [
        JSON.stringify({ end: 7, tool: 't', at: AT }),
        /line 2: a compact call:end must have the call's id, a string, as "end", got 7/,
      ],
      [
        JSON.stringify({ start: 'a', end: 'a', tool: 't', at: AT }),
        /line 2: a compact record has both "start" and "end"/,
      ],
      [
        JSON.stringify({ end: 'a', call: 'a', tool: 't', at: AT }),
        /line 2: a compact call:end names its call in "end" and must not have "call" too/,
      ],
      [
        JSON.stringify({ end: 'a', tool: 't', at: AT, output: 1, sneaky: 1 }),
        /line 2: a call:end has an unknown field "sneaky"/,
      ],
      [
        JSON.stringify({ end: 'a', tool: 't', at: AT, status: 'pwned' }),
        /line 2: a call:end must have a call status/,
      ],
      [JSON.stringify({ end: 'a', at: AT, output: 1 }), /line 2: a call:end must have a string "tool"/],
      [JSON.stringify({ start: 'a', tool: 't', at: AT }), /line 2: a call:start must have an object "args"/],
      [
        JSON.stringify({ start: 'a', tool: 't', args: {}, attempt: -1, at: AT }),
        /line 2: a call:start must have a whole number/,
      ],
      [
        '{"end":"a","tool":"t","at":"x","output":1,"__proto__":{"status":"failed"}}',
        /line 2: a call:end has an unknown field "__proto__"/,
      ],
      [
        JSON.stringify({ tool: 't', at: AT }),
        /line 2: not a journal record: expected a string "type" \(or, for a call's start or end, "start" or "end"\)/,
      ],
    ];
    for (const [line, message] of cases) {
      expect(openError(journalOf(`${header(4)}\n${line}\n`)).message).toMatch(message);
    }
  });

  it('refuses a compact line under a version 2 or 3 header: those versions never held one', () => {
    for (const version of [2, 3]) {
      expect(openError(journalOf(`${header(version)}\n${END}\n`)).message).toMatch(
        /line 2: not a journal record: expected a string "type", got nothing/,
      );
    }
  });

  it('writes a new journal in version 2 or 3 when asked, and refuses any other version', () => {
    for (const version of [2, 3] as const) {
      const dir = freshDir();
      const journal = Journal.open({ dir, runKey: 'run', resume: false, digests: DIGESTS, version });
      journal.append(JSON.parse(encodeEvent(JSON.parse(wholeLine()) as RunEvent)) as RunEvent);
      journal.close();
      const lines = rawLines(join(dir, 'run.jsonl'));
      expect(JSON.parse(lines[0]!)).toMatchObject({ version });
      expect(lines[1]!.startsWith('{"type":"call:end"')).toBe(true);
    }
    for (const version of [1, 5, '4', null]) {
      expect(() =>
        Journal.open({
          dir: freshDir(),
          runKey: 'run',
          resume: false,
          digests: DIGESTS,
          version: version as 4,
        }),
      ).toThrow(/Journal.open: version must be one of 2, 3, 4, got/);
    }
  });
});

const wholeLine = wholeEnd;

describe('the version 4 writer of call records', () => {
  const shared = Object.freeze({ big: Object.freeze([1, 2, 3]) });
  const end = (extra: Record<string, unknown> = {}) => JSON.parse(wholeLine(extra)) as RunEvent;
  const plain: RunEvent[] = [
    { type: 'call:start', at: AT, call: 'a"\u2028', tool: 't', attempt: 2, args: { x: 'é\n', shared } },
    { type: 'call:start', at: AT, call: 'a', tool: 't', attempt: 1, args: {} },
    end(),
    end({ output: undefined, status: 'failed', error: { message: 'm', code: 'C' }, attempts: 3 }),
    end({ status: 'failed', handled: true, branch: 1, output: { message: 'm' } }),
    end({ status: 'skipped', durationMs: null, output: undefined }),
    { ...(end() as object), resumed: true, args: { shared }, reused: true } as unknown as RunEvent,
  ];
  const odd: RunEvent[] = [
    { ...(end() as object), durationMs: Number.NaN } as unknown as RunEvent,
    { ...(end() as object), output: 10n } as unknown as RunEvent,
    { ...(end() as object), extra: 1 } as unknown as RunEvent,
    {
      ...(end() as object),
      output: {
        toJSON() {
          throw new Error('no');
        },
      },
    } as unknown as RunEvent,
    { type: 'run:end', at: AT, status: 'succeeded' },
  ];

  it('writes compact lines that read back as the whole event encodeEvent writes', () => {
    for (const event of plain) {
      const line = encodeCompact(event);
      expect(line.endsWith('\n')).toBe(true);
      expect(line.indexOf('\n')).toBe(line.length - 1);
      expect(line.startsWith('{"type"')).toBe(false);
      expect(wholeRecord(JSON.parse(line) as Record<string, unknown>)).toEqual(
        JSON.parse(encodeEvent(event)),
      );
    }
  });

  it('writes any other event whole, as encodeEvent does', () => {
    for (const event of odd) expect(encodeCompact(event)).toBe(encodeEvent(event));
  });

  it('round-trips every call:end the run can make', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(
        fc.record(
          {
            call: fc.string(),
            tool: fc.string(),
            status: fc.constantFrom('succeeded', 'failed', 'skipped', 'cancelled', 'upstream_failed'),
            branch: fc.option(fc.nat()),
            handled: fc.boolean(),
            attempts: fc.nat(),
            durationMs: fc.option(fc.nat()),
            error: fc.option(fc.record({ message: fc.string() })),
            output: json,
            resumed: fc.boolean(),
          },
          {
            requiredKeys: ['call', 'tool', 'status', 'branch', 'handled', 'attempts', 'durationMs', 'error'],
          },
        ),
        (fields) => {
          const event = { type: 'call:end', ...fields, at: AT } as unknown as RunEvent;
          const line = encodeCompact(event);
          expect(wholeRecord(JSON.parse(line) as Record<string, unknown>)).toEqual(
            JSON.parse(encodeEvent(event)),
          );
        },
      ),
    );
  });

  it('writes about half the characters of version 3 for the calls of a plain run', () => {
    const events: RunEvent[] = [];
    for (let i = 0; i < 100; i++) {
      events.push({
        type: 'call:start',
        at: AT,
        call: `c${i}`,
        tool: 'step',
        attempt: 1,
        args: { n: i, prev: i - 1 },
      });
      events.push(end({ call: `c${i}`, tool: 'step', durationMs: 0, output: i }));
    }
    const compact = events.reduce((sum, event) => sum + encodeCompact(event).length, 0);
    const whole = events.reduce((sum, event) => sum + encodeRecord(event).length, 0);
    expect(compact / whole).toBeLessThan(0.6);
  });
});
