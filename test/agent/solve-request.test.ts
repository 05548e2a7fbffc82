/**
 * solve()'s context may be a request `{"schema": ..., "context": [...]}`, as an object or as the
 * text a person wrote (comment line and all): the loop starts from its context, and its schema's
 * `output` is the answer's schema the model is offered, as the outputSchema option would give.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import type { Tool } from '../../src/index.js';

const REQUEST_TEXT = readFileSync(
  new URL('../../fixtures/requests/refund-first-turn.json', import.meta.url),
  'utf8',
);
const ANSWER_SCHEMA = {
  type: 'object',
  nullable: true,
  properties: { confirmationId: { type: 'string' }, message: { type: 'string' } },
};

const refunds: unknown[] = [];
const tools: Tool[] = [
  {
    name: 'issueRefund',
    inputSchema: {
      type: 'object',
      properties: { customerId: { type: 'string' }, amount: { type: 'number' } },
      required: ['customerId', 'amount'],
    },
    execute: (args) => {
      refunds.push(args);
      return { confirmationId: 'refund_1' };
    },
  },
];

const json = (value: unknown) => ({ text: JSON.stringify(value) });
const refundPlan = {
  calls: [{ _tool: 'issueRefund', customerId: '†input.customerId', amount: '†input.amount' }],
  output: null,
};
const answer = { calls: [], output: { confirmationId: 'refund_1', message: 'Refunded.' } };

/** The `output` schema of the reply format of request `k`, without its null alternative. */
function offeredAnswerSchema(provider: ScriptedProvider, k = 0): unknown {
  const format = provider.requests[k]!.responseFormat!.schema as {
    properties: { output: { anyOf: { type?: string }[] } };
  };
  return format.properties.output.anyOf.filter((schema) => schema.type !== 'null');
}

describe('solve() given a request as its context', () => {
  it('starts from the text of a request, comment line included, and offers its output schema', async () => {
    const provider = new ScriptedProvider({ turns: [json(refundPlan), json(answer)] });
    const result = await new PlanAgent({ provider, tools }).solve({}, { context: REQUEST_TEXT });
    expect(result).toMatchObject({ status: 'done', output: answer.output });
    expect(refunds).toContainEqual({ customerId: 'cust_123', amount: 50 });
    for (const k of [0, 1]) expect(offeredAnswerSchema(provider, k)).toEqual([ANSWER_SCHEMA]);
    const context = provider.requests[0]!.messages.at(-1)!.content;
    expect(context).toContain('"request": "I\'d like a refund for my last order."');
  });

  it('takes a request object, and a schema that is the answer schema itself', async () => {
    const provider = new ScriptedProvider({ turns: [json({ calls: [], output: 'fine' })] });
    const request = { schema: { type: 'string' }, context: [{ type: 'input', customerId: 'c' }] };
    const result = await new PlanAgent({ provider, tools }).solve({}, { context: request });
    expect(result.output).toBe('fine');
    expect(offeredAnswerSchema(provider)).toEqual([{ type: 'string' }]);
  });

  it('refuses a request schema and the outputSchema option together', async () => {
    const provider = new ScriptedProvider({ turns: [] });
    const solving = new PlanAgent({ provider, tools }).solve(
      {},
      { context: REQUEST_TEXT, outputSchema: { type: 'string' } },
    );
    await expect(solving).rejects.toThrow(TypeError);
    await expect(solving).rejects.toThrow(/outputSchema option gives one too; give it once/);
  });

  it('refuses a bad request schema with its line and column, before asking the model', async () => {
    const provider = new ScriptedProvider({ turns: [] });
    const context = '{\n  "schema": { "type": "objekt" },\n  "context": [{ "type": "input", "x": 1 }]\n}';
    await expect(new PlanAgent({ provider, tools }).solve({}, { context })).rejects.toThrow(
      /context option cannot be used:\n {2}2:23 E_OUTPUT_SCHEMA: the request's schema at \/type is not a usable JSON Schema/,
    );
    expect(provider.requests).toHaveLength(0);
  });
});
