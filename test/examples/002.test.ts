import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example } from '../../examples/002-agentscope.js';
import type { ExampleOutcome } from '../../examples/example.js';
import { TODO_REMINDER_HEADING } from '../../src/agent/plan-mode/todo-reminder.js';

let workDir: string;
let outcome: ExampleOutcome;
let facts: Record<string, unknown>;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'planmode-example-002-'));
  outcome = await example.run({ workDir });
  facts = outcome.facts as Record<string, unknown>;
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const PLAN_START = '# Refactor module X';
const items = [
  'Add src/http.ts with getJson()',
  'Use getJson() in src/module-x.ts',
  'Note the change in CHANGELOG.md',
];
const reminder = (...marks: string[]) =>
  [TODO_REMINDER_HEADING, ...marks.map((mark, index) => `${mark} ${items[index]}`)].join('\n');

describe('example 002: AgentScope plan mode', () => {
  it('enters plan mode, plans with read-only tools, refuses the early write, and leaves through an approved plan', () => {
    expect(facts.transitions).toEqual(['off -> planning', 'planning -> executing']);
    expect(facts.offeredWhilePlanning).toEqual([
      'read_file',
      'grep_files',
      'enter_plan_mode',
      'exit_plan_mode',
      'plan_write',
      'todo_write',
    ]);
    expect(facts.offeredWhileExecuting).toContain('write_file');
    const denied = facts.denied as { tool: string; state: string; message: string }[];
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ tool: 'write_file', state: 'planning' });
    expect(denied[0]!.message).toMatch(/Plan mode denies mutating tool 'write_file'/);
    // The refused write changed nothing: module X holds what the executing phase wrote.
    expect(facts.moduleX).toContain("import { getJson } from './http.js'");
    expect(facts.planFile).toMatch(new RegExp(`^${PLAN_START}`));
    const approvals = facts.approvals as { kind: string; plan: string; file?: string }[];
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ kind: 'plan', plan: facts.planFile });
    expect(approvals[0]!.file).toBe(join(workDir, 'workspace', 'plans', 'PLAN.md'));
  });

  it('works through the todos one at a time and writes each file once, after the approval', () => {
    expect(facts.writes).toEqual(['src/http.ts', 'src/module-x.ts', 'CHANGELOG.md']);
    expect(facts.toolCalls).toEqual([
      'enter_plan_mode',
      'read_file',
      'grep_files',
      'write_file',
      'plan_write',
      'exit_plan_mode',
      'todo_write',
      'write_file',
      'todo_write',
      'write_file',
      'todo_write',
      'write_file',
      'todo_write',
    ]);
    const lists = facts.todosAfterEachWrite as { status: string }[][];
    expect(lists.map((list) => list.map((todo) => todo.status))).toEqual([
      ['in_progress', 'pending', 'pending'],
      ['completed', 'in_progress', 'pending'],
      ['completed', 'completed', 'in_progress'],
      ['completed', 'completed', 'completed'],
    ]);
    expect(facts.finalText).toMatch(/^Done/);
  });

  it('shows the current todo list before each request once there is one, never piling up in the conversation', () => {
    expect(facts.requests).toBe(10);
    expect(facts.reminders).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      reminder('[>]', '[ ]', '[ ]'),
      reminder('[x]', '[>]', '[ ]'),
      reminder('[x]', '[x]', '[>]'),
      reminder('[x]', '[x]', '[x]'),
    ]);
    expect(facts.remindersInConversation).toBe(0);
  });

  it('saves plan mode and restores it into a fresh agent: the same latch, todos and plan file', async () => {
    const snapshot = facts.snapshot as Record<string, unknown>;
    expect(snapshot).toEqual({
      version: 1,
      latch: { version: 1, state: 'executing', plan: facts.planFile },
      todos: items.map((content) => ({ content, status: 'completed' })),
      planFile: facts.planFile,
    });
    expect(facts.restored).toEqual({
      latch: 'executing',
      approvedPlan: facts.planFile,
      todos: snapshot.todos,
      planFile: facts.planFile,
    });
    expect(facts.roundTrip).toBe(true);
    // The restored plan file, and the restored todo list kept beside it (todos.json).
    expect((await readdir(join(workDir, 'restored', 'plans'))).sort()).toEqual(['PLAN.md', 'todos.json']);
  });

  it('prints its story', () => {
    const text = outcome.lines.join('\n');
    expect(text).toContain('latch: off -> planning, planning -> executing');
    expect(text).toContain('refused: write_file (planning)');
    expect(text).toContain('snapshot round trip: equal');
  });
});
