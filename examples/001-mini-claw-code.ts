/**
 * mini-claw-code's PlanAgent: plan() with read-only tools (and exit_plan), the caller approves,
 * execute() with every tool, on one message array. The copy walkthrough: the model reads
 * src.txt and answers in plain text "I'll copy src.txt to dst.txt."; that text is the plan and
 * ends planning. The caller prints it, pushes "Approved. Go ahead." and calls execute(); the
 * model writes dst.txt with what it read. A second run ends planning with exit_plan called
 * with no arguments (the turn's text is the plan), after a write it tried while planning was
 * refused with advice that names exit_plan, the one way out it is offered.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Message,
  PlanAgent,
  type PlanOutcome,
  type RecordedRequest,
  ScriptedProvider,
  type ScriptedTurn,
  type ToolResultMessage,
} from '../src/agent/index.js';
import type { Tool } from '../src/index.js';
import { type Example, type ExampleOptions, type ExampleOutcome, pathInside, workDirOf } from './example.js';

const SEED = '001';
const SOURCE = 'source content\nsecond line\n';
const PLAN_TEXT = "I'll copy src.txt to dst.txt.";

/** `read` (read-only) and `write` on real files of `root`, which they cannot leave. */
function fileTools(root: string): Tool[] {
  const inside = (path: unknown): string => pathInside(root, path);
  return [
    {
      name: 'read',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      annotations: { readOnlyHint: true },
      execute: ({ path }) => readFileSync(inside(path), 'utf8'),
    },
    {
      name: 'write',
      description: 'Write a file',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
      },
      execute: ({ path, content }) => {
        writeFileSync(inside(path), String(content));
        return `wrote ${String(path)}`;
      },
    },
  ];
}

/** The model writes what it read: the content of the `read` result it was shown. */
const writeWhatWasRead: ScriptedTurn = (request: RecordedRequest) => {
  const read = request.messages.find(
    (m): m is ToolResultMessage => m.role === 'tool' && m.name === 'read' && m.isError !== true,
  );
  if (!read) throw new Error('the model was never shown src.txt');
  return { toolCalls: [{ name: 'write', arguments: { path: 'dst.txt', content: read.content } }] };
};

const READ_SOURCE: ScriptedTurn = { toolCalls: [{ name: 'read', arguments: { path: 'src.txt' } }] };

/** mini-claw-code's own walkthrough: the plan is the model's plain-text answer. */
const PLAIN_TEXT: readonly ScriptedTurn[] = [
  READ_SOURCE,
  { text: PLAN_TEXT },
  writeWhatWasRead,
  { text: 'Done! Copied the file.' },
];

/** The variant: a write tried while planning, then exit_plan with no arguments. */
const EXIT_PLAN: readonly ScriptedTurn[] = [
  READ_SOURCE,
  { toolCalls: [{ name: 'write', arguments: { path: 'dst.txt', content: 'too early' } }] },
  { text: PLAN_TEXT, toolCalls: [{ name: 'exit_plan' }] },
  writeWhatWasRead,
  { text: 'Done! Copied the file.' },
];

interface Walkthrough {
  readonly planned: PlanOutcome;
  readonly latchAfterPlan: string;
  readonly dstExistedAfterPlan: boolean;
  readonly latchAfterExecute: string;
  readonly offeredWhilePlanning: readonly string[];
  readonly offeredWhileExecuting: readonly string[];
  readonly toolCalls: readonly string[];
  readonly refusals: readonly string[];
  readonly src: string;
  readonly dst: string | null;
  readonly finalText: string;
  readonly roles: readonly string[];
}

async function walkthrough(
  folder: string,
  script: readonly ScriptedTurn[],
  lines: string[],
): Promise<Walkthrough> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'src.txt'), SOURCE);
  const provider = new ScriptedProvider({ turns: script });
  const agent = new PlanAgent({ provider, tools: fileTools(folder) });

  const messages: Message[] = [{ role: 'user', content: 'Copy src.txt to dst.txt' }];
  const planned = await agent.plan(messages);
  const latchAfterPlan = agent.latch.state;
  const dstExistedAfterPlan = existsSync(join(folder, 'dst.txt'));
  const phaseOneRequests = provider.requests.length;
  lines.push(`Plan: ${planned.plan ?? '(none)'}  [${planned.status}, with ${planned.submittedWith}]`);
  // The caller approves, out of band, on the same message array.
  messages.push({ role: 'user', content: 'Approved. Go ahead.' });
  const executed = await agent.execute(messages);

  const toolResults = messages.filter((m): m is ToolResultMessage => m.role === 'tool');
  const refusals = toolResults.filter((m) => m.isError === true).map((m) => m.content);
  const dstPath = join(folder, 'dst.txt');
  const dst = existsSync(dstPath) ? readFileSync(dstPath, 'utf8') : null;
  const offered = provider.requests.map((request) => request.tools.map((tool) => tool.name));
  for (const refusal of refusals) lines.push(`refused while planning: ${refusal}`);
  lines.push(
    `offered while planning: ${offered[0]!.join(', ')}; while executing: ${offered.at(-1)!.join(', ')}`,
    `latch: ${latchAfterPlan} after plan(), ${agent.latch.state} after execute()`,
    `dst.txt ${dst === SOURCE ? 'equals' : 'DIFFERS FROM'} src.txt; model: ${executed.text}`,
  );
  return {
    planned,
    latchAfterPlan,
    dstExistedAfterPlan,
    latchAfterExecute: agent.latch.state,
    offeredWhilePlanning: offered[phaseOneRequests - 1]!,
    offeredWhileExecuting: offered.at(-1)!,
    toolCalls: toolResults.map((m) => m.name),
    refusals,
    src: SOURCE,
    dst,
    finalText: executed.text,
    roles: messages.map((m) => m.role),
  };
}

async function run(options?: ExampleOptions): Promise<ExampleOutcome> {
  const workDir = workDirOf(options, SEED);
  const lines: string[] = ['-- the plan is a plain-text answer'];
  const plainText = await walkthrough(join(workDir, 'plain-text'), PLAIN_TEXT, lines);
  lines.push('-- the plan is submitted with exit_plan and no arguments');
  const exitPlan = await walkthrough(join(workDir, 'exit-plan'), EXIT_PLAN, lines);
  return { lines, facts: { plainText, exitPlan } };
}

export const example: Example = {
  seed: SEED,
  title: "mini-claw-code: PlanAgent's plan(), the caller's approval, execute(): the copy walkthrough",
  run,
};
