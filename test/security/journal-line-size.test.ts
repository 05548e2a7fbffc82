/**
 * Every line the journal writes, a resume reads back (issue 29): a resume refuses a line longer
 * than limits.maxTextLength, so the writer sizes the whole record, not only the value in it. A
 * result whose call:end would pass the bound fails its call with LIMIT before its output is
 * written; any other field too long for a line is written as a stand-in.
 */
import type { PlanInput } from '../../src/language/document.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/language/limits.js';
import { callEndOverhead, fitLine, resultTooLong } from '../../src/run/journal/journal-line-size.js';
import { run, type RunEvent, type RunOptions, type Tool } from '../../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'planmode-journal-line-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
function freshDir(): string {
  dirs += 1;
  return join(root, `case-${dirs}`);
}

function journalLines(dir: string): string[] {
  const [name] = readdirSync(dir).filter((file) => file.endsWith('.jsonl'));
  return readFileSync(join(dir, name!), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}

const MAX = 2_000;
const limits = { maxTextLength: MAX };

/** A tool returning `answer`, counting its runs. */
function counted(answer: unknown): { tool: Tool; runs: () => number } {
  let runs = 0;
  return {
    tool: {
      name: 'big',
      execute: () => {
        runs += 1;
        return answer;
      },
    },
    runs: () => runs,
  };
}

/** Runs, then resumes, the plan: the resume reads every line the run wrote. */
async function runAndResume(plan: PlanInput, options: RunOptions) {
  const dir = freshDir();
  const first = await run(plan, { ...options, journal: dir, limits });
  const lines = journalLines(dir);
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(MAX);
  const again = await run(plan, { ...options, journal: dir, limits, resume: true });
  return { first, again, lines };
}

describe('every line the journal writes, a resume reads back', () => {
  it('a result within maxTextLength whose call:end would be longer fails with LIMIT, and the journal resumes', async () => {
    // The result's JSON is 1,990 characters: within the 2,000 of a result, not of its record.
    const { tool, runs } = counted('x'.repeat(1_988));
    const plan = [{ _id: 'fetch', _tool: 'big', _outputPath: '†state.page' }];
    const { first, again } = await runAndResume(plan, { tools: [tool] });
    expect(first.status).toBe('failed');
    expect(first.calls[0]!.error?.code).toBe('LIMIT');
    expect(first.calls[0]!.error?.message).toMatch(
      /^the result is 1990 characters of JSON, and its journal record \(up to \d+ more\) would be longer than limits\.maxTextLength \(2000 characters\), the longest line a resume reads; return less, or raise maxTextLength$/,
    );
    // Nothing was written from it.
    expect(first.state).toEqual({});
    expect(again.status).toBe('failed');
    expect(runs()).toBe(2);
  });

  it('escapes count: 300 control characters are 1,802 characters of JSON', async () => {
    const { tool } = counted('\u0001'.repeat(300));
    const plan = [{ _id: 'fetch', _tool: 'big', _outputPath: '†state.page' }];
    const { first } = await runAndResume(plan, { tools: [tool] });
    expect(first.calls[0]!.error?.message).toMatch(/^the result is 1802 characters of JSON/);
  });

  it('a result that fits with its record completes, and the resume reuses it', async () => {
    const answer = 'x'.repeat(MAX - callEndOverhead('fetch', 'big') - 2);
    const { tool, runs } = counted(answer);
    const plan = [{ _id: 'fetch', _tool: 'big', _outputPath: '†state.page' }];
    const { first, again } = await runAndResume(plan, { tools: [tool] });
    expect(first.status).toBe('succeeded');
    expect(again.status).toBe('succeeded');
    expect(again.state).toEqual({ page: answer });
    expect(runs()).toBe(1);
  });

  it('arguments longer than a line are journaled as a stand-in; the call is still reused', async () => {
    const text = 'y'.repeat(980);
    const { tool, runs } = counted('done');
    // Two arguments read the same 980 characters: the call:start line would hold 1,960 and more.
    const plan = [
      { _id: 'send', _tool: 'big', a: '†input.text', b: '†input.text', _outputPath: '†state.sent' },
    ];
    const { first, again, lines } = await runAndResume(plan, { tools: [tool], input: { text } });
    expect(first.status).toBe('succeeded');
    const start = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((r) => r.type === 'call:start')!;
    expect(start.unserializableFields).toEqual(['args']);
    expect(start.args).toEqual({
      unserializable: expect.stringMatching(
        /^too long for the journal: \d+ characters of JSON, and a line may have at most 2000 \(limits\.maxTextLength\)$/,
      ) as unknown,
    });
    expect(again.status).toBe('succeeded');
    expect(again.calls[0]!.status).toBe('succeeded');
    expect(runs()).toBe(1);
    // The resumed call:end carries the arguments too: its line gives them up, and a third run resumes.
    const third = await run(plan, {
      tools: [tool],
      input: { text },
      journal: join(root, `case-${dirs}`),
      limits,
      resume: true,
    });
    expect(third.status).toBe('succeeded');
    expect(runs()).toBe(1);
  });

  it('at the default limits too: a result just within maxTextLength is refused before its record is written', () => {
    const bound = DEFAULT_LIMITS.maxTextLength;
    expect(resultTooLong('fetch', 'big', undefined, bound - 10, bound)).toMatch(
      /longer than limits\.maxTextLength/,
    );
    expect(resultTooLong('fetch', 'big', 'small', 7, bound)).toBeUndefined();
  });

  it('fitLine keeps each line within the bound, whatever the event', () => {
    const events: RunEvent[] = [
      { type: 'state:write', at: 't', call: 'c', path: '†state.a', value: 'v'.repeat(5_000) },
      {
        type: 'call:retry',
        at: 't',
        call: 'c',
        tool: 't',
        attempt: 1,
        delayMs: 0,
        error: { message: 'e'.repeat(5_000) },
      },
      { type: 'call:ready', at: 't', call: 'c'.repeat(5_000), tool: 't' },
    ];
    for (const event of events) {
      const line = fitLine(event, `${JSON.stringify(event)}\n`, 1_000);
      expect(line.length - 1).toBeLessThanOrEqual(1_000);
      expect(line.endsWith('\n')).toBe(true);
      expect((JSON.parse(line) as { type: string }).type).toBe(event.type);
    }
  });
});
