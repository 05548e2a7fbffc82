/**
 * The payment flow of the Acts walkthrough, approved by a person who edits it first. The plan
 * pays `†input.amount` and confirms the order with the receipt; it is lazy, so nothing runs
 * before a person says yes. The person (the `approve` callback here) answers with an edited plan:
 * a card check first, and the amount capped at the order's total. Their first edit has a typo
 * (`amont`): it does not compile, so they are asked again with its diagnostics, located in their
 * text; their mended edit is what runs, and the result says it was edited.
 */
import type { ApprovalResponse, CompiledPlan, PlanApprovalRequest, Tool } from '../src/index.js';
import { run } from '../src/run/index.js';
import type { Example, ExampleOutcome } from './example.js';

const SEED = '004-edit';

/** The plan as the model wrote it: pay what the input says, then confirm the order. */
const PLAN = {
  type: 'plan',
  mode: 'lazy',
  plan: [
    {
      _id: 'pay',
      _tool: 'processPayment',
      amount: '†input.amount',
      _outputPath: '†state.receipt || †state.error',
    },
    { _id: 'confirm', _tool: 'confirmOrder', receipt: '†state.receipt', _outputPath: '†state.order' },
  ],
};

/** The person's edit: check the card first, and pay the order's total, not the input's amount. */
function edited(amountKey: 'amount' | 'amont'): unknown[] {
  return [
    { _id: 'check', _tool: 'verifyCard', card: '†input.card', _outputPath: '†state.card' },
    {
      _id: 'pay',
      _tool: 'processPayment',
      [amountKey]: 50,
      _after: ['check'],
      _outputPath: '†state.receipt || †state.error',
    },
    { _id: 'confirm', _tool: 'confirmOrder', receipt: '†state.receipt', _outputPath: '†state.order' },
  ];
}

function payTools(charged: number[]): Tool[] {
  return [
    {
      name: 'verifyCard',
      inputSchema: { type: 'object', properties: { card: { type: 'string' } }, required: ['card'] },
      outputSchema: { type: 'object', properties: { valid: { type: 'boolean' } } },
      annotations: { readOnlyHint: true },
      execute: ({ card }) => ({ valid: String(card).endsWith('4242') }),
    },
    {
      name: 'processPayment',
      inputSchema: {
        type: 'object',
        properties: { amount: { type: 'number' } },
        required: ['amount'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { receiptId: { type: 'string' }, amount: { type: 'number' } },
      },
      execute: ({ amount }) => {
        charged.push(amount as number);
        return { receiptId: `rcpt_${charged.length}`, amount: amount as number };
      },
    },
    {
      name: 'confirmOrder',
      inputSchema: { type: 'object', properties: { receipt: { type: 'object' } }, required: ['receipt'] },
      outputSchema: { type: 'object', properties: { status: { type: 'string' } } },
      execute: () => ({ status: 'Success' }),
    },
  ];
}

async function runExample(): Promise<ExampleOutcome> {
  const lines: string[] = [];
  const charged: number[] = [];
  const asked: { calls: number; editErrors: string[] }[] = [];
  const approve = (request: PlanApprovalRequest<CompiledPlan>): ApprovalResponse => {
    asked.push({
      calls: request.plan.calls.length,
      editErrors: request.edit?.diagnostics.map((d) => d.code) ?? [],
    });
    if (!request.edit) {
      lines.push(`asked about the plan: ${request.plan.calls.length} calls; editing it (with a typo)`);
      return { approved: true, plan: edited('amont') };
    }
    for (const d of request.edit.diagnostics)
      lines.push(
        `edit ${request.edit.attempt} does not compile: ${d.line}:${d.column} ${d.code}: ${d.message}`,
      );
    lines.push('mending the edit and approving it');
    return { approved: true, plan: edited('amount') };
  };
  const result = await run(PLAN, {
    tools: payTools(charged),
    input: { amount: 500, card: '4000 0000 0000 4242' },
    approve: (request) =>
      request.kind === 'plan' ? approve(request as PlanApprovalRequest<CompiledPlan>) : false,
  });
  lines.push(
    `run ${result.status}; edited: ${String(result.edited === true)}; ran ${result.calls.map((c) => c.id).join(', ')}`,
  );
  lines.push(`charged ${charged.join(', ')} (the plan asked about would have charged 500)`);
  return {
    lines,
    facts: {
      status: result.status,
      edited: result.edited === true,
      editedPlan: result.editedPlan,
      charged,
      calls: result.calls.map((c) => [c.id, c.status]),
      asks: asked.length,
      editErrors: asked.map((a) => a.editErrors),
      state: result.state,
    },
  };
}

export const example: Example = {
  seed: SEED,
  title: 'Acts: the payment flow, edited by a person at its approval (a card check, the amount capped)',
  run: runExample,
};
