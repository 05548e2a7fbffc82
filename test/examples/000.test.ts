import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example } from '../../examples/000-adk-fluent.js';
import type { ExampleOutcome } from '../../examples/example.js';

let workDir: string;
let outcome: ExampleOutcome;
let facts: Record<string, unknown>;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'planmode-example-000-'));
  outcome = await example.run({ workDir });
  facts = outcome.facts as Record<string, unknown>;
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const DENIAL_REASON = "Plan mode denies mutating tool 'edit_file'";

describe("example 000: adk-fluent's direct wiring", () => {
  it('while planning, the policy allows read_file (defined in code, readOnlyHint) and denies edit_file', () => {
    expect(facts.checks).toEqual({
      read_file: {
        behavior: 'allow',
        reason: "allow rule 'read_file' matches 'read_file'",
        rule: 'read_file',
      },
      edit_file: { behavior: 'deny', reason: DENIAL_REASON, cause: 'plan-mode' },
    });
  });

  it('observers see every transition, in order', () => {
    expect(facts.transitions).toEqual(['planning', 'executing']);
    expect(outcome.lines.filter((line) => line.startsWith('transition -> '))).toEqual([
      'transition -> planning (0 chars of plan)',
      `transition -> executing (${(facts.planFile as string).length} chars of plan)`,
    ]);
    // Each after the tool call that flipped it, and before the next.
    const at = (text: string) => outcome.lines.findIndex((line) => line.startsWith(text));
    expect(at('transition -> planning')).toBeLessThan(at('enter_plan_mode: succeeded'));
    expect(at('plan_write: succeeded')).toBeLessThan(at('transition -> executing'));
  });

  it('the edit tried while planning is denied, with the latch state as data and advice naming the plan tools', () => {
    expect(facts.denials).toEqual([
      { tool: 'edit_file', state: 'planning', cause: 'plan-mode', reason: DENIAL_REASON },
    ]);
    expect(facts.deniedMessage).toBe(
      `Permission denied: ${DENIAL_REASON}. Describe the change in the plan (plan_write) and call exit_plan_mode to ask for approval.`,
    );
    expect(facts.offeredWhilePlanning).toEqual([
      'enter_plan_mode',
      'exit_plan_mode',
      'plan_write',
      'todo_write',
      'read_file',
      'grep_search',
    ]);
    expect(facts.offeredWhileExecuting).toContain('edit_file');
  });

  it('the plan is written, approved once, and the edit applied once, after the approval', () => {
    expect(facts.planFile).toMatch(/^# Refactor greet\(\)/);
    expect(facts.planApprovals).toEqual([
      {
        kind: 'plan',
        plan: facts.planFile,
        reason: 'the model asks to leave plan mode and carry out this plan',
        file: join(workDir, 'plans', 'PLAN.md'),
      },
    ]);
    expect(facts.latch).toEqual({ version: 1, state: 'executing', plan: facts.planFile });
    expect(facts.edits).toEqual([{ path: 'src/greet.ts', latch: 'executing' }]);
    expect(facts.greet).toBe(facts.expectedGreet);
    expect(facts.toolApprovals).toEqual([
      { tool: 'edit_file', reason: "no rule allows 'edit_file' and it is not read-only" },
    ]);
    expect(
      (facts.toolCalls as { tool: string; status: string }[]).map((c) => `${c.tool}:${c.status}`),
    ).toEqual([
      'enter_plan_mode:succeeded',
      'read_file:succeeded',
      'grep_search:succeeded',
      'edit_file:denied',
      'plan_write:succeeded',
      'exit_plan_mode:succeeded',
      'edit_file:succeeded',
    ]);
    expect(facts.finalText).toMatch(/template literal/);
  });

  it('prints its story', () => {
    const text = outcome.lines.join('\n');
    expect(text).toContain(`policy.check('edit_file') is deny: ${DENIAL_REASON}`);
    expect(text).toContain('"denial":{"tool":"edit_file","state":"planning"');
    expect(text).toContain('edits applied: src/greet.ts (latch executing)');
  });
});
