/**
 * adk-fluent's plan mode, wired directly: a latch, a base PermissionPolicy that allows
 * read_file and grep_search, a PlanModePolicy over both, the plan tools the model drives the
 * latch with, and three tools defined in code with their annotations. Any agent loop works on
 * top of the guard; this one is a dozen lines. The model enters plan mode, reads, tries to edit
 * (denied: the model reads a sentence, the caller gets the denial as data), writes the plan,
 * leaves plan mode (a person approves), then edits (the base policy asks about edit_file, a
 * person says yes). Observers log every transition of the latch.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  guardTools,
  type Message,
  type PermissionDecision,
  PermissionPolicy,
  PlanMode,
  PlanModePolicy,
  planTools,
  ScriptedProvider,
  type ScriptedTurn,
} from '../src/agent/index.js';
import type { CallApprovalRequest, PermissionDenial, PlanApprovalRequest, Tool } from '../src/index.js';
import { type Example, type ExampleOptions, type ExampleOutcome, pathInside, workDirOf } from './example.js';

const SEED = '000';

const GREET = `export function greet(name: string): string {
  return 'Hello, ' + name + '!';
}
`;

const EDITED = `export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
`;

const PLAN = `# Refactor greet()

1. In src/greet.ts, build the greeting with a template literal instead of +.
2. Nothing else calls it differently: src/main.ts keeps working.
`;

/** read_file, grep_search and edit_file over a workspace they cannot leave. */
function workspaceTools(root: string, edits: { path: string; latch: string }[], latch: PlanMode): Tool[] {
  const inside = (path: unknown): string => pathInside(root, path);
  const path = { type: 'string', description: 'A path relative to the workspace' };
  return [
    {
      name: 'read_file',
      description: 'Read a file of the workspace',
      inputSchema: { type: 'object', properties: { path }, required: ['path'] },
      // Defined here, in code: the hint is believed (trustAnnotations defaults to true).
      annotations: { readOnlyHint: true },
      execute: ({ path }) => readFileSync(inside(path), 'utf8'),
    },
    {
      name: 'grep_search',
      description: 'The files under src/ that contain a text (plain text, not a pattern)',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
      execute: ({ text }) =>
        readdirSync(inside('src'))
          .map((name) => `src/${name}`)
          .filter((file) => readFileSync(inside(file), 'utf8').includes(String(text))),
    },
    {
      name: 'edit_file',
      description: 'Replace a text in a file of the workspace (the first occurrence)',
      inputSchema: {
        type: 'object',
        properties: { path, old: { type: 'string' }, new: { type: 'string' } },
        required: ['path', 'old', 'new'],
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
      execute: (args) => {
        const file = inside(args.path);
        const text = readFileSync(file, 'utf8');
        if (!text.includes(String(args.old)))
          throw new Error(`'${String(args.path)}' does not contain that text`);
        writeFileSync(file, text.replace(String(args.old), String(args.new)));
        edits.push({ path: String(args.path), latch: latch.state });
        return `edited ${String(args.path)}`;
      },
    },
  ];
}

const EDIT = {
  name: 'edit_file',
  arguments: { path: 'src/greet.ts', old: "'Hello, ' + name + '!'", new: '`Hello, ${name}!`' },
};

/** The model: one reply per request. */
const SCRIPT: readonly ScriptedTurn[] = [
  { text: 'A refactor: I will plan it first.', toolCalls: [{ name: 'enter_plan_mode' }] },
  {
    toolCalls: [
      { name: 'read_file', arguments: { path: 'src/greet.ts' } },
      { name: 'grep_search', arguments: { text: 'greet(' } },
    ],
  },
  // Jumping ahead: plan mode refuses it.
  { toolCalls: [EDIT] },
  { toolCalls: [{ name: 'plan_write', arguments: { content: PLAN } }] },
  { toolCalls: [{ name: 'exit_plan_mode' }] },
  { toolCalls: [EDIT] },
  { text: 'greet() now builds its greeting with a template literal.' },
];

async function run(options?: ExampleOptions): Promise<ExampleOutcome> {
  const workDir = workDirOf(options, SEED);
  const workspace = join(workDir, 'workspace');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'greet.ts'), GREET);
  writeFileSync(
    join(workspace, 'src', 'main.ts'),
    "import { greet } from './greet.js';\n\nconsole.log(greet('Ada'));\n",
  );
  const lines: string[] = [];

  // The direct wiring of adk-fluent's quick start.
  const latch = new PlanMode();
  const basePolicy = new PermissionPolicy({ allow: ['read_file', 'grep_search'] });
  const policy = new PlanModePolicy(basePolicy, latch);

  const transitions: string[] = [];
  const unsubscribe = latch.subscribe(({ state, plan }) => {
    transitions.push(state);
    lines.push(`transition -> ${state} (${plan?.length ?? 0} chars of plan)`);
  });

  const planApprovals: PlanApprovalRequest[] = [];
  const toolApprovals: CallApprovalRequest[] = [];
  const plan = planTools({
    latch,
    plansDir: join(workDir, 'plans'),
    approve: (request) => {
      planApprovals.push(request);
      return true;
    },
  });
  const edits: { path: string; latch: string }[] = [];
  const [readFile, grepSearch, editFile] = workspaceTools(workspace, edits, latch) as [Tool, Tool, Tool];
  const guarded = guardTools([...plan, readFile, grepSearch, editFile], policy, {
    // After the plan, the base policy decides: no rule allows edit_file, so a person is asked.
    approve: (request) => {
      toolApprovals.push(request);
      return true;
    },
  });

  // What the policy says while planning, asked directly (the definitions are what will run),
  // on a second latch so the model's latch starts off.
  const probe = new PlanMode();
  probe.enter();
  const planningPolicy = new PlanModePolicy(basePolicy, probe);
  const checks: Record<string, PermissionDecision> = {
    read_file: planningPolicy.check('read_file', {}, readFile),
    edit_file: planningPolicy.check('edit_file', {}, editFile),
  };
  lines.push(
    `while planning, policy.check('read_file') is ${checks.read_file!.behavior}; policy.check('edit_file') is ${checks.edit_file!.behavior}: ${checks.edit_file!.reason}`,
  );

  // Any agent loop: offer guarded.definitions() each turn, answer each call with guarded.call().
  const provider = new ScriptedProvider({ turns: SCRIPT });
  const messages: Message[] = [
    {
      role: 'system',
      content: 'Plan a refactor. Call enter_plan_mode, outline steps, then exit_plan_mode.',
    },
    { role: 'user', content: 'Make greet() use a template literal.' },
  ];
  const offered: string[][] = [];
  const denials: PermissionDenial[] = [];
  const toolCalls: { tool: string; status: string; latch: string }[] = [];
  let text = '';
  for (let turn = 0; turn < SCRIPT.length; turn++) {
    const tools = guarded.definitions();
    offered.push(tools.map((tool) => tool.name));
    let reply: Message | undefined;
    for await (const event of provider.stream({ messages, tools })) {
      if (event.type === 'done') reply = event.turn.message;
    }
    if (reply?.role !== 'assistant') throw new Error('the model ended without a turn');
    messages.push(reply);
    text = reply.content;
    if (!reply.toolCalls?.length) break;
    for (const call of reply.toolCalls) {
      const result = await guarded.call(call);
      messages.push(result.message);
      toolCalls.push({ tool: call.name, status: result.status, latch: latch.state });
      if (result.denial) {
        denials.push(result.denial);
        lines.push(`${call.name}: ${result.status}; the model reads: ${result.message.content}`);
        lines.push(`${call.name}: the caller gets: ${JSON.stringify({ denial: result.denial })}`);
      } else {
        lines.push(`${call.name}: ${result.status} (latch ${latch.state})`);
      }
    }
  }
  unsubscribe();
  plan.close();

  const planFile = readFileSync(join(workDir, 'plans', 'PLAN.md'), 'utf8');
  lines.push(
    `plan approved by a person: ${planApprovals.length} time(s); edit_file asked about: ${toolApprovals.length} time(s)`,
    `edits applied: ${edits.map((e) => `${e.path} (latch ${e.latch})`).join(', ')}`,
    `model: ${text}`,
  );
  return {
    lines,
    facts: {
      checks,
      transitions,
      offeredWhilePlanning: offered[1],
      offeredWhileExecuting: offered.at(-1),
      toolCalls,
      denials,
      deniedMessage: messages.find((m) => m.role === 'tool' && m.name === 'edit_file')?.content,
      edits,
      greet: readFileSync(join(workspace, 'src', 'greet.ts'), 'utf8'),
      expectedGreet: EDITED,
      planFile,
      planApprovals,
      toolApprovals: toolApprovals.map(({ tool, reason }) => ({ tool, reason })),
      latch: latch.toJSON(),
      finalText: text,
    },
  };
}

export const example: Example = {
  seed: SEED,
  title:
    'adk-fluent: a latch, a PlanModePolicy over a base policy and the plan tools, wired by hand; denials as data',
  run,
};
