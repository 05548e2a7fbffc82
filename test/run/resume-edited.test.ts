/**
 * Resuming after the plan was edited: the journal of an earlier version of the plan gives back
 * the results of the calls that did not change (same id, tool, tool definition and resolved
 * arguments); everything else runs, and the result says which and why. Where reuse cannot be
 * judged (several earlier versions, a damaged journal, other tools without a digest per tool),
 * the resume is refused before anything runs. Never does it start silently from nothing.
 */
import type { PlanInput } from '../../src/language/document.js';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isJournalError, type JournalError, run, type RunOptions, type Tool } from '../../src/index.js';
import type { RunEvent, RunResult } from '../../src/run/types.js';

const root = mkdtempSync(join(tmpdir(), 'planmode-resume-edited-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
function freshDir(): string {
  dirs += 1;
  return join(root, `case-${dirs}`);
}

/** A gate a tool waits at until the test opens it, telling the test when it got there. */
function gate() {
  let open!: () => void;
  let arrived!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  return { opened, open, reached, arrived };
}

/**
 * price -> charge -> notify. `log` notes each tool's run (the charge is the effect that must not
 * happen twice); `hold`, when given, is where notify waits (and is cancelled, as by a crash).
 */
function shopTools(
  log: string[],
  hold?: ReturnType<typeof gate>,
  changes: Record<string, Partial<Tool>> = {},
) {
  const tools: Tool[] = [
    {
      name: 'price',
      execute: (args) => {
        log.push(`price ${String(args.item)}`);
        return 5;
      },
    },
    {
      name: 'charge',
      execute: (args) => {
        log.push(`charge ${String(args.amount)} ${String(args.card)}`);
        return { receipt: `r-${String(args.amount)}` };
      },
    },
    {
      name: 'notify',
      execute: async (args, ctx) => {
        log.push(`notify ${String(args.message)}`);
        if (hold) {
          hold.arrived();
          await new Promise((resolve, reject) => {
            void hold.opened.then(resolve);
            ctx.abortSignal.addEventListener('abort', () => reject(ctx.abortSignal.reason as Error));
          });
        }
        return 'sent';
      },
    },
  ];
  return tools.map((tool) => ({ ...tool, ...changes[tool.name] }));
}

const V1 = [
  { _id: 'price', _tool: 'price', item: 'book', _outputPath: '†state.price' },
  { _id: 'charge', _tool: 'charge', amount: '†state.price', card: 'visa', _outputPath: '†state.paid' },
  { _id: 'notify', _tool: 'notify', message: '†state.paid.receipt', _outputPath: '†state.sent' },
];

/** V1 with notify's message changed and a call added. */
const V2 = [
  ...V1.slice(0, 2),
  { _id: 'notify', _tool: 'notify', message: 'paid', _outputPath: '†state.sent' },
  { _id: 'thank', _tool: 'notify', message: 'thanks' },
];

/** Runs `plan` until notify is reached, then stops it there (as a crash would): the journal holds price and charge. */
async function interrupted(plan: PlanInput, dir: string, log: string[], extra: Partial<RunOptions> = {}) {
  const hold = gate();
  const controller = new AbortController();
  void hold.reached.then(() => controller.abort());
  const result = await run(plan, {
    tools: shopTools(log, hold),
    journal: dir,
    signal: controller.signal,
    ...extra,
  });
  expect(result.status).toBe('cancelled');
  return result;
}

function journals(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
}

async function refused(promise: Promise<RunResult>): Promise<JournalError> {
  const error: unknown = await promise.then(
    () => new Error('the resume was expected to be refused'),
    (e: unknown) => e,
  );
  if (!isJournalError(error)) throw error;
  expect(error.message).not.toContain('\n');
  return error;
}

describe('resume after the plan was edited', () => {
  it('reuses the calls that did not change; a changed and a new call run; the charge happens once', async () => {
    const dir = freshDir();
    const log: string[] = [];
    await interrupted(V1, dir, log);
    expect(log).toEqual(['price book', 'charge 5 visa', 'notify r-5']);
    const [earlier] = journals(dir);

    log.length = 0;
    const events: RunEvent[] = [];
    const result = await run(V2, {
      tools: shopTools(log),
      journal: dir,
      resume: true,
      onEvent: (e) => events.push(e),
    });
    expect(result.status).toBe('succeeded');
    expect(log.sort()).toEqual(['notify paid', 'notify thanks']);
    expect(result.state).toEqual({ price: 5, paid: { receipt: 'r-5' }, sent: 'sent' });
    expect(result.resumedFrom).toEqual({
      journal: join(dir, earlier!),
      reused: ['price', 'charge'],
      notReused: [
        { call: 'notify', reason: 'did not succeed' },
        { call: 'thank', reason: 'not run before' },
      ],
    });
    const ends = events.filter((e) => e.type === 'call:end');
    expect(ends.filter((e) => e.resumed).map((e) => [e.call, e.args])).toEqual([
      ['price', { item: 'book' }],
      ['charge', { amount: 5, card: 'visa' }],
    ]);

    // The new run has its own journal; the earlier one is left as it was.
    expect(journals(dir)).toHaveLength(2);
    // Resuming the new version again reuses its own journal: nothing runs.
    log.length = 0;
    const again = await run(V2, { tools: shopTools(log), journal: dir, resume: true });
    expect(again.status).toBe('succeeded');
    expect(log).toEqual([]);
    expect(again.resumedFrom).toBeUndefined();
  });

  it('compares resolved arguments: other plan text with the same values is reused, other values run', async () => {
    const original = freshDir();
    const log: string[] = [];
    await interrupted(V1, original, log);
    const [earlier] = journals(original);

    // The amount written as a literal: the text changed, the resolved arguments did not.
    const literal = structuredClone(V1);
    literal[1]!.amount = 5 as unknown as string;
    const same = freshDir();
    mkdirSync(same);
    copyFileSync(join(original, earlier!), join(same, earlier!));
    log.length = 0;
    const reused = await run(literal, { tools: shopTools(log), journal: same, resume: true });
    expect(log).toEqual(['notify r-5']);
    expect(reused.resumedFrom?.reused).toEqual(['price', 'charge']);

    // Another card: the charge's arguments differ, so it runs, and the result says why.
    const otherCard = structuredClone(V1);
    otherCard[1]!.card = 'amex';
    const other = freshDir();
    mkdirSync(other);
    copyFileSync(join(original, earlier!), join(other, earlier!));
    log.length = 0;
    const ran = await run(otherCard, { tools: shopTools(log), journal: other, resume: true });
    expect(log).toEqual(['charge 5 amex', 'notify r-5']);
    expect(ran.resumedFrom?.reused).toEqual(['price']);
    expect(ran.resumedFrom?.notReused).toEqual([
      { call: 'charge', reason: 'arguments differ' },
      { call: 'notify', reason: 'did not succeed' },
    ]);
  });

  it('runs again a call whose tool definition changed, and says so', async () => {
    const dir = freshDir();
    const log: string[] = [];
    await interrupted(V1, dir, log);
    log.length = 0;
    const result = await run(V2, {
      tools: shopTools(log, undefined, { charge: { timeoutMs: 5_000 } }),
      journal: dir,
      resume: true,
    });
    expect(log.sort()).toEqual(['charge 5 visa', 'notify paid', 'notify thanks']);
    expect(result.resumedFrom?.reused).toEqual(['price']);
    expect(result.resumedFrom?.notReused).toContainEqual({
      call: 'charge',
      reason: 'tool definition differs',
    });
  });

  it('follows the version it resumed from when that one is resumed in turn', async () => {
    const dir = freshDir();
    const log: string[] = [];
    await interrupted(V1, dir, log);
    const [first] = journals(dir);

    // V3 prices another item (the price is the same): price runs, and is stopped before the
    // charge it feeds was ready, so the charge is not in V3's own journal.
    const v3 = structuredClone(V1);
    v3[0]!.item = 'pen';
    const priced = gate();
    const controller = new AbortController();
    void priced.reached.then(() => controller.abort());
    const tools = shopTools(log);
    tools[0] = {
      name: 'price',
      execute: async (args, ctx) => {
        log.push(`price ${String(args.item)}`);
        priced.arrived();
        await new Promise((_, reject) =>
          ctx.abortSignal.addEventListener('abort', () => reject(ctx.abortSignal.reason as Error)),
        );
      },
    };
    log.length = 0;
    const stopped = await run(v3, { tools, journal: dir, resume: true, signal: controller.signal });
    expect(stopped.status).toBe('cancelled');
    expect(log).toEqual(['price pen']);

    // Resumed again: its own journal says where it came from, so the charge is still reused.
    log.length = 0;
    const result = await run(v3, { tools: shopTools(log), journal: dir, resume: true });
    expect(result.status).toBe('succeeded');
    expect(log).toEqual(['price pen', 'notify r-5']);
    expect(result.resumedFrom).toEqual({
      journal: join(dir, first!),
      reused: ['charge'],
      notReused: [
        { call: 'price', reason: 'arguments differ' },
        { call: 'notify', reason: 'did not succeed' },
      ],
    });
  });

  it('leaves journals of another input alone: a run of another input starts afresh', async () => {
    const dir = freshDir();
    const log: string[] = [];
    await interrupted(V1, dir, log, { input: { order: 1 } });
    log.length = 0;
    const result = await run(V2, { tools: shopTools(log), journal: dir, resume: true, input: { order: 2 } });
    expect(result.status).toBe('succeeded');
    expect(log.sort()).toEqual(['charge 5 visa', 'notify paid', 'notify thanks', 'price book']);
    expect(result.resumedFrom).toBeUndefined();
  });

  it('without resume, an edited plan starts afresh as before', async () => {
    const dir = freshDir();
    const log: string[] = [];
    await interrupted(V1, dir, log);
    log.length = 0;
    const result = await run(V2, { tools: shopTools(log), journal: dir });
    expect(log.sort()).toEqual(['charge 5 visa', 'notify paid', 'notify thanks', 'price book']);
    expect(result.resumedFrom).toBeUndefined();
  });
});

describe('resume after the plan was edited: refusals', () => {
  it('refuses when several journals of earlier versions could be meant, naming them; nothing runs', async () => {
    const dir = freshDir();
    const log: string[] = [];
    await interrupted(V1, dir, log);
    const otherItem = structuredClone(V1);
    otherItem[0]!.item = 'pen';
    await interrupted(otherItem, dir, log);
    const before = journals(dir);
    expect(before).toHaveLength(2);

    log.length = 0;
    const error = await refused(run(V2, { tools: shopTools(log), journal: dir, resume: true }));
    expect(log).toEqual([]);
    expect(error.message).toMatch(
      /^cannot resume: the journal directory '.*' holds no journal of this plan but 2 of earlier versions of it with this input and state \('[0-9a-f]{64}\.jsonl' \(written [^)]+\), '[0-9a-f]{64}\.jsonl' \(written [^)]+\)\), and which to resume from cannot be told: remove those not to resume from, or run without --resume to start over$/,
    );
    for (const name of before) expect(error.message).toContain(name);
    // No journal of its own is left behind.
    expect(journals(dir)).toEqual(before);
  });

  it('looks at a bounded number of journals: a folder with more is refused', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    for (let k = 0; k <= 1000; k++) writeFileSync(join(dir, `other-${k}.jsonl`), '');
    const log: string[] = [];
    const error = await refused(run(V2, { tools: shopTools(log), journal: dir, resume: true }));
    expect(log).toEqual([]);
    expect(error.message).toMatch(
      /^cannot look for the journal of an earlier version of the plan: the journal directory '.*' holds more than 1000 journals; move old journals elsewhere, or run without --resume to start over$/,
    );
  });

  it('refuses a damaged journal of the earlier version at its line', async () => {
    const dir = freshDir();
    const log: string[] = [];
    await interrupted(V1, dir, log);
    const [earlier] = journals(dir);
    const path = join(dir, earlier!);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.splice(2, 0, 'garbage');
    writeFileSync(path, lines.join('\n'));

    log.length = 0;
    const error = await refused(run(V2, { tools: shopTools(log), journal: dir, resume: true }));
    expect(log).toEqual([]);
    expect(error.message).toMatch(
      /^cannot resume from the journal '.*': line 3: the line is not JSON \(.*\); remove it, or run without --resume to start over$/,
    );
    expect(error.line).toBe(3);
  });

  it('refuses an earlier journal of other tools that records no digest per tool', async () => {
    const dir = freshDir();
    const log: string[] = [];
    await interrupted(V1, dir, log);
    const [earlier] = journals(dir);
    const path = join(dir, earlier!);
    const [first, ...rest] = readFileSync(path, 'utf8').split('\n');
    const header = JSON.parse(first!) as Record<string, unknown>;
    delete header.toolDigests;
    writeFileSync(path, [JSON.stringify(header), ...rest].join('\n'));

    log.length = 0;
    const error = await refused(
      run(V2, {
        tools: shopTools(log, undefined, { notify: { retries: 1 } }),
        journal: dir,
        resume: true,
      }),
    );
    expect(log).toEqual([]);
    expect(error.message).toMatch(
      /^cannot resume from the journal '.*' of an earlier version of the plan: it was written for a different set of tools and records no digest per tool .*; remove it, or run without --resume to start over$/,
    );
    expect(error.differs).toEqual(['tools']);
  });

  it('refuses an earlier result that does not fit the call it would be reused for', async () => {
    const dir = freshDir();
    const log: string[] = [];
    await interrupted(V1, dir, log);
    // The charge now chooses between two outcomes: its earlier result names none.
    const branched: Record<string, unknown>[] = structuredClone(V2);
    branched[1]!._outputPath = '†state.paid || †state.declined';
    log.length = 0;
    const error = await refused(run(branched, { tools: shopTools(log), journal: dir, resume: true }));
    expect(log).toEqual([]);
    expect(error.message).toMatch(
      /line \d+: a succeeded call:end for call "charge" must name the alternative/,
    );
  });
});
