/**
 * The public surface, name by name: each entry point's value exports, sorted. A name added or
 * removed fails here, so that a change to the API is made on purpose (and docs/library.md
 * follows it). No value has two homes, and package.json exports exactly these entry points.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Entry = readonly [
  subpath: string,
  /** Its module under src/ (and dist/src/), without the extension. */
  module: string,
  load: () => Promise<Record<string, unknown>>,
  names: readonly string[],
];

const ENTRIES: readonly Entry[] = [
  [
    'planmode',
    'index',
    () => import('../src/index.js'),
    [
      'ApprovalRejectedError',
      'BRANCH_KEY',
      'DEFAULT_LIMITS',
      'DIAGNOSTIC_CODES',
      'EndLoopSignal',
      'JournalError',
      'Limiter',
      'MAX_WORKFLOW_DEPTH',
      'SessionError',
      'McpServerError',
      'MissingDependencyError',
      'ModelProviderError',
      'PermissionDeniedError',
      'PlanAlreadyExecutedError',
      'PlanError',
      'PlanStoreError',
      'PlanTextReader',
      'PlanModeTransitionError',
      'PlanValidationError',
      'PlanExplainer',
      'RedisConnectionError',
      'RemoteCallError',
      'RunCancelledError',
      'SIMULATION_CODES',
      'streamPlanText',
      'TOOL_ERROR_CODES',
      'ToolDefinitionError',
      'ToolExecutionError',
      'ToolRegistry',
      'ToolTimeoutError',
      'ToolsFileError',
      'UnknownCallError',
      'WorkflowCallError',
      'branch',
      'compile',
      'createLimiter',
      'explainCall',
      'defineTool',
      'endLoop',
      'isApprovalRejectedError',
      'isBranchValue',
      'isEndLoopSignal',
      'isJournalError',
      'isLimiter',
      'isSessionError',
      'isMcpServerError',
      'isMissingDependencyError',
      'isModelProviderError',
      'isPermissionDeniedError',
      'isPlanAlreadyExecutedError',
      'isPlanError',
      'isPlanModeTransitionError',
      'isPlanStoreError',
      'isPlanValidationError',
      'isRedisConnectionError',
      'isRemoteCallError',
      'isRunCancelledError',
      'isToolDefinitionError',
      'isToolExecutionError',
      'isToolTimeoutError',
      'isToolsFileError',
      'isUnknownCallError',
      'isWorkflowCallError',
      'loadToolsFile',
      'parseContext',
      'parsePlan',
      'planSchema',
      'resolveLimits',
      'run',
      'simulate',
      'startRun',
      'toolsFromManifest',
    ],
  ],
  [
    'planmode/report',
    'report/index',
    () => import('../src/report/index.js'),
    [
      'REPORT_DIRECTIONS',
      'REPORT_LAYOUTS',
      'REPORT_STATUSES',
      'STATUS_STYLES',
      'renderReport',
      'toDot',
      'toGraphJson',
      'toGraphlib',
      'toMermaid',
    ],
  ],
  [
    'planmode/agent',
    'agent/index',
    () => import('../src/agent/index.js'),
    [
      'ANTHROPIC_DEFAULT_MAX_TOKENS',
      'AnthropicProvider',
      'ConversationTooLargeError',
      'DEFAULT_BUDGET',
      'DEFAULT_MAX_SESSION_BYTES',
      'SESSION_SNAPSHOT_VERSION',
      'definitionDigest',
      'fileSession',
      'readSnapshot',
      'DEFAULT_MAX_CONVERSATION_BYTES',
      'DEFAULT_MAX_REPLY_BYTES',
      'DEFAULT_MAX_RESPONSE_BYTES',
      'DEFAULT_MAX_TOOL_CALLS_PER_TURN',
      'DEFAULT_MAX_PLAN_LENGTH',
      'DEFAULT_PLANS_DIR',
      'DEFAULT_MAX_LIST_KEYS',
      'DEFAULT_MAX_VALUE_BYTES',
      'DEFAULT_REDIS_STORE_PREFIX',
      'LocalFolderStore',
      'MAX_STORE_KEY_LENGTH',
      'MemoryPlanStore',
      'RedisPlanStore',
      'SNAPSHOT_KEY',
      'TODOS_KEY',
      'checkStoreKey',
      'EXIT_PLAN_TOOL',
      'LATENT_PROMPT',
      'MAX_APPROVAL_ROUNDS',
      'MAX_GOAL_LENGTH',
      'MAX_TODOS',
      'MAX_TODOS_CEILING',
      'MAX_TODO_CONTENT',
      'OpenAICompatibleProvider',
      'PERMISSION_BEHAVIORS',
      'PERMISSION_MODES',
      'PLANNED_TODO_STATUSES',
      'PLANNING_PROMPT',
      'PLAN_MODE_ADVICE',
      'PLAN_MODE_STATES',
      'PLAN_TOOL_NAMES',
      'PROVIDER_NAMES',
      'PermissionPolicy',
      'PlanAgent',
      'PlanFile',
      'PlanMode',
      'PlanModeContext',
      'PlanModePolicy',
      'RESULTS_SHOWN_CHARS',
      'RESULT_SHOWN_CHARS',
      'ReplyTooLargeError',
      'SOLVE_PROMPT',
      'ScriptedProvider',
      'TODO_EXECUTOR_PROMPT',
      'TODO_PLANNER_PROMPT',
      'TODO_PLAN_DEFAULTS',
      'TODO_PLAN_HOOK_NAMES',
      'TODO_PLAN_MESSAGE_TYPES',
      'TODO_PLAN_STATES',
      'TODO_REFLECTOR_PROMPT',
      'TODO_REMINDER_HEADING',
      'TODO_STATUSES',
      'TodoList',
      'TodoPlan',
      'ToolClassifier',
      'TooManyToolCallsError',
      'complete',
      'createProvider',
      'guardTools',
      'isConversationTooLargeError',
      'isPermissionChecker',
      'isPlanModeLatch',
      'isPlanModeSetup',
      'isPlanToolName',
      'isReplyTooLargeError',
      'isTooManyToolCallsError',
      'planModeSnapshot',
      'planTodos',
      'planTools',
      'readPlanModeSnapshot',
      'readTodos',
      'restorePlanMode',
      'setupPlanMode',
      'solutionSchema',
      'strictestOf',
      'todoReminder',
      'todoReminderText',
    ],
  ],
  [
    'planmode/adapters',
    'adapters/index',
    () => import('../src/adapters/index.js'),
    ['connectMcpServer', 'fromAiSdkTools', 'fromMcpClient', 'fromOpenAIAgentsTools'],
  ],
  [
    'planmode/import',
    'import/index',
    () => import('../src/import/index.js'),
    [
      'IMPORT_CODES',
      'IMPORT_DEFAULTS',
      'IMPORT_FORMATS',
      'MOCK_DEFAULTS',
      'DEFAULT_MAX_FILE_BYTES',
      'EVAL_DEFAULTS',
      'MAX_SAMPLES',
      'scoreDirs',
      'scorePlans',
      'importPlans',
      'mockLatencyMs',
      'mockTools',
    ],
  ],
  [
    'planmode/serve',
    'serve/index',
    () => import('../src/serve/index.js'),
    ['DEFAULT_MAX_BODY_BYTES', 'SERVE_ERROR_CODES', 'isLoopbackHost', 'startServer'],
  ],
  [
    'planmode/distributed',
    'distributed/index',
    () => import('../src/distributed/index.js'),
    ['DEFAULT_QUEUE', 'DEFAULT_REDIS_URL', 'createDispatcher', 'jobIdOf', 'startWorker'],
  ],
];

/** The names a module exports at run time (types leave none), in code-unit order. */
function valueNames(module: Record<string, unknown>): string[] {
  return Object.keys(module).sort();
}

describe('the exports of each entry point', () => {
  it.each(ENTRIES)('%s exports exactly its documented values', async (_subpath, _module, load, names) => {
    expect(valueNames(await load())).toEqual([...names].sort());
  });

  it('exports no value from two entry points', async () => {
    const homes = new Map<string, string[]>();
    for (const [subpath, , load] of ENTRIES) {
      for (const name of valueNames(await load())) homes.set(name, [...(homes.get(name) ?? []), subpath]);
    }
    const twice = [...homes].filter(([, where]) => where.length > 1);
    expect(twice).toEqual([]);
  });

  it('package.json maps each entry point to its module, and nothing else but the schemas', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const subpaths = ENTRIES.map(([subpath]) => subpath.replace(/^planmode/, '.'));
    expect(Object.keys(manifest.exports).sort()).toEqual(
      [...subpaths, './package.json', './schemas/*'].sort(),
    );
    for (const [subpath, module] of ENTRIES) {
      expect(manifest.exports[subpath.replace(/^planmode/, '.')]).toEqual({
        types: `./dist/src/${module}.d.ts`,
        import: `./dist/src/${module}.js`,
        // require() of the same ES module (Node 20.19+), for CommonJS callers.
        default: `./dist/src/${module}.js`,
      });
    }
  });

  it('the model SDKs, the queue, the MCP SDK and the OpenTelemetry API are optional peers, pinned to the tested versions', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      devDependencies: Record<string, string>;
    };
    const optional = [
      '@anthropic-ai/sdk',
      '@modelcontextprotocol/sdk',
      '@opentelemetry/api',
      'bullmq',
      'ioredis',
      'openai',
    ];
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(optional);
    for (const name of optional) {
      expect(manifest.dependencies[name], name).toBeUndefined();
      expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true });
      // Pinned, and the version the tests run with.
      expect(manifest.peerDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(manifest.devDependencies[name], name).toBe(manifest.peerDependencies[name]);
    }
  });
});
