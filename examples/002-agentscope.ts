/**
 * AgentScope's plan mode: `enablePlanMode()` and `enableTaskList()` on one agent. The model
 * enters plan mode itself, explores with read-only tools (a write is refused), writes
 * plans/PLAN.md with plan_write, and asks a person to approve it with exit_plan_mode; then it
 * slices the plan into todos and works through them one at a time, each model request
 * carrying the todo list as a reminder. Finally plan mode's state (latch, todos, plan file) is
 * saved, restored into a fresh agent, and saved again: the same snapshot.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Message, RecordedRequest, ScriptedTurn, ToolResultMessage } from '../src/agent/index.js';
import { PlanAgent, ScriptedProvider, TODO_REMINDER_HEADING, type Todo } from '../src/agent/index.js';
import type { PlanApprovalRequest, Tool } from '../src/index.js';
import { type Example, type ExampleOptions, type ExampleOutcome, pathInside, workDirOf } from './example.js';

const SEED = '002';

const MODULE_X = `export async function load(id: string) {
  return legacyFetch('/items/' + id);
}
`;

const PLAN = `# Refactor module X

1. Add src/http.ts with a typed getJson() helper.
2. Replace legacyFetch in src/module-x.ts with getJson().
3. Note the change in CHANGELOG.md.
`;

const TODO_ITEMS = [
  'Add src/http.ts with getJson()',
  'Use getJson() in src/module-x.ts',
  'Note the change in CHANGELOG.md',
];

/** The todo list with the first `done` items completed and the next one in progress. */
function todosAt(done: number): Todo[] {
  return TODO_ITEMS.map((content, index) => ({
    content,
    status: index < done ? 'completed' : index === done ? 'in_progress' : 'pending',
  }));
}

/** A workspace the tools cannot leave: relative paths without `..` only. */
function workspaceTools(root: string, writes: string[]): Tool[] {
  const inside = (path: unknown): string => pathInside(root, path);
  const pathSchema = { type: 'string', description: 'A path relative to the workspace' };
  return [
    {
      name: 'read_file',
      description: 'Read a file of the workspace',
      inputSchema: { type: 'object', properties: { path: pathSchema }, required: ['path'] },
      annotations: { readOnlyHint: true },
      execute: ({ path }) => readFileSync(inside(path), 'utf8'),
    },
    {
      name: 'grep_files',
      description: 'Find the workspace files that contain a text (plain text, not a pattern)',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
      execute: ({ text }) =>
        ['src/module-x.ts'].filter((path) => readFileSync(inside(path), 'utf8').includes(String(text))),
    },
    {
      name: 'write_file',
      description: 'Write a file of the workspace',
      inputSchema: {
        type: 'object',
        properties: { path: pathSchema, content: { type: 'string' } },
        required: ['path', 'content'],
      },
      execute: ({ path, content }) => {
        const target = inside(path);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, String(content));
        writes.push(String(path));
        return `wrote ${String(path)}`;
      },
    },
  ];
}

/** What the scripted model does, one reply per request. */
const SCRIPT: readonly ScriptedTurn[] = [
  { text: 'This refactor needs a plan first.', toolCalls: [{ name: 'enter_plan_mode' }] },
  {
    toolCalls: [
      { name: 'read_file', arguments: { path: 'src/module-x.ts' } },
      { name: 'grep_files', arguments: { text: 'legacyFetch' } },
    ],
  },
  // Jumping ahead: plan mode refuses it, and the model goes back to writing the plan.
  {
    toolCalls: [{ name: 'write_file', arguments: { path: 'src/module-x.ts', content: 'export {};\n' } }],
  },
  { toolCalls: [{ name: 'plan_write', arguments: { content: PLAN } }] },
  { text: 'The plan is in plans/PLAN.md.', toolCalls: [{ name: 'exit_plan_mode' }] },
  { toolCalls: [{ name: 'todo_write', arguments: { todos: todosAt(0) } }] },
  {
    toolCalls: [
      {
        name: 'write_file',
        arguments: {
          path: 'src/http.ts',
          content:
            'export async function getJson<T>(url: string): Promise<T> {\n  return (await fetch(url)).json();\n}\n',
        },
      },
      { name: 'todo_write', arguments: { todos: todosAt(1) } },
    ],
  },
  {
    toolCalls: [
      {
        name: 'write_file',
        arguments: {
          path: 'src/module-x.ts',
          content:
            "import { getJson } from './http.js';\n\nexport async function load(id: string) {\n  return getJson('/items/' + id);\n}\n",
        },
      },
      { name: 'todo_write', arguments: { todos: todosAt(2) } },
    ],
  },
  {
    toolCalls: [
      { name: 'write_file', arguments: { path: 'CHANGELOG.md', content: '- module X uses getJson()\n' } },
      { name: 'todo_write', arguments: { todos: todosAt(3) } },
    ],
  },
  { text: 'Done: module X uses getJson(), and the change is in CHANGELOG.md.' },
];

/** The reminder a request carried: its last message when that is the todo reminder. */
function reminderOf(request: RecordedRequest): string | null {
  const last = request.messages.at(-1);
  return last?.role === 'user' && last.content.startsWith(TODO_REMINDER_HEADING) ? last.content : null;
}

async function run(options?: ExampleOptions): Promise<ExampleOutcome> {
  const workDir = workDirOf(options, SEED);
  const workspace = join(workDir, 'workspace');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'module-x.ts'), MODULE_X);
  const writes: string[] = [];
  const tools = workspaceTools(workspace, writes);
  const lines: string[] = [];

  const approvals: PlanApprovalRequest[] = [];
  const provider = new ScriptedProvider({ turns: SCRIPT });
  const todosAfterEachWrite: Todo[][] = [];
  const denied: { tool: string; state: string | null; message: string }[] = [];
  // One option installs the plan tools, the guard, the plan-mode policy and the task list.
  const agent: PlanAgent = new PlanAgent({
    provider,
    tools,
    planMode: { plansDir: join(workspace, 'plans') },
    // The human in the loop: asked when the model calls exit_plan_mode.
    approvePlan: (request) => {
      approvals.push(request);
      return true;
    },
    onEvent: (event) => {
      if (event.type !== 'tool-result') return;
      if (event.call.name === 'todo_write' && event.outcome === 'succeeded') {
        todosAfterEachWrite.push(agent.planMode!.todos.toJSON());
      }
      if (event.outcome === 'denied') {
        denied.push({
          tool: event.call.name,
          state: event.denial?.state ?? null,
          message: event.result.content,
        });
      }
    },
  });
  const setup = agent.planMode!;
  const transitions: string[] = [];
  setup.latch.subscribe((change) => {
    transitions.push(`${change.previous} -> ${change.state}`);
  });

  const messages: Message[] = [{ role: 'user', content: 'Refactor module X for me' }];
  // The model drives plan mode itself, so the loop is the ordinary one: every tool the policy allows now.
  const outcome = await agent.execute(messages);

  const reminders = provider.requests.map(reminderOf);
  const offered = provider.requests.map((request) => request.tools.map((tool) => tool.name));
  const planFile = readFileSync(join(workspace, 'plans', 'PLAN.md'), 'utf8');
  lines.push(
    `latch: ${transitions.join(', ')}`,
    `while planning the model was offered: ${offered[1]!.join(', ')}`,
    `refused: ${denied.map((d) => `${d.tool} (${d.state})`).join(', ')}`,
    `plan approved by a person: ${approvals.length} time(s), read from ${approvals[0]?.file === undefined ? '(no file)' : relative(workspace, approvals[0].file)}`,
    `plans/PLAN.md: ${planFile.split('\n')[0]}`,
  );
  todosAfterEachWrite.forEach((list, index) => {
    lines.push(`todo_write ${index + 1}: ${list.map((t) => `${t.status}:${t.content}`).join(' | ')}`);
  });
  reminders.forEach((reminder, index) => {
    lines.push(
      `request ${index + 1}: ${reminder === null ? 'no reminder' : reminder.split('\n').slice(1).join(' ')}`,
    );
  });
  lines.push(`files written: ${writes.join(', ')}`, `model: ${outcome.text}`);

  // Plan mode's state, saved as JSON text and restored into a fresh agent with its own plans folder.
  const snapshot = await setup.snapshot();
  const saved = JSON.stringify(snapshot);
  const restoredPlans = join(workDir, 'restored', 'plans');
  const fresh = new PlanAgent({
    provider: new ScriptedProvider({ turns: [] }),
    tools,
    planMode: { plansDir: restoredPlans },
    approvePlan: () => true,
  });
  await fresh.planMode!.restore(JSON.parse(saved));
  const again = await fresh.planMode!.snapshot();
  const restored = {
    latch: fresh.latch.state,
    approvedPlan: fresh.latch.plan,
    todos: fresh.planMode!.todos.toJSON(),
    planFile: readFileSync(join(restoredPlans, 'PLAN.md'), 'utf8'),
  };
  const roundTrip = JSON.stringify(again) === saved;
  lines.push(
    `snapshot: ${saved.length} characters of JSON; restored into a fresh agent: latch ${restored.latch}, ${restored.todos.length} todos, PLAN.md ${restored.planFile === planFile ? 'the same' : 'DIFFERENT'}`,
    `snapshot round trip: ${roundTrip ? 'equal' : 'DIFFERENT'}`,
  );
  setup.close();
  fresh.planMode!.close();

  const toolResults = messages.filter((m): m is ToolResultMessage => m.role === 'tool');
  return {
    lines,
    facts: {
      planFile,
      transitions,
      approvals,
      offeredWhilePlanning: offered[1],
      offeredWhileExecuting: offered.at(-1),
      denied,
      writes,
      moduleX: readFileSync(join(workspace, 'src', 'module-x.ts'), 'utf8'),
      todosAfterEachWrite,
      reminders,
      requests: provider.requests.length,
      remindersInConversation: messages.filter(
        (m) => m.role === 'user' && m.content.startsWith(TODO_REMINDER_HEADING),
      ).length,
      toolCalls: toolResults.map((m) => m.name),
      finalText: outcome.text,
      snapshot,
      restored,
      roundTrip,
    },
  };
}

export const example: Example = {
  seed: SEED,
  title:
    'AgentScope: plan mode in one option, a person approves the plan, the task list as a reminder, state saved and restored',
  run,
};
