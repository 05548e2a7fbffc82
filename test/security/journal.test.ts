/**
 * Journals are untrusted input (issue 10, point 6). A journal binds to its run: another plan's
 * journal placed at this run's file name, or one written with another input, initial state or
 * tools, is refused before anything runs. A record that is not what the executor writes, or does
 * not fit the plan, is refused with its line; only a last line cut off by a crash is dropped.
 */
import type { PlanInput } from '../../src/language/document.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { journalRecords } from '../run/journal-file.js';
import { main } from '../../src/cli/main.js';
import {
  branch,
  isJournalError,
  type JournalError,
  run,
  type RunOptions,
  type Tool,
} from '../../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'planmode-journal-security-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
function freshDir(): string {
  dirs += 1;
  return join(root, `case-${dirs}`);
}

const PLAN = [
  { _id: 'fetch', _tool: 'get_user', id: '†input.id', _outputPath: '†state.user' },
  { _id: 'check', _tool: 'check_user', name: '†state.user.name', _outputPath: '†state.ok || †state.odd' },
  { _id: 'notify', _tool: 'notify', message: '†state.ok || †state.odd' },
];

/** PLAN, with `check` declaring its last alternative the error alternative. */
const PLAN_ON_ERROR = [PLAN[0]!, { ...PLAN[1]!, _onError: '†state.odd' }, PLAN[2]!];

/** The same call ids and tools, doing something else. */
const OTHER_PLAN = [
  { _id: 'fetch', _tool: 'get_user', id: 666, _outputPath: '†state.user' },
  { _id: 'check', _tool: 'check_user', name: 'Mallory', _outputPath: '†state.ok || †state.odd' },
  { _id: 'notify', _tool: 'notify', message: 'wire the money' },
];

const USER_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

/** Tools that note each call in `log`; `changes` replaces fields of a definition by name. */
function toolsFor(log: string[], changes: Record<string, Partial<Tool>> = {}): Tool[] {
  const tools: Tool[] = [
    {
      name: 'get_user',
      outputSchema: USER_SCHEMA,
      execute: (args) => {
        log.push('get_user');
        return { name: `Ada ${String(args.id)}` };
      },
    },
    {
      name: 'check_user',
      execute: (args) => {
        log.push('check_user');
        return String(args.name).startsWith('Ada') ? branch(0, 'fine') : branch(1, 'odd');
      },
    },
    {
      name: 'notify',
      execute: (args) => {
        log.push(`notify ${String(args.message)}`);
        return 'sent';
      },
    },
  ];
  return tools.map((tool) => ({ ...tool, ...changes[tool.name] }));
}

function options(log: string[], extra: Partial<RunOptions> = {}): RunOptions {
  return { tools: toolsFor(log), input: { id: 7 }, ...extra };
}

/** The one journal file in `dir`. */
function journalIn(dir: string): string {
  const files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return join(dir, files[0]!);
}

/** Runs `plan` once with a journal in a fresh directory; returns the journal file. */
async function journaled(plan: PlanInput, runOptions: RunOptions): Promise<string> {
  const dir = freshDir();
  const result = await run(plan, { ...runOptions, journal: dir });
  expect(result.status).toBe('succeeded');
  return journalIn(dir);
}

/** Puts the journal `from` at the file name of `to` (what a mistake or an attacker does). */
function copyOver(from: string, to: string): void {
  writeFileSync(to, readFileSync(from));
}

type JsonRecord = Record<string, unknown>;

/** The journal's records, each compact line read as its whole event (written back whole). */
function records(path: string): JsonRecord[] {
  return journalRecords(path);
}

/** Rewrites the first record that `pick` chooses; returns its 1-based line. */
function editRecord(path: string, pick: (r: JsonRecord) => boolean, edit: (r: JsonRecord) => void): number {
  const all = records(path);
  const index = all.findIndex(pick);
  expect(index).toBeGreaterThanOrEqual(0);
  edit(all[index]!);
  writeFileSync(path, all.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return index + 1;
}

/** Puts a raw line before the 1-based line `at`. */
function insertLine(path: string, at: number, line: string): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.splice(at - 1, 0, line);
  writeFileSync(path, lines.join('\n'));
}

const callEnd = (call: string) => (r: JsonRecord) => r.type === 'call:end' && r.call === call;

/** Resumes `plan` from the journal in `dir`, which must be refused; nothing may run. */
async function refusedResume(
  plan: PlanInput,
  dir: string,
  extra: Partial<RunOptions> = {},
): Promise<JournalError> {
  const log: string[] = [];
  const error: unknown = await run(plan, { ...options(log), journal: dir, resume: true, ...extra }).then(
    () => new Error('the resume was expected to be refused'),
    (e: unknown) => e,
  );
  if (!isJournalError(error)) throw error;
  expect(log, 'nothing runs before the journal is trusted').toEqual([]);
  expect(error.message).not.toContain('\n');
  expect(error.message).toMatch(/remove it, or run without --resume to start over$/);
  return error;
}

describe('a journal binds to its run', () => {
  it("refuses another plan's journal copied to this plan's file name, naming the plan digest", async () => {
    const other = await journaled(OTHER_PLAN, options([]));
    const mine = await journaled(PLAN, options([]));
    copyOver(other, mine);
    const error = await refusedResume(PLAN, join(mine, '..'));
    expect(error.message).toMatch(
      /^the journal '.*' was written for a different plan \(plan digest [0-9a-f]{12} in the journal, [0-9a-f]{12} for this run\): /,
    );
    expect(error.message).toContain(mine);
    expect(error.differs).toEqual(['plan']);
    expect(error.path).toBe(mine);
    // The file is left as it was, for the user to look at.
    expect(readFileSync(mine, 'utf8')).toBe(readFileSync(other, 'utf8'));
  });

  it('refuses a journal written with another input, naming the input', async () => {
    const seven = await journaled(PLAN, options([]));
    const eight = await journaled(PLAN, options([], { input: { id: 8 } }));
    copyOver(seven, eight);
    const error = await refusedResume(PLAN, join(eight, '..'), { input: { id: 8 } });
    expect(error.differs).toEqual(['input']);
    expect(error.message).toMatch(/was written for a different input \(input digest /);
  });

  it('refuses a journal written with another initial state, naming the state', async () => {
    const empty = await journaled(PLAN, options([]));
    const seeded = await journaled(PLAN, options([], { state: { seed: 1 } }));
    copyOver(empty, seeded);
    const error = await refusedResume(PLAN, join(seeded, '..'), { state: { seed: 1 } });
    expect(error.differs).toEqual(['state']);
    expect(error.message).toMatch(/was written for a different initial state \(state digest /);
  });

  it('refuses a journal written with other definitions of the tools the plan calls', async () => {
    const changes: Record<string, Partial<Tool>>[] = [
      { get_user: { outputSchema: { ...USER_SCHEMA, additionalProperties: false } } },
      { notify: { timeoutMs: 5_000 } },
      { notify: { retries: 2 } },
      { check_user: { errorBranch: false } },
      { notify: { needsApproval: true } },
    ];
    for (const change of changes) {
      const path = await journaled(PLAN, options([]));
      const error = await refusedResume(PLAN, join(path, '..'), { tools: toolsFor([], change) });
      expect(error.differs, JSON.stringify(change)).toEqual(['tools']);
      expect(error.message).toMatch(/was written for a different set of tools \(tools digest /);
    }
  });

  it('resumes when only the code, the description or a tool the plan does not call changed', async () => {
    const path = await journaled(PLAN, options([]));
    const log: string[] = [];
    const tools = [
      ...toolsFor(log, { notify: { description: 'now described', execute: () => 'other code' } }),
      { name: 'unused', execute: () => 'never' },
    ];
    const result = await run(PLAN, { ...options(log), tools, journal: join(path, '..'), resume: true });
    expect(result.status).toBe('succeeded');
    expect(log).toEqual([]);
    expect(result.state).toEqual({ user: { name: 'Ada 7' }, ok: 'fine' });
  });

  it('refuses it through the CLI: exit 2, one line, no stack, nothing run', async () => {
    const dir = freshDir();
    const calls = join(root, `cli-calls-${dirs}.log`);
    const tools = join(root, `cli-tools-${dirs}.mjs`);
    writeFileSync(
      tools,
      `import { appendFileSync } from 'node:fs';
const log = (line) => appendFileSync(${JSON.stringify(calls)}, line + '\\n');
export const tools = [
  { name: 'get_user', execute: (args) => { log('get_user'); return { name: 'Ada ' + args.id }; } },
  { name: 'check_user', branchJson: true, execute: () => { log('check_user'); return { '†branch': 0, value: 'fine' }; } },
  { name: 'notify', execute: (args) => { log('notify ' + args.message); return 'sent'; } },
];
`,
    );
    const plan = join(root, `cli-plan-${dirs}.json`);
    const other = join(root, `cli-other-${dirs}.json`);
    const input = join(root, `cli-input-${dirs}.json`);
    writeFileSync(plan, JSON.stringify(PLAN));
    writeFileSync(other, JSON.stringify(OTHER_PLAN));
    writeFileSync(input, JSON.stringify({ id: 7 }));
    const cli = async (args: string[]) => {
      const out = { stdout: '', stderr: '' };
      const io = {
        stdout: { write: (text: string) => (out.stdout += text) },
        stderr: { isTTY: false, write: (text: string) => (out.stderr += text) },
        stdin: Readable.from(['']),
        env: {},
      };
      const code = await main(args, io);
      return { code, ...out };
    };
    const otherDir = join(dir, 'other');
    const mineDir = join(dir, 'mine');
    expect(
      (await cli(['run', other, '--tools', tools, '--input', input, '--journal', otherDir, '--json'])).code,
    ).toBe(0);
    expect(
      (await cli(['run', plan, '--tools', tools, '--input', input, '--journal', mineDir, '--json'])).code,
    ).toBe(0);
    copyOver(journalIn(otherDir), journalIn(mineDir));
    rmSync(calls, { force: true });

    const refused = await cli([
      'run',
      plan,
      '--tools',
      tools,
      '--input',
      input,
      '--journal',
      mineDir,
      '--resume',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    const lines = refused.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^plan: error: the journal '.*' was written for a different plan \(plan digest [0-9a-f]{12} in the journal, [0-9a-f]{12} for this run\): remove it, or run without --resume to start over$/,
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(() => readFileSync(calls, 'utf8')).toThrow(/ENOENT/);

    // Without --resume the run starts over, and its journal is this plan's again.
    const over = await cli(['run', plan, '--tools', tools, '--input', input, '--journal', mineDir, '--json']);
    expect(over.code).toBe(0);
    expect(readFileSync(calls, 'utf8')).toBe('get_user\ncheck_user\nnotify fine\n');
    const resumed = await cli([
      'run',
      plan,
      '--tools',
      tools,
      '--input',
      input,
      '--journal',
      mineDir,
      '--resume',
    ]);
    expect(resumed.code).toBe(0);
    expect(readFileSync(calls, 'utf8')).toBe('get_user\ncheck_user\nnotify fine\n');
  });
});

describe('a record that does not fit the plan ends the resume at its line', () => {
  const cases: {
    name: string;
    tamper: (path: string) => number;
    message: RegExp;
    limits?: RunOptions['limits'];
    /** @default PLAN */
    plan?: PlanInput;
  }[] = [
    {
      name: 'a succeeded record without its output',
      tamper: (path) => editRecord(path, callEnd('fetch'), (r) => delete r.output),
      message:
        /a succeeded call:end for call "fetch" must carry the "output" its output path "†state\.user" is written from/,
    },
    {
      name: 'a branch index out of range',
      tamper: (path) => editRecord(path, callEnd('check'), (r) => (r.branch = 2)),
      message:
        /a call:end for call "check" chooses alternative 2, but its output path "†state\.ok \|\| †state\.odd" has 2/,
    },
    {
      name: 'a branch on a call without alternatives',
      tamper: (path) => editRecord(path, callEnd('fetch'), (r) => (r.branch = 0)),
      message:
        /a call:end for call "fetch" chooses alternative 0, but its output path \("†state\.user"\) has no alternatives: "branch" must be null/,
    },
    {
      name: 'a succeeded record on a || path without its branch',
      tamper: (path) => editRecord(path, callEnd('check'), (r) => (r.branch = null)),
      message:
        /a succeeded call:end for call "check" must name the alternative of "†state\.ok \|\| †state\.odd" it wrote in "branch"/,
    },
    {
      name: 'handled on a succeeded record',
      tamper: (path) => editRecord(path, callEnd('check'), (r) => (r.handled = true)),
      message: /a call:end for call "check" is "handled" but succeeded: only a failed call is handled/,
    },
    {
      name: 'handled on a call without alternatives',
      tamper: (path) =>
        editRecord(path, callEnd('fetch'), (r) => Object.assign(r, { status: 'failed', handled: true })),
      message: /a call:end for call "fetch" is "handled", but the call declares no error alternative/,
    },
    {
      // Alternatives alone declare nothing: a throw of check_user fails the call.
      name: 'handled on a call with alternatives but no declared error alternative',
      tamper: (path) =>
        editRecord(path, callEnd('check'), (r) =>
          Object.assign(r, { status: 'failed', handled: true, branch: 1, output: { message: 'x' } }),
        ),
      message: /a call:end for call "check" is "handled", but the call declares no error alternative/,
    },
    {
      name: 'a handled error written to an alternative other than the declared one',
      plan: PLAN_ON_ERROR,
      tamper: (path) =>
        editRecord(path, callEnd('check'), (r) =>
          Object.assign(r, { status: 'failed', handled: true, branch: 0, error: { message: 'x' } }),
        ),
      message:
        /a handled call:end for call "check" must choose the error alternative \(1\), where the error is written, not 0/,
    },
    {
      name: 'a handled record whose output is not an error object',
      plan: PLAN_ON_ERROR,
      tamper: (path) =>
        editRecord(path, callEnd('check'), (r) =>
          Object.assign(r, { status: 'failed', handled: true, branch: 1, output: 'odd' }),
        ),
      message: /a handled call:end for call "check" must carry the error it wrote as "output"/,
    },
    {
      name: 'a succeeded record that chose the error alternative',
      plan: PLAN_ON_ERROR,
      tamper: (path) => editRecord(path, callEnd('check'), (r) => (r.branch = 1)),
      message:
        /a succeeded call:end for call "check" chooses its error alternative \(1\), which holds only errors/,
    },
    {
      name: 'an output its outputSchema rejects',
      tamper: (path) => editRecord(path, callEnd('fetch'), (r) => (r.output = { name: 5 })),
      message:
        /call "fetch"'s journaled output rejected by the tool's outputSchema: output 'name' must be string/,
    },
    {
      name: 'a call id the plan does not have',
      tamper: (path) => editRecord(path, callEnd('notify'), (r) => (r.call = 'ghost')),
      message: /a call:end for call "ghost", which this plan does not have/,
    },
    {
      name: 'a record naming another tool for the call',
      tamper: (path) => editRecord(path, callEnd('notify'), (r) => (r.tool = 'get_user')),
      message: /a call:end for call "notify" names tool "get_user", but the plan's call calls "notify"/,
    },
    {
      // Last wins no more: which result the call returned cannot be told.
      name: 'a second completed call:end of a call, with another result',
      tamper: (path) => {
        const all = records(path);
        const forged = { ...all.find(callEnd('fetch'))!, output: { name: 'Mallory' } };
        writeFileSync(path, [...all, forged].map((r) => `${JSON.stringify(r)}\n`).join(''));
        return all.length + 1;
      },
      message:
        /a second completed call:end for call "fetch", with another result than line \d+: which one the call returned cannot be told/,
    },
    {
      name: 'a completed call:end of a call whose dependency never ended',
      tamper: (path) => {
        const all = records(path).filter((r) => !callEnd('fetch')(r));
        writeFileSync(path, all.map((r) => `${JSON.stringify(r)}\n`).join(''));
        return all.findIndex(callEnd('check')) + 1;
      },
      message:
        /a succeeded call:end for call "check" comes before any call:end of call "fetch", which it depends on: a run of this plan ends that call first, so this result cannot be trusted/,
    },
    {
      name: 'a journal forged to hold the header and a last call’s completion only',
      tamper: (path) => {
        const all = records(path);
        const forged = [all[0]!, { ...all.find(callEnd('notify'))!, output: 'wired' }];
        writeFileSync(path, forged.map((r) => `${JSON.stringify(r)}\n`).join(''));
        return 2;
      },
      message:
        /a succeeded call:end for call "notify" comes before any call:end of call "check", which it depends on/,
    },
    {
      name: 'a record of the wrong shape',
      tamper: (path) => editRecord(path, callEnd('notify'), (r) => delete r.call),
      message: /a call:end must have a string "call"/,
    },
    {
      name: 'garbage in the middle of the file',
      tamper: (path) => {
        insertLine(path, 3, 'garbage');
        return 3;
      },
      message: /the line is not JSON/,
    },
    {
      name: 'a line of 10 MB with a small maxTextLength',
      tamper: (path) => {
        const value = 'x'.repeat(10 * 1024 * 1024);
        insertLine(
          path,
          3,
          JSON.stringify({ type: 'state:write', at: 't', call: 'fetch', path: '†state.user', value }),
        );
        return 3;
      },
      message: /the line is longer than limits\.maxTextLength \(100000 characters\)/,
      limits: { maxTextLength: 100_000 },
    },
    {
      name: 'a line nested 100,000 deep',
      tamper: (path) => {
        const value = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
        insertLine(
          path,
          4,
          `{"type":"state:write","at":"t","call":"fetch","path":"†state.user","value":${value}}`,
        );
        return 4;
      },
      message: /the record's value at \/value(\/a)+ nests deeper than 64 levels/,
    },
  ];

  for (const { name, tamper, message, limits, plan = PLAN } of cases) {
    it(name, async () => {
      const path = await journaled(plan, options([], limits ? { limits } : {}));
      const line = tamper(path);
      const error = await refusedResume(plan, join(path, '..'), limits ? { limits } : {});
      expect(error.message).toMatch(message);
      expect(error.message.startsWith(`cannot resume from the journal '${path}': line ${line}: `)).toBe(true);
      expect(error.line).toBe(line);
      expect(error.message.length).toBeLessThan(1_000);
    });
  }
});

describe('a journal is never opened through a link', () => {
  it('a symbolic link planted at the journal’s name is refused, and its target is untouched', async () => {
    const path = await journaled(PLAN, options([]));
    const target = join(root, 'precious.txt');
    writeFileSync(target, 'do not truncate me');
    rmSync(path);
    symlinkSync(target, path);
    const attempt = run(PLAN, { ...options([]), journal: join(path, '..') });
    await expect(attempt).rejects.toSatisfy(isJournalError);
    await expect(attempt).rejects.toThrow(/symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe('do not truncate me');
  });
});

describe('journals the executor wrote resume', () => {
  it('a torn last line is dropped and the resume reuses everything before it', async () => {
    const path = await journaled(PLAN, options([]));
    const before = readFileSync(path, 'utf8');
    writeFileSync(
      path,
      `${before}{"type":"call:end","at":"2025-01-01T00:00:00.000Z","call":"notify","tool":"no`,
    );
    const log: string[] = [];
    const result = await run(PLAN, { ...options(log), journal: join(path, '..'), resume: true });
    expect(result.status).toBe('succeeded');
    expect(log).toEqual([]);
    expect(result.state).toEqual({ user: { name: 'Ada 7' }, ok: 'fine' });
    expect(result.calls.map((c) => c.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(readFileSync(path, 'utf8').startsWith(before)).toBe(true);
    expect(readFileSync(path, 'utf8')).not.toContain('"tool":"no\n');
  });

  it('every kind of ending resumes: branches, fan-out, handled throws, latent outputs, skips, failures', async () => {
    const plan = {
      type: 'plan',
      plan: [
        { _id: 'pick', _tool: 'choose', _outputPath: '†state.left || †state.right' },
        { _id: 'left', _tool: 'echo', v: '†state.left', _outputPath: '†state.l' },
        { _id: 'both', _tool: 'echo', v: 1, _outputPath: '†state.a && †state.b' },
        // The plan declares where pay's throw goes: a handled failure, reused on resume.
        { _id: 'pay', _tool: 'pay', _outputPath: '†state.receipt || †state.error', _onError: '†state.error' },
        {
          _id: 'note',
          _tool: 'summarize',
          _output: { text: 'model wrote this' },
          _outputPath: '†state.note',
        },
        { _id: 'quiet', _tool: 'echo', v: 'no path' },
        { _id: 'broken', _tool: 'broken', _outputPath: '†state.broken' },
        { _id: 'after', _tool: 'echo', v: '†state.broken', _outputPath: '†state.after' },
      ],
    };
    const makeTools = (log: string[]): Tool[] => [
      {
        name: 'choose',
        execute: () => {
          log.push('choose');
          return branch(1, 'R');
        },
      },
      {
        name: 'echo',
        outputSchema: {},
        execute: (args) => {
          log.push(`echo ${JSON.stringify(args.v)}`);
          return args.v;
        },
      },
      {
        name: 'pay',
        outputSchema: { type: 'string' },
        execute: () => {
          log.push('pay');
          throw Object.assign(new Error('declined'), { code: 'DECLINED' });
        },
      },
      { name: 'summarize', latent: true, outputSchema: { type: 'object' } },
      {
        name: 'broken',
        execute: () => {
          log.push('broken');
          throw new Error('down');
        },
      },
    ];
    const dir = freshDir();
    const first: string[] = [];
    const done = await run(plan, { tools: makeTools(first), journal: dir });
    expect(done.status).toBe('failed');
    expect(done.calls.map((c) => [c.id, c.status])).toEqual([
      ['pick', 'succeeded'],
      ['left', 'skipped'],
      ['both', 'succeeded'],
      ['pay', 'failed'],
      ['note', 'succeeded'],
      ['quiet', 'succeeded'],
      ['broken', 'failed'],
      ['after', 'upstream_failed'],
    ]);
    for (let round = 0; round < 2; round++) {
      const log: string[] = [];
      const again = await run(plan, { tools: makeTools(log), journal: dir, resume: true });
      // Only the unhandled failure runs again; everything that completed is reused.
      expect(log).toEqual(['broken']);
      expect(again.state).toEqual(done.state);
      expect(again.calls.map((c) => [c.id, c.status, c.branch, c.handled])).toEqual(
        done.calls.map((c) => [c.id, c.status, c.branch, c.handled]),
      );
    }
  });
});
