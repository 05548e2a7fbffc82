/**
 * gollem's plan mode: a goal becomes todos (structured output), each todo runs as its own agent
 * turn with the tools, and after each one the model reflects: continue, revise the pending
 * todos, or finish with the result. Hooks mark every stage. Midway (after the first todo) the
 * plan is saved, restored into a new plan object and carried on; at the end, running the
 * finished plan again is a typed error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type PlannedTodo,
  planTodos,
  type RecordedRequest,
  ScriptedProvider,
  type ScriptedReply,
  type TodoPlanEvent,
  type TodoPlanHooks,
  TodoPlan,
  type TodoPlanOptions,
} from '../src/agent/index.js';
import type { AgentEvent } from '../src/agent/index.js';
import { isPlanAlreadyExecutedError, type Tool } from '../src/index.js';
import { type Example, type ExampleOptions, type ExampleOutcome, workDirOf } from './example.js';

const SEED = '003';
const GOAL = 'Research the latest trends in AI and create a summary report';
const REPORT = 'report.md';

/** What the search tool knows: a few findings per topic. */
const FINDINGS: Record<string, string[]> = {
  trends: ['AI agents that use tools', 'small open models running on laptops', 'multimodal models'],
  adoption: ['most companies pilot AI agents', 'coding assistants are the most used agents'],
  regulation: ['the EU AI Act applies in stages from 2025', 'model providers publish safety reports'],
};

function researchTools(workDir: string, reportWrites: string[]): Tool[] {
  return [
    {
      name: 'search',
      description: 'Search recent articles about a topic: trends, adoption or regulation',
      inputSchema: {
        type: 'object',
        properties: { topic: { type: 'string', enum: Object.keys(FINDINGS) } },
        required: ['topic'],
      },
      annotations: { readOnlyHint: true },
      execute: ({ topic }) => ({ topic, findings: FINDINGS[topic as string] ?? [] }),
    },
    {
      name: 'write_report',
      description: `Write the summary report (Markdown) to ${REPORT}`,
      inputSchema: {
        type: 'object',
        properties: { markdown: { type: 'string', minLength: 1 } },
        required: ['markdown'],
      },
      execute: ({ markdown }) => {
        writeFileSync(join(workDir, REPORT), markdown as string);
        reportWrites.push(REPORT);
        return { path: REPORT, characters: (markdown as string).length };
      },
    },
  ];
}

const json = (value: unknown): ScriptedReply => ({ text: JSON.stringify(value) });
const call = (name: string, args: Record<string, unknown>): ScriptedReply => ({
  toolCalls: [{ name, arguments: args }],
});
const reflect = (action: string, changes: unknown[] = [], result: string | null = null) =>
  json({ action, changes, result });

const REPORT_TEXT = `# AI trends

- AI agents that use tools; most companies pilot them, coding assistants lead.
- Small open models now run on laptops; multimodal models are common.
- Regulation: the EU AI Act applies in stages from 2025.
`;

/** The model's side of the walkthrough, turn by turn. */
const SCRIPT: ScriptedReply[] = [
  json({
    todos: [
      { id: 't1', description: 'Search for the latest AI trends', intent: 'Know what the report is about' },
      {
        id: 't2',
        description: 'Search how widely the top trends are adopted',
        intent: 'Back the trends with data',
      },
      { id: 't3', description: `Write the summary report to ${REPORT}`, intent: 'Deliver the result' },
    ],
  }),
  call('search', { topic: 'trends' }),
  { text: 'Found three trends: tool-using agents, small open models, multimodal models.' },
  reflect('continue'),
  call('search', { topic: 'adoption' }),
  { text: 'Most companies pilot AI agents; coding assistants are the most used.' },
  reflect('revise', [
    {
      type: 'add',
      id: 't4',
      description: 'Search for AI regulation news',
      intent: 'A summary of trends should say what rules now apply',
      before: 't3',
    },
  ]),
  call('search', { topic: 'regulation' }),
  { text: 'The EU AI Act applies in stages from 2025.' },
  reflect('continue'),
  call('write_report', { markdown: REPORT_TEXT }),
  { text: `Wrote the report to ${REPORT}.` },
  reflect(
    'finish',
    [],
    `The summary report is in ${REPORT}: three trends, their adoption, and the rules that apply.`,
  ),
];

async function run(options?: ExampleOptions): Promise<ExampleOutcome> {
  const workDir = workDirOf(options, SEED);
  const lines: string[] = [];
  const reportWrites: string[] = [];
  const hookOrder: string[] = [];
  const statusChanges: string[] = [];
  const revisions: { type: string; id: string }[] = [];
  const approvals: string[] = [];
  const provider = new ScriptedProvider({ turns: SCRIPT, model: 'gollem-walkthrough' });

  const hooks: TodoPlanHooks = {
    onCreated: (plan) => void hookOrder.push(`created ${plan.todos.length} todos`),
    onTodoStart: (_plan, todo) => void hookOrder.push(`start ${todo.id}`),
    onTodoDone: (_plan, todo) => void hookOrder.push(`done ${todo.id}`),
    onRevised: (_plan, changes) =>
      void hookOrder.push(`revised ${changes.map((c) => `${c.type} ${c.todo.id}`).join(', ')}`),
    onCompleted: (plan) => void hookOrder.push(`completed (${plan.state})`),
  };
  const onEvent = (event: TodoPlanEvent | AgentEvent) => {
    switch (event.type) {
      case 'todo-start':
      case 'todo-done':
        statusChanges.push(`${event.todo.id} ${event.todo.status}`);
        lines.push(
          event.type === 'todo-start'
            ? `▶ ${event.todo.id}: ${event.todo.description}`
            : `✓ ${event.todo.id}: ${event.todo.result?.output ?? ''}`,
        );
        break;
      case 'tool-call':
        lines.push(`    → ${event.call.name} ${short(JSON.stringify(event.call.arguments))}`);
        break;
      case 'reflected':
        lines.push(`  reflection ${event.iteration}: ${event.action}`);
        break;
      case 'todos-revised':
        for (const change of event.changes) {
          revisions.push({ type: change.type, id: change.todo.id });
          lines.push(`  ${change.type}: ${change.todo.id} "${change.todo.description}"`);
        }
        lines.push(`  todos now: ${event.todos.map((t) => t.id).join(', ')}`);
        break;
    }
  };
  const planOptions: TodoPlanOptions = {
    provider,
    tools: researchTools(workDir, reportWrites),
    hooks,
    onEvent,
    approvePlan: ({ plan }) => {
      approvals.push(plan);
      return true;
    },
  };

  lines.push(`goal: ${GOAL}`);
  const plan = await planTodos(GOAL, planOptions);
  lines.push('todos (approved):', ...plan.todos.map((t) => `  ${t.id}: ${t.description}`));

  // One step (the first todo and its reflection), then save the plan, as a stateless server would.
  await plan.step();
  const saved = JSON.stringify(plan);
  const savedTodos = plan.todos.map(statusOf);
  lines.push(`saved after the first todo: state ${plan.state}, ${saved.length} characters of JSON`);

  const restored = TodoPlan.from(saved, planOptions);
  const sameSnapshot = JSON.stringify(restored) === saved;
  lines.push(
    `restored into a new plan object: ${sameSnapshot ? 'the same snapshot' : 'a different snapshot'}`,
  );
  const outcome = await restored.execute();
  lines.push(`${outcome.state}: ${outcome.result ?? outcome.error ?? ''}`);
  lines.push(`${REPORT} written ${reportWrites.length === 1 ? 'once' : `${reportWrites.length} times`}`);
  lines.push(`hooks: ${hookOrder.join(' -> ')}`);

  let error: unknown;
  try {
    await restored.execute();
  } catch (e) {
    error = e;
  }
  const errorName = isPlanAlreadyExecutedError(error) ? error.name : String(error);
  lines.push(`execute() again: ${errorName}: ${(error as Error).message}`);

  const requests = provider.requests;
  return {
    lines,
    facts: {
      workDir,
      goal: GOAL,
      state: outcome.state,
      result: outcome.result,
      iterations: outcome.iterations,
      todos: outcome.todos.map(statusOf),
      statusChanges,
      revisions,
      hookOrder,
      approvals,
      reportWrites: reportWrites.length,
      reportText: REPORT_TEXT,
      roundTrip: {
        savedState: JSON.parse(saved).state as string,
        savedTodos,
        sameSnapshot,
        originalFinished: plan.finished,
      },
      errorName,
      modelShown: {
        requests: requests.length,
        createFormat: requests[0]?.responseFormat?.name ?? null,
        createTools: requests[0]?.tools.map((t) => t.name) ?? [],
        executorTools: requests[1]?.tools.map((t) => t.name) ?? [],
        reflectionFormat: requests[3]?.responseFormat?.name ?? null,
        secondTodoPrompt: lastUserText(requests[4]),
      },
    },
  };
}

function statusOf(todo: PlannedTodo): { id: string; status: string } {
  return { id: todo.id, status: todo.status };
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function lastUserText(request: RecordedRequest | undefined): string {
  const users = (request?.messages ?? []).filter((m) => m.role === 'user');
  return users.at(-1)?.content ?? '';
}

export const example: Example = {
  seed: SEED,
  title:
    'gollem: goal -> todos -> execute each -> reflect (continue, revise, finish), saved and resumed midway',
  run,
};
