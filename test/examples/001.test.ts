import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example } from '../../examples/001-mini-claw-code.js';
import type { ExampleOutcome } from '../../examples/example.js';

interface Walkthrough {
  planned: { status: string; plan: string | null; submittedWith: string | null };
  latchAfterPlan: string;
  dstExistedAfterPlan: boolean;
  latchAfterExecute: string;
  offeredWhilePlanning: string[];
  offeredWhileExecuting: string[];
  toolCalls: string[];
  refusals: string[];
  src: string;
  dst: string | null;
  finalText: string;
  roles: string[];
}

let workDir: string;
let outcome: ExampleOutcome;
let plainText: Walkthrough;
let exitPlan: Walkthrough;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'planmode-example-001-'));
  outcome = await example.run({ workDir });
  ({ plainText, exitPlan } = outcome.facts as { plainText: Walkthrough; exitPlan: Walkthrough });
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const PLAN = "I'll copy src.txt to dst.txt.";

describe('example 001: the mini-claw-code copy walkthrough', () => {
  it("the model's plain-text answer is the plan, and planning ends", () => {
    expect(plainText.planned).toMatchObject({ status: 'planned', plan: PLAN, submittedWith: 'text' });
    expect(plainText.latchAfterPlan).toBe('executing');
    expect(plainText.dstExistedAfterPlan).toBe(false);
  });

  it('offers read and exit_plan while planning, read and write executing', () => {
    expect(plainText.offeredWhilePlanning).toEqual(['read', 'exit_plan']);
    expect(plainText.offeredWhileExecuting).toEqual(['read', 'write']);
  });

  it("after the caller's approval, execute() writes dst.txt with src.txt's content", () => {
    expect(plainText.dst).toBe(plainText.src);
    expect(plainText.toolCalls).toEqual(['read', 'write']);
    expect(plainText.refusals).toEqual([]);
    expect(plainText.latchAfterExecute).toBe('executing');
    expect(plainText.finalText).toBe('Done! Copied the file.');
  });

  it('one message array carries both phases: planning prompt, request, read, plan, approval, write, answer', () => {
    expect(plainText.roles).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('variant: a write while planning is refused naming exit_plan; exit_plan with no arguments submits the text', () => {
    expect(exitPlan.planned).toMatchObject({ status: 'planned', plan: PLAN, submittedWith: 'exit_plan' });
    expect(exitPlan.refusals).toEqual([
      "Permission denied: Plan mode denies mutating tool 'write'. Put the change in your plan and submit the plan with exit_plan to ask for approval.",
    ]);
    expect(exitPlan.refusals[0]).not.toContain('exit_plan_mode');
    expect(exitPlan.dstExistedAfterPlan).toBe(false);
    expect(exitPlan.toolCalls).toEqual(['read', 'write', 'exit_plan', 'write']);
    expect(exitPlan.dst).toBe(exitPlan.src);
    expect(exitPlan.latchAfterPlan).toBe('executing');
  });

  it('prints its story', () => {
    const text = outcome.lines.join('\n');
    expect(text).toContain(`Plan: ${PLAN}  [planned, with text]`);
    expect(text).toContain(`Plan: ${PLAN}  [planned, with exit_plan]`);
    expect(text).toContain('offered while planning: read, exit_plan; while executing: read, write');
    expect(text).toContain('dst.txt equals src.txt');
  });
});
