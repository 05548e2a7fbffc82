/**
 * The rest of the public API's options objects: an unknown key is a TypeError naming it (and
 * listing the options), and an obviously bad value (a wrong type, a negative count) is a
 * TypeError naming the option and the value. The plan-mode and todo-plan specs are data (their
 * files cannot import the interfaces without a cycle): here each is held to its interface.
 */
import { describe, expect, it } from 'vitest';
import {
  fromAiSdkTools,
  fromMcpClient,
  fromOpenAIAgentsTools,
  connectMcpServer,
} from '../src/adapters/index.js';
import {
  complete,
  fileSession,
  guardTools,
  PermissionPolicy,
  PlanAgent,
  PlanMode,
  PlanModeContext,
  PlanModePolicy,
  planTodos,
  planTools,
  readPlanModeSnapshot,
  ScriptedProvider,
  setupPlanMode,
  solutionSchema,
  ToolClassifier,
  type GuardToolsOptions,
  type PlanModeChildOptions,
  type PlanModeContextOptions,
  type PlanModeOptions,
  type PlanModePolicyOptions,
  type PlanModeSetupOptions,
  type PlanToolsOptions,
  type ReadPlanModeSnapshotOptions,
  type TodoPlanOptions,
} from '../src/agent/index.js';
import type { PlanFileReadOptions } from '../src/agent/plan-mode/plan-file.js';
import * as planModeSpecs from '../src/agent/plan-mode/option-specs.js';
import { TODO_PLAN_OPTIONS } from '../src/agent/todo-plan/option-specs.js';
import { createDispatcher, startWorker } from '../src/distributed/index.js';
import { importPlans, mockTools, scoreDirs, scorePlans } from '../src/import/index.js';
import {
  compile,
  createLimiter,
  explainCall,
  loadToolsFile,
  parseContext,
  parsePlan,
  PlanExplainer,
  planSchema,
  PlanTextReader,
  streamPlanText,
} from '../src/index.js';
import { renderReport, toDot, toGraphJson, toMermaid } from '../src/report/index.js';

/** true when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The data-only specs list exactly their interface's keys: a key missing or extra does not compile.
const specsMatch: Same<
  [
    keyof typeof planModeSpecs.PLAN_MODE_OPTIONS,
    keyof typeof planModeSpecs.PLAN_MODE_CONTEXT_OPTIONS,
    keyof typeof planModeSpecs.PLAN_MODE_CHILD_OPTIONS,
    keyof typeof planModeSpecs.PLAN_MODE_POLICY_OPTIONS,
    keyof typeof planModeSpecs.GUARD_TOOLS_OPTIONS,
    keyof typeof planModeSpecs.PLAN_TOOLS_OPTIONS,
    keyof typeof planModeSpecs.PLAN_MODE_SETUP_OPTIONS,
    keyof typeof planModeSpecs.READ_PLAN_MODE_SNAPSHOT_OPTIONS,
    keyof typeof planModeSpecs.PLAN_FILE_READ_OPTIONS,
    keyof typeof TODO_PLAN_OPTIONS,
  ],
  [
    keyof PlanModeOptions,
    keyof PlanModeContextOptions,
    keyof PlanModeChildOptions,
    keyof PlanModePolicyOptions,
    keyof GuardToolsOptions,
    keyof PlanToolsOptions,
    keyof PlanModeSetupOptions,
    keyof ReadPlanModeSnapshotOptions,
    keyof PlanFileReadOptions,
    keyof TodoPlanOptions,
  ]
> = true;

const tools = [{ name: 'noop', execute: () => 1 }];
const plan = compile([{ _tool: 'noop', _outputPath: '†state.x' }], { tools }).plan!;
const provider = new ScriptedProvider({ turns: [] });
const typo = { concurency: 4 } as unknown as Record<string, never>;
const latch = new PlanMode();
const policy = new PlanModePolicy(new PermissionPolicy({ mode: 'bypassPermissions' }), latch);
const mcpClient = { listTools: async () => ({ tools: [] }), callTool: async () => ({}) };

/** An approval callback (never asked: the options are refused first). */
const approve = (() => ({ approved: true })) as never;

const UNKNOWN = /unknown option "concurency"; the options are /;

describe('unknown options are refused by name, in every other entry point', () => {
  const sync: [string, () => unknown][] = [
    ['createLimiter', () => createLimiter(typo)],
    ['explainCall', () => explainCall(plan, '0', typo)],
    ['PlanExplainer.explain', () => new PlanExplainer(plan).explain('0', typo)],
    ['toMermaid', () => toMermaid(plan, typo)],
    ['toDot', () => toDot(plan, typo)],
    ['toGraphJson', () => toGraphJson(plan, typo)],
    ['renderReport', () => renderReport({ plan, simulation: undefined } as never, typo)],
    ['mockTools', () => mockTools({ tools: [] }, typo)],
    ['importPlans', () => importPlans('nestful', '[]', typo)],
    ['parsePlan', () => parsePlan('[]', typo)],
    ['parseContext', () => parseContext('[]', typo)],
    ['PlanTextReader', () => new PlanTextReader(typo)],
    ['streamPlanText', () => streamPlanText((async function* () {})(), typo)],
    ['planSchema', () => planSchema([], typo)],
    ['solutionSchema', () => solutionSchema([], typo)],
    ['fileSession', () => fileSession('session.json', typo)],
    ['PlanAgent.child', () => new PlanAgent({ provider, tools }).child(typo)],
    ['PermissionPolicy', () => new PermissionPolicy(typo)],
    ['ToolClassifier', () => new ToolClassifier(typo)],
    ['PlanModePolicy', () => new PlanModePolicy(new PermissionPolicy(), latch, typo)],
    ['PlanMode', () => new PlanMode(typo)],
    ['PlanModeContext', () => new PlanModeContext({ latch, policy, ...typo })],
    ['PlanModeContext.child', () => new PlanModeContext({ latch, policy }).child(typo)],
    ['guardTools', () => guardTools([], policy, typo)],
    ['planTools', () => planTools({ latch, approve, ...typo })],
    ['setupPlanMode', () => setupPlanMode({ tools: [], approve, ...typo })],
    ['readPlanModeSnapshot', () => readPlanModeSnapshot({}, typo)],
  ];
  for (const [name, call] of sync) {
    it(name, () => {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(UNKNOWN);
    });
  }

  const async: [string, () => Promise<unknown>][] = [
    ['planTodos', () => planTodos('Tidy up', { provider, tools, ...typo })],
    ['scorePlans', () => scorePlans({ gold: {}, predicted: {}, ...typo })],
    ['scoreDirs', () => scoreDirs({ gold: 'gold', predicted: 'predicted', ...typo })],
    ['createDispatcher', () => createDispatcher(typo)],
    ['startWorker', () => startWorker({ tools, ...typo })],
    ['connectMcpServer', () => connectMcpServer('node server.js', typo)],
    ['fromAiSdkTools', () => fromAiSdkTools({}, typo)],
    ['fromOpenAIAgentsTools', () => fromOpenAIAgentsTools([], typo)],
    ['fromMcpClient', () => fromMcpClient(mcpClient, typo)],
    ['loadToolsFile', () => loadToolsFile('tools.json', typo)],
    ['complete', () => complete(provider, { messages: [], tools: [] }, typo)],
  ];
  for (const [name, call] of async) {
    it(name, async () => {
      await expect(call()).rejects.toThrow(TypeError);
      await expect(call()).rejects.toThrow(UNKNOWN);
    });
  }

  it('names the entry point in the message', () => {
    expect(() => toMermaid(plan, typo)).toThrow(
      /^toMermaid: unknown option "concurency"; the options are result, workflowDepth, maxWorkflowCalls$/,
    );
    expect(() => setupPlanMode({ tools: [], approve, ...typo })).toThrow(/^setupPlanMode: unknown option/);
  });

  it('holds the plan-mode and todo-plan specs to their interfaces (checked when this file compiles)', () => {
    expect(specsMatch).toBe(true);
  });
});

describe('obviously bad option values are refused by name', () => {
  const cases: [string, () => unknown, RegExp][] = [
    [
      'a negative count',
      () => toMermaid(plan, { workflowDepth: -1 }),
      /^toMermaid: option workflowDepth must be a number >= 0, not number -1$/,
    ],
    [
      'a count that is text',
      () => toDot(plan, { maxWorkflowCalls: '5' as never }),
      /option maxWorkflowCalls must be a number >= 0, not "5"/,
    ],
    [
      'a string that is a number',
      () => parsePlan('[]', { source: 3 as never }),
      /^parsePlan: option source must be a string, not number 3$/,
    ],
    [
      'a choice not offered',
      () => new PlanTextReader({ shape: 'calls' as never }),
      /option shape must be one of "any", "solution", not "calls"/,
    ],
    [
      'a name that is not text',
      () => readPlanModeSnapshot({}, { where: 3 as never }),
      /^readPlanModeSnapshot: option where must be a string, not number 3$/,
    ],
    [
      'a flag that is text',
      () => fileSession('s.json', { allowToolChanges: 1 as never }),
      /option allowToolChanges must be a boolean/,
    ],
    [
      'a negative child turn count',
      () => new PlanAgent({ provider, tools }).child({ maxTurns: -2 }),
      /PlanAgent.child: option maxTurns must be a number >= 0/,
    ],
    [
      'options that are not an object',
      () => toMermaid(plan, 'fast' as never),
      /^toMermaid: options must be an object, not "fast"$/,
    ],
  ];
  for (const [what, call, message] of cases) {
    it(what, () => {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(message);
    });
  }

  it('a callback that is not a function (createDispatcher onError, fromAiSdkTools messages)', async () => {
    await expect(createDispatcher({ onError: 3 as never })).rejects.toThrow(
      /createDispatcher: option onError must be a function, not number 3/,
    );
    await expect(fromAiSdkTools({}, { messages: [] as never })).rejects.toThrow(
      /option messages must be a function, not an array/,
    );
  });

  it('an option left undefined is an option left out', () => {
    expect(toMermaid(plan, { workflowDepth: undefined })).toContain('flowchart');
  });
});
