/**
 * The plan loop (PlanAgent.solve) on two worked examples of the plan language, fed plans as a
 * person writes them by hand, `//` comments and all.
 *
 * 1. Planning one step ahead: a customer asks for a refund. The request, as written (a comment
 *    line, the reply's schema and the context), is solve()'s context: the loop starts from its
 *    input, and the answer is held to its schema's `output`. The model's first solution checks
 *    the billing history and issues the refund; its second, shown the plan with how each call
 *    ended and what it returned, lists the refund again and gives the answer. The billing
 *    history has no `_outputPath`, so nothing of it is in the state: the model sees it only as
 *    its call's result (`// result: {"orders":5,...}`), which is why every result is shown. The
 *    loop does not run the refund twice: the second call reuses the first one's result, and the
 *    customer is refunded once.
 * 2. Schema-guided planning: the context names its tools with tool messages and gives a state
 *    schema; the model's solution, with `//` comments in it, compiles (each comment a warning
 *    with its place) and fills the schema's slots.
 *
 * The model is scripted: it plays the solutions below exactly as written.
 */
import { PlanAgent, ScriptedProvider } from '../src/agent/index.js';
import type { AgentEvent } from '../src/agent/agent-events.js';
import type { CallReport, Diagnostic, Tool } from '../src/index.js';
import type { JsonObject } from '../src/language/document.js';
import type { Example, ExampleOptions, ExampleOutcome } from './example.js';

const SEED = '004';

/** The refund request (the answer's schema and the context), as written by hand (its first line is a comment). */
const REFUND_REQUEST = `// Agent.Request(config, schema, context)
{
  "schema": {
    "type": "object",
    "properties": {
      "calls": { "type": "array" },
      "output": {
        "type": "object",
        "nullable": true,
        "properties": {
          "confirmationId": { "type": "string" },
          "message": { "type": "string" }
        }
      }
    }
  },
  "context": [
    {
      "type": "input",
      "request": "I'd like a refund for my last order.",
      "customerId": "cust_123",
      "amount": 50.0
    }
  ]
}`;

/** The model's first solution. */
const REFUND_SOLUTION_1 = `{
  "calls": [
    {
      "_tool": "checkBillingHistory",
      "customerId": "†input.customerId"
    },
    {
      "_tool": "issueRefund",
      "customerId": "†input.customerId",
      "amount": "†input.amount"
    }
  ],
  "output": null
}`;

/** The model's second solution: the refund listed again, and the answer. */
const REFUND_SOLUTION_2 = `{
  "calls": [
    {
      "_tool": "issueRefund",
      "customerId": "†input.customerId",
      "amount": "†input.amount"
    }
  ],
  "output": {
    "confirmationId": "refund_xyz789",
    "message": "The refund has been processed successfully."
  }
}`;

/** "Context with State Schema", as written. */
const TRANSLATION_CONTEXT = `[
  { "type": "tool", "tool": "Tool.detectLanguage" },
  { "type": "tool", "tool": "Tool.isEnglish" },
  { "type": "tool", "tool": "Tool.translateText" },
  {
    "type": "input",
    "text": "Bonjour le monde"
  },
  {
    "type": "state",
    "schema": {
      "type": "object",
      "properties": {
        "language": { "type": "string" },
        "isEnglish": { "type": "boolean" },
        "translatedText": { "type": "string" }
      }
    }
  }
]`;

/** The model's solution, with comments that say why each call is wired as it is. */
const TRANSLATION_SOLUTION = `{
  "calls": [
    {
      "_tool": "detectLanguage",
      "text": "†input.text",
      // The LLM knows to use this path from the schema.
      "_outputPath": "†state.language"
    },
    {
      "_tool": "isEnglish",
      // It correctly references the output of the previous step.
      "language": "†state.language",
      "_outputPath": "†state.isEnglish"
    },
    {
      "_tool": "translateText",
      "text": "†input.text",
      "isEnglish": "†state.isEnglish",
      "_outputPath": "†state.translatedText"
    }
  ],
  "output": null
}`;

/** The loop's closing turn (the solution above leaves `output` null): the answer, from the state. */
const TRANSLATION_ANSWER = '{"calls": [], "output": "Hello world"}';

function refundDesk() {
  const refunds: JsonObject[] = [];
  const escalations: JsonObject[] = [];
  const lookups: JsonObject[] = [];
  const tools: Tool[] = [
    {
      name: 'checkBillingHistory',
      description: "A customer's orders and chargebacks",
      inputSchema: {
        type: 'object',
        properties: { customerId: { type: 'string' } },
        required: ['customerId'],
      },
      annotations: { readOnlyHint: true },
      execute: (args) => {
        lookups.push(args);
        return { orders: 5, lastChargeback: '2025-09-10' };
      },
    },
    {
      name: 'issueRefund',
      description: 'Refund an amount to a customer (money leaves the company)',
      inputSchema: {
        type: 'object',
        properties: { customerId: { type: 'string' }, amount: { type: 'number' } },
        required: ['customerId', 'amount'],
      },
      execute: (args) => {
        refunds.push(args);
        return { confirmationId: 'refund_xyz789' };
      },
    },
    {
      name: 'escalateToSupervisor',
      description: 'Hand the case to a person',
      inputSchema: { type: 'object', properties: { customerId: { type: 'string' } } },
      execute: (args) => {
        escalations.push(args);
        return { ticket: 'T-1' };
      },
    },
  ];
  return { tools, refunds, escalations, lookups };
}

function translationDesk(): Tool[] {
  return [
    {
      name: 'detectLanguage',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
      execute: ({ text }) => (String(text).startsWith('Bonjour') ? 'fr' : 'en'),
    },
    {
      name: 'isEnglish',
      inputSchema: { type: 'object', properties: { language: { type: 'string' } }, required: ['language'] },
      annotations: { readOnlyHint: true },
      execute: ({ language }) => language === 'en',
    },
    {
      name: 'translateText',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, isEnglish: { type: 'boolean' } },
        required: ['text', 'isEnglish'],
      },
      annotations: { readOnlyHint: true },
      execute: ({ text, isEnglish }) => (isEnglish ? text : 'Hello world'),
    },
    // Offered by the policy, but not named by the context: the model is not offered it.
    { name: 'summarize', inputSchema: { type: 'object' }, execute: () => '' },
  ];
}

function callLine(call: CallReport): string {
  const reused = call.reused ? ', reused: not run again' : '';
  return `  call ${call.id} ${call.tool}: ${call.status}, ${call.attempts} attempt(s)${reused}`;
}

function warningLine(d: Diagnostic): string {
  return `  ${d.line}:${d.column} ${d.code}: ${d.message}`;
}

async function refundWalkthrough(lines: string[]) {
  const desk = refundDesk();
  const provider = new ScriptedProvider({
    turns: [{ text: REFUND_SOLUTION_1 }, { text: REFUND_SOLUTION_2 }],
  });
  const agent = new PlanAgent({ provider, tools: desk.tools });
  // The request as written, comment line and all: its context is where the loop starts, and its
  // schema's `output` is what the final answer must match.
  const result = await agent.solve({}, { context: REFUND_REQUEST });
  lines.push('Planning one step ahead (refund):');
  result.runs.forEach((run, k) => {
    lines.push(` turn ${k + 1}: run ${run.status}`);
    for (const call of run.calls) lines.push(callLine(call));
  });
  // What the model was shown before its second solution: the plan, each call marked with how it
  // ended and what it returned (the history's result too, though no _outputPath kept it).
  const second = provider.requests[1]!.messages.at(-1)!.content;
  // The reply format the model was given: its `output` is the request's answer schema (or null).
  const format = provider.requests[0]!.responseFormat!.schema as {
    properties: { output: { anyOf: unknown[] } };
  };
  const answerSchema = format.properties.output.anyOf.find(
    (schema) => (schema as { type?: unknown }).type !== 'null',
  );
  const marks = second.split('\n').filter((line) => /^\/\/ (call|result|error)\b/.test(line.trimStart()));
  lines.push(' shown in turn 2:', ...marks.map((line) => `  ${line.trim()}`));
  lines.push(
    ` refunds issued: ${desk.refunds.length}; escalations: ${desk.escalations.length}`,
    ` answer (${result.status}): ${JSON.stringify(result.output)}`,
  );
  return {
    status: result.status,
    iterations: result.iterations,
    refundsIssued: desk.refunds.length,
    refunds: desk.refunds,
    billingLookups: desk.lookups.length,
    escalations: desk.escalations.length,
    turns: result.runs.map((run) =>
      run.calls.map((c) => ({
        id: c.id,
        tool: c.tool,
        status: c.status,
        attempts: c.attempts,
        reused: c.reused ?? false,
      })),
    ),
    shownInTurn2: marks.map((line) => line.trim()),
    answerSchema,
    output: result.output,
  };
}

async function translationWalkthrough(lines: string[]) {
  const provider = new ScriptedProvider({
    turns: [{ text: TRANSLATION_SOLUTION }, { text: TRANSLATION_ANSWER }],
  });
  const warnings: Diagnostic[] = [];
  const onEvent = (event: AgentEvent) => {
    if (event.type === 'solution')
      warnings.push(...event.plan.diagnostics.filter((d) => d.severity === 'warning'));
  };
  const agent = new PlanAgent({ provider, tools: translationDesk(), onEvent });
  const result = await agent.solve('Translate the text to English.', { context: TRANSLATION_CONTEXT });
  const offered = JSON.stringify(provider.requests[0]!.responseFormat!.schema);
  const toolsOffered = ['detectLanguage', 'isEnglish', 'translateText', 'summarize'].filter((name) =>
    offered.includes(`"const":"${name}"`),
  );
  const shownState = /\{\n {4}"type": "state",[\s\S]*?\n {2}\}/.exec(
    provider.requests[0]!.messages.at(-1)!.content,
  );
  lines.push(
    'Schema-guided planning (translation):',
    ` tools offered: ${toolsOffered.join(', ')}`,
    ' the solution compiled, its comments read as space:',
    ...warnings.map(warningLine),
    ` state: ${JSON.stringify(result.state)}`,
    ` answer (${result.status}): ${JSON.stringify(result.output)}`,
  );
  return {
    status: result.status,
    toolsOffered,
    warnings: warnings.map((d) => ({ code: d.code, line: d.line, column: d.column, message: d.message })),
    stateSchemaShown: shownState !== null && shownState[0].includes('"schema"'),
    state: result.state,
    output: result.output,
  };
}

/** The loop writes nothing to disk, so the example needs no folder of its own. */
async function run(_options?: ExampleOptions): Promise<ExampleOutcome> {
  const lines: string[] = [];
  const refund = await refundWalkthrough(lines);
  const translation = await translationWalkthrough(lines);
  return { lines, facts: { refund, translation } };
}

export const example: Example = {
  seed: SEED,
  title: 'Acts: the plan loop runs hand-written plans, comments and all, and refunds once',
  run,
};
