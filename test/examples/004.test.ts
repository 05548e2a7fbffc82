import { beforeAll, describe, expect, it } from 'vitest';
import { example } from '../../examples/004-acts.js';
import type { ExampleOutcome } from '../../examples/example.js';

let outcome: ExampleOutcome;
let refund: Record<string, unknown>;
let translation: Record<string, unknown>;

beforeAll(async () => {
  outcome = await example.run();
  const facts = outcome.facts as { refund: Record<string, unknown>; translation: Record<string, unknown> };
  ({ refund, translation } = facts);
});

const comment = (what: string) => `a // comment, which JSON does not allow: ${what}`;

describe('example 004: the Acts plan loop, fed its walkthroughs as written', () => {
  it('refund: one refund, though both solutions list it', () => {
    expect(refund.refundsIssued).toBe(1);
    expect(refund.refunds).toEqual([{ customerId: 'cust_123', amount: 50 }]);
    expect(refund.billingLookups).toBe(1);
    expect(refund.escalations).toBe(0);
  });

  it("refund: turn 2's issueRefund is marked reused, with no attempt", () => {
    expect(refund.turns).toEqual([
      [
        { id: '0', tool: 'checkBillingHistory', status: 'succeeded', attempts: 1, reused: false },
        { id: '1', tool: 'issueRefund', status: 'succeeded', attempts: 1, reused: false },
      ],
      [{ id: '0', tool: 'issueRefund', status: 'succeeded', attempts: 0, reused: true }],
    ]);
  });

  it('refund: the model saw its position, each call of its plan marked with how it ended and what it returned', () => {
    // The billing history has no _outputPath: its result reaches the model only as this comment.
    expect(refund.shownInTurn2).toEqual([
      '// call 0 (checkBillingHistory): succeeded',
      '// result: {"orders":5,"lastChargeback":"2025-09-10"}',
      '// call 1 (issueRefund): succeeded',
      '// result: {"confirmationId":"refund_xyz789"}',
    ]);
  });

  it("refund: the request, given whole, makes its schema's output the answer's schema", () => {
    expect(refund.answerSchema).toEqual({
      type: 'object',
      nullable: true,
      properties: { confirmationId: { type: 'string' }, message: { type: 'string' } },
    });
  });

  it("refund: the loop ends with the model's answer", () => {
    expect(refund).toMatchObject({
      status: 'done',
      iterations: 2,
      output: { confirmationId: 'refund_xyz789', message: 'The refund has been processed successfully.' },
    });
  });

  it("translation: the context's tool messages are the tools offered; its state schema is shown", () => {
    expect(translation.toolsOffered).toEqual(['detectLanguage', 'isEnglish', 'translateText']);
    expect(translation.stateSchemaShown).toBe(true);
  });

  it("translation: the solution's comments are warnings with their line and column", () => {
    expect(translation.warnings).toEqual([
      { code: 'W_JSON_EXTENSION', line: 6, column: 7, message: comment('read as space') },
      { code: 'W_JSON_EXTENSION', line: 11, column: 7, message: comment('read as space') },
    ]);
  });

  it("translation: the plan filled the schema's slots", () => {
    expect(translation.state).toEqual({ language: 'fr', isEnglish: false, translatedText: 'Hello world' });
    expect(translation).toMatchObject({ status: 'done', output: 'Hello world' });
  });

  it('prints the story', () => {
    expect(outcome.lines).toContain(' refunds issued: 1; escalations: 0');
    expect(outcome.lines).toContain('  call 0 issueRefund: succeeded, 0 attempt(s), reused: not run again');
    expect(outcome.lines.filter((line) => line.includes('W_JSON_EXTENSION'))).toHaveLength(2);
  });
});
