/**
 * The journal of what runs inside a call: each `_forEach` element and each workflow sub-call.
 * A resume runs again only the elements and sub-calls that did not finish; the records are
 * read as untrusted (forged ones are refused before anything runs); a version 2 journal holds none.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isJournalError, run, type Tool } from '../../src/index.js';
import { journalRecords, rewriteAsVersion } from './journal-file.js';

function freshDir(): string {
  return mkdtempSync(join(tmpdir(), 'planmode-parts-'));
}

function journalFile(dir: string): string {
  const name = readdirSync(dir).find((n) => n.endsWith('.jsonl'))!;
  return join(dir, name);
}

/** A tool that counts its runs per argument and fails for the arguments in `failing`. */
function counted(name: string, failing: Set<number>, runs: number[]): Tool {
  return {
    name,
    inputSchema: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] },
    outputSchema: { type: 'number' },
    execute: (args) => {
      const v = args.v as number;
      runs.push(v);
      if (failing.has(v)) throw new Error(`${name} fails on ${v}`);
      return v * 10;
    },
  };
}

const list: Tool = {
  name: 'list',
  outputSchema: { type: 'array', items: { type: 'number' } },
  execute: () => [1, 2, 3, 4, 5],
};

const FOR_EACH_PLAN = [
  { _id: 'l', _tool: 'list', _outputPath: '†state.list' },
  { _id: 'each', _tool: 'step', _forEach: '†state.list', v: '†item', _outputPath: '†state.out' },
];

function workflow(): Tool {
  return {
    name: 'wf',
    inputSchema: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] },
    plan: [
      { _id: 'a', _tool: 'step', v: '†input.v', _outputPath: '†state.a' },
      { _id: 'b', _tool: 'flaky', v: '†state.a', _outputPath: '†state.b' },
    ],
    output: '†state.b',
  } as unknown as Tool;
}

describe('journal of for-each elements', () => {
  it('a resume runs only the elements that did not finish, and assembles the output in order', async () => {
    const dir = freshDir();
    const runs: number[] = [];
    const first = await run(FOR_EACH_PLAN, {
      tools: [list, counted('step', new Set([4]), runs)],
      journal: dir,
      concurrency: 1,
    });
    expect(first.status).toBe('failed');
    expect(runs).toEqual([1, 2, 3, 4]);
    const [header] = journalRecords(journalFile(dir));
    expect(header!.version).toBe(4);

    const again: number[] = [];
    const resumed = await run(FOR_EACH_PLAN, {
      tools: [list, counted('step', new Set(), again)],
      journal: dir,
      resume: true,
      concurrency: 1,
    });
    expect(resumed.status).toBe('succeeded');
    expect(again).toEqual([4, 5]);
    expect(resumed.state.out).toEqual([10, 20, 30, 40, 50]);
  });

  it('a plan of plain calls writes the same version, without element records', async () => {
    const dir = freshDir();
    await run([{ _id: 'x', _tool: 'step', v: 1, _outputPath: '†state.x' }], {
      tools: [counted('step', new Set(), [])],
      journal: dir,
    });
    const records = journalRecords(journalFile(dir));
    expect(records[0]!.version).toBe(4);
    expect(records.map((r) => r.type)).toEqual(['journal', 'run:start', 'call:start', 'call:end', 'run:end']);
  });
});

describe('journal of workflow sub-calls', () => {
  it('a resume runs only the sub-calls that did not finish, with the sub-plan state rebuilt', async () => {
    const dir = freshDir();
    const plan = [{ _id: 'w', _tool: 'wf', v: 2, _outputPath: '†state.w' }];
    const steps: number[] = [];
    const flaky: number[] = [];
    const first = await run(plan, {
      tools: [counted('step', new Set(), steps), counted('flaky', new Set([20]), flaky), workflow()],
      journal: dir,
    });
    expect(first.status).toBe('failed');
    expect(steps).toEqual([2]);

    const steps2: number[] = [];
    const flaky2: number[] = [];
    const resumed = await run(plan, {
      tools: [counted('step', new Set(), steps2), counted('flaky', new Set(), flaky2), workflow()],
      journal: dir,
      resume: true,
    });
    expect(resumed.status).toBe('succeeded');
    expect(steps2).toEqual([]);
    expect(flaky2).toEqual([20]);
    expect(resumed.state.w).toBe(200);
  });

  it('for-each over a workflow: finished elements and finished sub-calls of the rest are not repeated', async () => {
    const dir = freshDir();
    const plan = [
      { _id: 'l', _tool: 'list', _outputPath: '†state.list' },
      { _id: 'each', _tool: 'wf', _forEach: '†state.list', v: '†item', _outputPath: '†state.out' },
    ];
    const steps: number[] = [];
    const first = await run(plan, {
      tools: [list, counted('step', new Set(), steps), counted('flaky', new Set([30]), []), workflow()],
      journal: dir,
      concurrency: 1,
    });
    expect(first.status).toBe('failed');
    expect(steps).toEqual([1, 2, 3]);
    const steps2: number[] = [];
    const flaky2: number[] = [];
    const resumed = await run(plan, {
      tools: [list, counted('step', new Set(), steps2), counted('flaky', new Set(), flaky2), workflow()],
      journal: dir,
      resume: true,
      concurrency: 1,
    });
    expect(resumed.status).toBe('succeeded');
    // Elements 0 and 1 finished; element 2's step finished, its flaky did not.
    expect(steps2).toEqual([4, 5]);
    expect(flaky2).toEqual([30, 40, 50]);
    expect(resumed.state.out).toEqual([100, 200, 300, 400, 500]);
  });
});

describe('forged records of elements and sub-calls', () => {
  async function journaled(): Promise<string> {
    const dir = freshDir();
    await run(FOR_EACH_PLAN, {
      tools: [list, counted('step', new Set([4]), [])],
      journal: dir,
      concurrency: 1,
    });
    return dir;
  }

  async function resumeWith(dir: string, line: unknown): Promise<Error> {
    const path = journalFile(dir);
    writeFileSync(path, `${readFileSync(path, 'utf8')}${JSON.stringify(line)}\n`);
    const ran: number[] = [];
    const error = await run(FOR_EACH_PLAN, {
      tools: [list, counted('step', new Set(), ran)],
      journal: dir,
      resume: true,
    }).then(
      () => new Error('resumed'),
      (e: unknown) => e as Error,
    );
    expect(ran).toEqual([]);
    return error;
  }

  const at = '2026-01-01T00:00:00.000Z';
  const cases: [string, unknown, RegExp][] = [
    [
      'an element of a call without _forEach',
      { type: 'element:end', at, path: ['l', 0], count: 5, status: 'succeeded', error: null, output: 1 },
      /records element 0 of call "l", which has no _forEach/,
    ],
    [
      'an element index out of range',
      { type: 'element:end', at, path: ['each', 7], count: 5, status: 'succeeded', error: null, output: 1 },
      /records element 7 of a call of 5 elements/,
    ],
    [
      'a count past maxForEach',
      { type: 'element:start', at, path: ['each', 1], count: 10_001 },
      /"count" of elements from 1 to limits.maxForEach \(10000\)/,
    ],
    [
      'a path too deep',
      { type: 'element:start', at, path: [...Array.from({ length: 70 }, () => 'each'), 0], count: 5 },
      /from 2 to 66 long, got 71/,
    ],
    [
      'an index after an index',
      { type: 'element:start', at, path: ['each', 0, 1], count: 5 },
      /an element index follows the id of its call/,
    ],
    [
      'a second end of an element with another output',
      { type: 'element:end', at, path: ['each', 0], count: 5, status: 'succeeded', error: null, output: 99 },
      /a second completed element:end for the element at \["each",0\], with another result/,
    ],
    [
      'a sub-call of a call that is not a workflow',
      {
        type: 'sub:start',
        at,
        path: ['each', 0, 'a'],
        event: { type: 'call:start', at, call: 'a', tool: 'step', attempt: 1, args: {} },
      },
      /records sub-call "a" of call "each", whose tool "step" is not a workflow/,
    ],
    [
      'a call the plan lacks',
      { type: 'element:start', at, path: ['nope', 0], count: 5 },
      /a element:start for call "nope", which this plan does not have/,
    ],
  ];
  for (const [name, line, message] of cases) {
    it(`refuses ${name}`, async () => {
      const error = await resumeWith(await journaled(), line);
      expect(isJournalError(error)).toBe(true);
      expect(error.message).toMatch(message);
    });
  }

  it('refuses element records in a version 2 journal', async () => {
    const dir = freshDir();
    await run([{ _id: 'x', _tool: 'step', v: 1, _outputPath: '†state.x' }], {
      tools: [counted('step', new Set([1]), [])],
      journal: dir,
    });
    const path = journalFile(dir);
    rewriteAsVersion(path, 2);
    const forged = { type: 'element:start', at, path: ['x', 0], count: 1 };
    writeFileSync(path, `${readFileSync(path, 'utf8')}${JSON.stringify(forged)}\n`);
    const error = await run([{ _id: 'x', _tool: 'step', v: 1, _outputPath: '†state.x' }], {
      tools: [counted('step', new Set(), [])],
      journal: dir,
      resume: true,
    }).then(
      () => new Error('resumed'),
      (e: unknown) => e as Error,
    );
    expect(error.message).toMatch(/a version 2 journal holds no element:start records/);
  });
});
