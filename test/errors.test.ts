/**
 * planmode's errors: one module, a brand that another copy of the package recognises, exact
 * guards that other libraries' look-alike errors do not pass, and ToolExecutionError's codes.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolError as AnthropicToolError } from '@anthropic-ai/sdk/lib/tools/ToolError';
import {
  ToolCallError as AgentsToolCallError,
  ToolTimeoutError as AgentsToolTimeoutError,
  UserError as AgentsUserError,
} from '@openai/agents';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import * as errors from '../src/errors.js';
import { branch, run } from '../src/run/index.js';
import type { Tool } from '../src/tools/tool.js';
import { RemoteCallError as RemoteCallErrorFromOldPath } from '../src/distributed/remote-call-error.js';
import { RedisConnectionError as RedisConnectionErrorFromOldPath } from '../src/distributed/connection-error.js';
import { JournalError as JournalErrorFromOldPath } from '../src/run/journal/journal-error.js';
import { McpServerError as McpServerErrorFromOldPath } from '../src/adapters/mcp-stdio.js';

type ErrorsModule = typeof errors;

/** One of each planmode error, made by the given copy of the module. */
function oneOfEach(m: ErrorsModule): Record<string, Error> {
  const call = { call: 'c1', tool: 'fetch' };
  return {
    PlanError: new m.PlanError('base'),
    PlanValidationError: new m.PlanValidationError([]),
    ToolDefinitionError: new m.ToolDefinitionError(['bad name']),
    ToolsFileError: new m.ToolsFileError('missing', { file: 'tools.json' }),
    ToolExecutionError: new m.ToolExecutionError('bad args', { ...call, code: 'INVALID_ARGUMENTS' }),
    ToolTimeoutError: new m.ToolTimeoutError(10, call),
    RunCancelledError: new m.RunCancelledError(),
    ModelProviderError: new m.ModelProviderError('no', { provider: 'openai:gpt-4o', status: 401 }),
    PermissionDeniedError: new m.PermissionDeniedError('edit', 'denied'),
    ApprovalRejectedError: new m.ApprovalRejectedError('the plan'),
    PlanModeTransitionError: new m.PlanModeTransitionError('exit', 'off'),
    PlanAlreadyExecutedError: new m.PlanAlreadyExecutedError('completed'),
    MissingDependencyError: new m.MissingDependencyError({
      packageName: 'bullmq',
      feature: 'plan run --redis',
      version: '5.0.0',
    }),
    RedisConnectionError: new m.RedisConnectionError('redis://localhost:1', { cause: new Error('refused') }),
    RemoteCallError: new m.RemoteCallError(
      { message: 'declined', code: 'DECLINED' },
      { call: 'c', job: 'r.c' },
    ),
    JournalError: new m.JournalError('unreadable', { path: '/tmp/j' }),
    McpServerError: new m.McpServerError('srv', 'exited'),
  };
}

/** Each guard, by the name of the error it is for. */
function guards(m: ErrorsModule): Record<string, (value: unknown) => boolean> {
  return {
    PlanValidationError: m.isPlanValidationError,
    ToolDefinitionError: m.isToolDefinitionError,
    ToolsFileError: m.isToolsFileError,
    ToolExecutionError: m.isToolExecutionError,
    ToolTimeoutError: m.isToolTimeoutError,
    RunCancelledError: m.isRunCancelledError,
    ModelProviderError: m.isModelProviderError,
    PermissionDeniedError: m.isPermissionDeniedError,
    ApprovalRejectedError: m.isApprovalRejectedError,
    PlanModeTransitionError: m.isPlanModeTransitionError,
    PlanAlreadyExecutedError: m.isPlanAlreadyExecutedError,
    MissingDependencyError: m.isMissingDependencyError,
    RedisConnectionError: m.isRedisConnectionError,
    RemoteCallError: m.isRemoteCallError,
    JournalError: m.isJournalError,
    McpServerError: m.isMcpServerError,
  };
}

/** The names a guard accepts: its own, and ToolExecutionError's subclass. */
const accepts = (guard: string, error: string) =>
  guard === error || (guard === 'ToolExecutionError' && error === 'ToolTimeoutError');

let dir: string;
let copy: ErrorsModule;

beforeAll(async () => {
  // A second copy of the module, as two installed versions of planmode would have: the same
  // source compiled apart and loaded from another file, so its classes are other classes.
  // errors.ts gathers the classes of errors/, so the copy is that folder and that file.
  dir = mkdtempSync(join(tmpdir(), 'planmode-errors-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  mkdirSync(join(dir, 'errors'));
  const modules = [
    'errors',
    ...readdirSync(new URL('../src/errors', import.meta.url)).map((f) => `errors/${f.replace(/\.ts$/, '')}`),
  ];
  for (const module of modules) {
    const source = readFileSync(new URL(`../src/${module}.ts`, import.meta.url), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(dir, `${module}.js`), outputText);
  }
  copy = (await import(pathToFileURL(join(dir, 'errors.js')).href)) as ErrorsModule;
}, 30_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the brand', () => {
  it('the second copy is another module: its errors are not instances of this copy’s classes', () => {
    expect(copy.PlanError).not.toBe(errors.PlanError);
    expect(new copy.ToolTimeoutError(5, { call: 'c', tool: 't' })).not.toBeInstanceOf(errors.PlanError);
  });

  it('isPlanError is true for every planmode error, from this copy and from the other', () => {
    for (const m of [errors, copy]) {
      for (const [name, error] of Object.entries(oneOfEach(m))) {
        expect(error.name, name).toBe(name);
        expect(errors.isPlanError(error), name).toBe(true);
        expect(copy.isPlanError(error), name).toBe(true);
      }
    }
  });

  it('every guard is exact, across copies: true for its own error, false for every other', () => {
    for (const made of [errors, copy]) {
      const made_ = oneOfEach(made);
      for (const checking of [errors, copy]) {
        for (const [guardName, guard] of Object.entries(guards(checking))) {
          for (const [errorName, error] of Object.entries(made_)) {
            expect(guard(error), `${guardName} on ${errorName}`).toBe(accepts(guardName, errorName));
          }
        }
      }
    }
  });

  it('the brand is Symbol.for("planmode.error"), on the prototype, not enumerable', () => {
    const error = new errors.ToolExecutionError('x', { call: 'c', tool: 't', code: 'LIMIT' });
    const brand = Symbol.for('planmode.error');
    expect((error as unknown as Record<symbol, unknown>)[brand]).toBe(true);
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(Object.keys(error)).not.toContain(brand);
  });
});

describe('other libraries’ errors are not planmode errors', () => {
  const lookAlikes = (): Record<string, Error> => ({
    '@openai/agents ToolTimeoutError': new AgentsToolTimeoutError({ toolName: 'fetch', timeoutMs: 5 }),
    '@openai/agents ToolCallError': new AgentsToolCallError('failed', new Error('inner')),
    '@openai/agents UserError': new AgentsUserError('bad'),
    '@anthropic-ai/sdk ToolError': new AnthropicToolError('tool failed'),
    'an Error named PlanValidationError': Object.assign(new Error('x'), { name: 'PlanValidationError' }),
    'an Error named ToolExecutionError with a code': Object.assign(new Error('x'), {
      name: 'ToolExecutionError',
      code: 'TIMEOUT',
    }),
    'a PlanningError (the old prefix pattern matched it)': Object.assign(new Error('x'), {
      name: 'PlanningError',
    }),
    'a RunnerError': Object.assign(new Error('x'), { name: 'RunnerError' }),
  });

  it('isPlanError and every guard say false, in both copies', () => {
    const names = Object.entries(lookAlikes()).map(([what, e]) => `${what}: ${e.name}`);
    expect(names).toContain('@openai/agents ToolTimeoutError: ToolTimeoutError');
    expect(names).toContain('@anthropic-ai/sdk ToolError: ToolError');
    for (const m of [errors, copy]) {
      for (const [what, error] of Object.entries(lookAlikes())) {
        expect(m.isPlanError(error), what).toBe(false);
        for (const [guardName, guard] of Object.entries(guards(m))) {
          expect(guard(error), `${guardName} on ${what}`).toBe(false);
        }
      }
    }
  });

  it('a guard never throws: primitives, null, a revoked proxy, a throwing getter', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const hostile = Object.defineProperty({}, Symbol.for('planmode.error'), {
      get() {
        throw new Error('no');
      },
    });
    for (const value of [undefined, null, 0, 'PlanError', Symbol('x'), proxy, hostile, () => {}]) {
      expect(errors.isPlanError(value)).toBe(false);
      expect(errors.isToolExecutionError(value)).toBe(false);
    }
  });
});

describe('one module', () => {
  it('the errors that lived elsewhere are the same classes at their old paths and in the root', () => {
    expect(RedisConnectionErrorFromOldPath).toBe(errors.RedisConnectionError);
    expect(RemoteCallErrorFromOldPath).toBe(errors.RemoteCallError);
    expect(JournalErrorFromOldPath).toBe(errors.JournalError);
    expect(McpServerErrorFromOldPath).toBe(errors.McpServerError);
  });

  it('MissingDependencyError names the feature, the package and the install command', () => {
    const error = new errors.MissingDependencyError({
      packageName: '@modelcontextprotocol/sdk',
      feature: 'plan agent --mcp',
      version: '1.2.3',
    });
    expect(error.message).toBe(
      "plan agent --mcp needs the '@modelcontextprotocol/sdk' package: npm install @modelcontextprotocol/sdk@1.2.3",
    );
    expect(error.installCommand).toBe('npm install @modelcontextprotocol/sdk@1.2.3');
    expect(error.packageName).toBe('@modelcontextprotocol/sdk');
    expect(error.feature).toBe('plan agent --mcp');
  });
});

describe('ToolErrorCode', () => {
  it('is the type of ToolExecutionError.code and of TOOL_ERROR_CODES’ members', () => {
    expectTypeOf<errors.ToolExecutionError['code']>().toEqualTypeOf<errors.ToolErrorCode>();
    expectTypeOf<(typeof errors.TOOL_ERROR_CODES)[number]>().toEqualTypeOf<errors.ToolErrorCode>();
    expect(new Set(errors.TOOL_ERROR_CODES).size).toBe(errors.TOOL_ERROR_CODES.length);
  });

  /** A tool that never answers: its call ends only by its timeout. */
  const hang: Tool = {
    name: 'hang',
    execute: (_args, { abortSignal }) =>
      new Promise((_resolve, reject) => {
        abortSignal.addEventListener('abort', () => reject(abortSignal.reason as Error));
      }),
  };
  const echo: Tool = { name: 'echo', execute: async (args) => args.value };

  const cases: Record<errors.ToolErrorCode, (() => ReturnType<typeof run>) | null> = {
    // Only a worker meets a call to a tool it does not have: compile refuses it locally.
    UNKNOWN_TOOL: null,
    NOT_EXECUTABLE: () => run([{ _tool: 'inert' }], { tools: [{ name: 'inert' }] }),
    // A literal argument of the wrong type is refused by compile; a value made by the run is not.
    INVALID_ARGUMENTS: () =>
      run(
        [
          { _tool: 'echo', value: 'five', _outputPath: '†state.n' },
          { _id: 'typed', _tool: 'typed', n: '†state.n' },
        ],
        {
          tools: [
            echo,
            {
              name: 'typed',
              execute: async () => 1,
              inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
            },
          ],
        },
      ),
    INVALID_OUTPUT: () =>
      run([{ _tool: 'echo', value: 'text', _outputPath: '†state.x' }], {
        tools: [{ ...echo, outputSchema: { type: 'number' } }],
      }),
    BAD_BRANCH: () =>
      run([{ _tool: 'pick', _outputPath: '†state.a || †state.b' }], {
        tools: [{ name: 'pick', execute: async () => branch(5, 'x') }],
      }),
    NO_MODEL: () =>
      run(
        { type: 'plan', mode: 'lazy', plan: [{ _tool: 'think', _outputPath: '†state.a' }] },
        {
          tools: [{ name: 'think', latent: true }],
          approve: () => true,
        },
      ),
    LIMIT: () =>
      run([{ _tool: 'big', _outputPath: '†state.x' }], {
        tools: [{ name: 'big', execute: async () => 'x'.repeat(1_000) }],
        limits: { maxTextLength: 500 },
      }),
    STATE_CONFLICT: () =>
      run([{ _tool: 'echo', value: 1, _outputPath: '†state.list.name' }], {
        tools: [echo],
        state: { list: [1, 2] },
      }),
    TIMEOUT: () => run([{ _tool: 'hang' }], { tools: [hang], timeoutMs: 1 }),
  };

  for (const [code, make] of Object.entries(cases)) {
    it.skipIf(make === null)(`a run fails a call with ${code}, a member of TOOL_ERROR_CODES`, async () => {
      const result = await make!();
      const error = result.calls.at(-1)!.error;
      expect(error?.code).toBe(code);
      expect(errors.TOOL_ERROR_CODES).toContain(error?.code);
    });
  }
});
