import { mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type PlanModeChange, PlanMode, planTools, TodoList } from '../../src/agent/index.js';
import { isPermissionDeniedError } from '../../src/index.js';
import {
  planModeSnapshot,
  readPlanModeSnapshot,
  restorePlanMode,
} from '../../src/agent/plan-mode/plan-mode-snapshot.js';

let dir: string;
const opened: { close(): void }[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'planmode-snapshot-'));
});
afterEach(async () => {
  for (const tools of opened.splice(0)) tools.close();
  await rm(dir, { recursive: true, force: true });
});

/** A latch, a list and a plan file in `plans` under the test's folder (or `folder`). */
function parts(folder = 'plans', latch = new PlanMode()) {
  const tools = planTools({ latch, plansDir: join(dir, folder), approve: () => true });
  opened.push(tools);
  return { latch, todos: tools.todos, planFile: tools.file };
}

const TODOS = [
  { content: 'write the migration', status: 'completed' },
  { content: 'run the tests', status: 'in_progress' },
] as const;

/** A value nested `levels` deep, built with a loop. */
function nested(levels: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

describe('planModeSnapshot and restorePlanMode', () => {
  it('save the latch, the todo list and the plan file as JSON data, and restore all three elsewhere', async () => {
    const from = parts();
    from.latch.enter();
    await from.planFile.write('# Plan\n1. migrate');
    from.latch.exit('# Plan\n1. migrate');
    from.todos.replace(TODOS);
    const snapshot = await planModeSnapshot(from);
    expect(snapshot).toEqual({
      version: 1,
      latch: { version: 1, state: 'executing', plan: '# Plan\n1. migrate' },
      todos: TODOS,
      planFile: '# Plan\n1. migrate',
    });
    // Plain data: no paths, and it survives JSON text.
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain(dir);

    const to = parts('elsewhere');
    const seen: PlanModeChange[] = [];
    to.latch.subscribe((change) => {
      seen.push(change);
    });
    await restorePlanMode(text, to);
    expect(to.latch.toJSON()).toEqual(snapshot.latch);
    expect(to.todos.items).toEqual(TODOS);
    expect(await readFile(join(dir, 'elsewhere', 'PLAN.md'), 'utf8')).toBe('# Plan\n1. migrate');
    // The latch got there by its own transitions, each told to observers.
    expect(seen.map((c) => `${c.previous}->${c.state}`)).toEqual(['off->planning', 'planning->executing']);
    expect(await planModeSnapshot(to)).toEqual(snapshot);
  });

  it('restores every latch state, a plan kept while planning again included', async () => {
    const cases = [
      { version: 1, state: 'off', plan: null },
      { version: 1, state: 'planning', plan: null },
      { version: 1, state: 'planning', plan: 'the old plan' },
      { version: 1, state: 'executing', plan: 'the plan' },
    ] as const;
    for (const [index, latch] of cases.entries()) {
      const to = parts(`p${index}`);
      to.latch.enter();
      to.latch.exit('something else');
      await restorePlanMode({ version: 1, latch, todos: [], planFile: null }, to);
      expect(to.latch.toJSON()).toEqual(latch);
    }
  });

  it('a snapshot without a plan file leaves the plan file alone; a written one is read back', async () => {
    const from = parts();
    expect((await planModeSnapshot(from)).planFile).toBeNull();
    const to = parts('to');
    await to.planFile.write('kept');
    await restorePlanMode(await planModeSnapshot(from), to);
    expect(await to.planFile.read()).toBe('kept');
  });

  it('writes the plan back through the opened folder: a link planted at the plan file is refused, nothing changes', async () => {
    const to = parts('to');
    to.todos.replace([{ content: 'untouched', status: 'pending' }]);
    const outside = join(dir, 'outside.md');
    await writeFile(outside, 'outside');
    await symlink(outside, join(dir, 'to', 'PLAN.md'));
    const snapshot = {
      version: 1,
      latch: { version: 1, state: 'executing', plan: 'p' },
      todos: TODOS,
      planFile: 'overwritten?',
    };
    const error = await restorePlanMode(snapshot, to).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isPermissionDeniedError(error)).toBe(true);
    expect(await readFile(outside, 'utf8')).toBe('outside');
    // The write failed first, so the list and the latch are as they were.
    expect(to.todos.items).toEqual([{ content: 'untouched', status: 'pending' }]);
    expect(to.latch.state).toBe('off');
  });

  const good = () => ({
    version: 1,
    latch: { version: 1, state: 'planning', plan: null },
    todos: [{ content: 'a', status: 'in_progress' }],
    planFile: 'plan',
  });
  const hostile: [string, unknown, RegExp][] = [
    ['null', null, /^restorePlanMode: the snapshot must be an object like \{"version": 1/],
    ['an array', [], /^restorePlanMode: the snapshot must be an object/],
    ['text that is not JSON', '{"version": 1,', /^restorePlanMode: the text is not JSON \(/],
    [
      'an unknown key',
      { ...good(), path: '/etc/passwd' },
      /^restorePlanMode: the snapshot has an unknown key "path"/,
    ],
    [
      'a missing field',
      { version: 1, latch: good().latch, todos: [] },
      /^restorePlanMode: snapshot\.planFile is missing$/,
    ],
    [
      'another version',
      { ...good(), version: 2 },
      /^restorePlanMode: snapshot\.version must be 1, not number 2$/,
    ],
    [
      'a latch as text',
      { ...good(), latch: '{"version":1}' },
      /^restorePlanMode: snapshot\.latch must be an object/,
    ],
    [
      'a bad latch state',
      { ...good(), latch: { version: 1, state: 'done', plan: null } },
      /^restorePlanMode: snapshot\.latch is not a saved latch: PlanMode\.from: "state" must be one of off, planning, executing/,
    ],
    [
      'executing without a plan',
      { ...good(), latch: { version: 1, state: 'executing', plan: null } },
      /^restorePlanMode: snapshot\.latch is not a saved latch: .*"plan" must be a string when the state is 'executing'/,
    ],
    ['todos as an object', { ...good(), todos: {} }, /^restorePlanMode: snapshot\.todos must be an array/],
    [
      'a second in_progress',
      {
        ...good(),
        todos: [
          { content: 'a', status: 'in_progress' },
          { content: 'b', status: 'in_progress' },
        ],
      },
      /^restorePlanMode: snapshot\.todos: 2 todos are in_progress \(todos\[0\], todos\[1\]\); at most one/,
    ],
    [
      'a bad todo',
      { ...good(), todos: [{ content: 'a', status: 'done' }] },
      /^restorePlanMode: snapshot\.todos\[0\]\.status must be one of pending, in_progress, completed/,
    ],
    [
      'a plan file that is not text',
      { ...good(), planFile: 42 },
      /^restorePlanMode: snapshot\.planFile must be a non-empty string or null/,
    ],
    [
      'a plan file over maxPlanLength',
      { ...good(), planFile: 'x'.repeat(100_001) },
      /^restorePlanMode: snapshot\.planFile has 100001 characters; at most 100000 are allowed \(maxPlanLength\)$/,
    ],
    [
      'a latch plan over maxPlanLength',
      { ...good(), latch: { version: 1, state: 'executing', plan: 'x'.repeat(100_001) } },
      /^restorePlanMode: snapshot\.latch\.plan has 100001 characters/,
    ],
    [
      'a value nested 100,000 deep',
      { ...good(), extra: nested(100_000) },
      /^restorePlanMode: snapshot(\.extra)(\.a)+.* nests deeper than 64 levels/,
    ],
    [
      'text nested 100,000 deep',
      `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      /^restorePlanMode: snapshot\.a(\[0\])+.* nests deeper than 64 levels/,
    ],
    [
      'a huge value',
      { ...good(), planFile: 'x'.repeat(5_000_000) },
      /^restorePlanMode: snapshot\.planFile is larger than \d+ characters of JSON/,
    ],
    [
      'huge text',
      `"${'x'.repeat(5_000_000)}"`,
      /^restorePlanMode: the text has 5000002 characters; a valid snapshot has at most \d+$/,
    ],
    ['a BigInt', { ...good(), version: 1n }, /^restorePlanMode: snapshot\.version is a BigInt/],
    [
      'many keys',
      Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, 0])),
      /^restorePlanMode: snapshot is larger than \d+ characters of JSON; expected \{"version": 1/,
    ],
  ];
  for (const [what, snapshot, message] of hostile) {
    it(`refuses ${what} with a TypeError naming the field, and restores nothing`, async () => {
      const to = parts('to');
      to.todos.replace([{ content: 'untouched', status: 'pending' }]);
      const error = await restorePlanMode(snapshot, to).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message.length).toBeLessThan(1_000);
      expect(to.latch.state).toBe('off');
      expect(to.todos.items).toEqual([{ content: 'untouched', status: 'pending' }]);
      expect(await readdir(join(dir, 'to'))).toEqual([]);
    });
  }

  it('maxPlanLength bounds both plans, and a snapshot that could not be restored is refused when taken', async () => {
    const from = parts();
    from.latch.enter();
    from.latch.exit('x'.repeat(50));
    await expect(planModeSnapshot({ ...from, maxPlanLength: 10 })).rejects.toThrow(
      'planModeSnapshot: snapshot.latch.plan has 50 characters; at most 10 are allowed (maxPlanLength)',
    );
    const snapshot = await planModeSnapshot(from);
    expect(() => readPlanModeSnapshot(snapshot, { maxPlanLength: 10 })).toThrow(
      'readPlanModeSnapshot: snapshot.latch.plan has 50 characters',
    );
    expect(readPlanModeSnapshot(snapshot)).toEqual(snapshot);
  });

  it('checks its own options with a TypeError naming them', async () => {
    const good = parts();
    await expect(planModeSnapshot({ ...good, latch: {} as PlanMode })).rejects.toThrow(
      'planModeSnapshot: latch must be a PlanMode, not an object',
    );
    await expect(restorePlanMode({}, { ...good, todos: [] as unknown as TodoList })).rejects.toThrow(
      'restorePlanMode: todos must be a TodoList, not an array',
    );
    await expect(restorePlanMode({}, { ...good, planFile: 'plans/PLAN.md' as never })).rejects.toThrow(
      'restorePlanMode: planFile must be a PlanFile (the plan tools\' `file`), not "plans/PLAN.md"',
    );
    await expect(planModeSnapshot({ ...good, maxPlanLength: 0 })).rejects.toThrow(
      'planModeSnapshot: maxPlanLength must be a positive integer, not number 0',
    );
  });
});
