import { beforeAll, describe, expect, it } from 'vitest';
import { example } from '../../examples/004-payment-edit.js';
import type { ExampleOutcome } from '../../examples/example.js';

let outcome: ExampleOutcome;
beforeAll(async () => {
  outcome = await example.run();
});

describe('example 004-edit: the payment flow edited at approval', () => {
  it('runs the edit: the card check, then the capped payment, then the confirmation', () => {
    const facts = outcome.facts;
    expect(facts.status).toBe('succeeded');
    expect(facts.edited).toBe(true);
    expect(facts.charged).toEqual([50]);
    expect(facts.calls).toEqual([
      ['check', 'succeeded'],
      ['pay', 'succeeded'],
      ['confirm', 'succeeded'],
    ]);
    expect(facts.state).toMatchObject({ card: { valid: true }, order: { status: 'Success' } });
  });

  it('asked again after the edit with a typo, with its diagnostics', () => {
    expect(outcome.facts.asks).toBe(2);
    const [first, second] = outcome.facts.editErrors as string[][];
    expect(first).toEqual([]);
    expect(second!.length).toBeGreaterThan(0);
    expect(outcome.lines.some((line) => /edit 1 does not compile: \d+:\d+ E_\w+/.test(line))).toBe(true);
    expect(outcome.lines.at(-1)).toBe('charged 50 (the plan asked about would have charged 500)');
  });
});
