import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example } from '../../examples/003-gollem.js';
import type { ExampleOutcome } from '../../examples/example.js';

let workDir: string;
let outcome: ExampleOutcome;
let facts: Record<string, unknown>;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'planmode-example-003-'));
  outcome = await example.run({ workDir });
  facts = outcome.facts as Record<string, unknown>;
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('example 003: gollem plan mode', () => {
  it('asks for the todos as structured output, without tools, and has them approved once', () => {
    const shown = facts.modelShown as Record<string, unknown>;
    expect(shown.createFormat).toBe('todo_list');
    expect(shown.createTools).toEqual([]);
    expect(facts.approvals).toEqual([
      [
        '1. Search for the latest AI trends (t1: Know what the report is about)',
        '2. Search how widely the top trends are adopted (t2: Back the trends with data)',
        '3. Write the summary report to report.md (t3: Deliver the result)',
      ].join('\n'),
    ]);
  });

  it('runs each todo as its own turn with the tools, reflecting in structured output after each', () => {
    const shown = facts.modelShown as Record<string, unknown>;
    expect(shown.executorTools).toEqual(['search', 'write_report']);
    expect(shown.reflectionFormat).toBe('reflection');
    // The second todo's executor is shown the goal, its intent and the progress so far.
    expect(shown.secondTodoPrompt).toContain(
      'Goal: Research the latest trends in AI and create a summary report',
    );
    expect(shown.secondTodoPrompt).toContain('Intent: Back the trends with data');
    expect(shown.secondTodoPrompt).toContain('- [completed] t1: Search for the latest AI trends');
    expect(shown.secondTodoPrompt).toContain('- [executing] t2:');
    expect(shown.requests).toBe(13);
  });

  it('goes through every todo in order, with the one the revision added before the report', () => {
    expect(facts.statusChanges).toEqual([
      't1 executing',
      't1 completed',
      't2 executing',
      't2 completed',
      't4 executing',
      't4 completed',
      't3 executing',
      't3 completed',
    ]);
    expect(facts.revisions).toEqual([{ type: 'added', id: 't4' }]);
    expect(facts.todos).toEqual([
      { id: 't1', status: 'completed' },
      { id: 't2', status: 'completed' },
      { id: 't4', status: 'completed' },
      { id: 't3', status: 'completed' },
    ]);
    expect(facts.state).toBe('completed');
    expect(facts.iterations).toBe(4);
    expect(facts.result).toMatch(/^The summary report is in report.md/);
  });

  it('calls the hooks at each stage, in order, across the save and restore', () => {
    expect(facts.hookOrder).toEqual([
      'created 3 todos',
      'start t1',
      'done t1',
      'start t2',
      'done t2',
      'revised added t4',
      'start t4',
      'done t4',
      'start t3',
      'done t3',
      'completed (completed)',
    ]);
  });

  it('writes the report once, in its own folder', async () => {
    expect(facts.reportWrites).toBe(1);
    expect(await readdir(workDir)).toEqual(['report.md']);
    expect(await readFile(join(workDir, 'report.md'), 'utf8')).toBe(facts.reportText);
  });

  it('saves the plan after the first todo and carries on from the restored copy', () => {
    expect(facts.roundTrip).toEqual({
      savedState: 'running',
      savedTodos: [
        { id: 't1', status: 'completed' },
        { id: 't2', status: 'pending' },
        { id: 't3', status: 'pending' },
      ],
      sameSnapshot: true,
      originalFinished: false,
    });
  });

  it('refuses to run the finished plan again with a typed error', () => {
    expect(facts.errorName).toBe('PlanAlreadyExecutedError');
    expect(outcome.lines.at(-1)).toMatch(
      /^execute\(\) again: PlanAlreadyExecutedError: .*already been executed/,
    );
  });
});
