/**
 * Only a tool's own error is handled, and only where an error alternative is declared (the
 * tool's `errorBranch: true`, or the plan's `_onError`). Every call below that fails with a
 * contract error has a declared error alternative, so routing it there would be the old mistake.
 */
import type { PlanInput } from '../../src/language/document.js';
import { tool as aiSdkTool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromAiSdkTools, fromMcpClient } from '../../src/adapters/index.js';
import { guardTools } from '../../src/agent/index.js';
import { compile } from '../../src/compile/index.js';
import { decodeError, encodeError } from '../../src/distributed/wire.js';
import { isContractError } from '../../src/run/call/error-origin.js';
import {
  branch,
  RemoteCallError,
  run,
  type RunOptions,
  type RunResult,
  type Tool,
  ToolTimeoutError,
} from '../../src/index.js';

type Args = Record<string, unknown>;

const declined = () => Object.assign(new Error('Your card was declined.'), { code: 'card_declined' });

/**
 * A call to `pay` with two alternatives, and a reader of each. The error alternative is
 * declared by the plan (`_onError`) unless `byPlan` is false.
 */
function payPlan(extra: Args = {}, byPlan = true) {
  return [
    {
      _id: 'pay',
      _tool: 'pay',
      _outputPath: '†state.receipt || †state.error',
      ...(byPlan && { _onError: '†state.error' }),
      ...extra,
    },
    { _id: 'confirm', _tool: 'note', receipt: '†state.receipt' },
    { _id: 'tell', _tool: 'note', error: '†state.error' },
  ];
}

const note: Tool = { name: 'note', execute: () => 'noted' };

/**
 * Runs `pay` with its error alternative declared both ways, by the tool's `errorBranch: true`
 * and by the plan's `_onError`, and expects each run to fail with the contract error `code`
 * (then runs `also` on it).
 */
async function expectContractFailures(
  pay: Tool,
  code: string,
  options: Omit<RunOptions, 'tools'> = {},
  document: (calls: Args[]) => PlanInput = (calls) => calls,
  also: (result: RunResult) => void = () => {},
): Promise<void> {
  const byTool = await run(document(payPlan({}, false)), {
    ...options,
    tools: [{ ...pay, errorBranch: true }, note],
  });
  expectContractFailure(byTool, code);
  also(byTool);
  const byPlan = await run(document(payPlan()), { ...options, tools: [pay, note] });
  expectContractFailure(byPlan, code);
  also(byPlan);
}

function statuses(result: RunResult): Record<string, string> {
  return Object.fromEntries(result.calls.map((c) => [c.id, c.status]));
}

/** The call failed with `code`, unhandled: nothing written, its readers upstream_failed, the run failed. */
function expectContractFailure(result: RunResult, code: string): void {
  expect(result.calls[0]).toMatchObject({ status: 'failed', handled: false, branch: null, error: { code } });
  expect(result.state).not.toHaveProperty('error');
  expect(statuses(result)).toMatchObject({ confirm: 'upstream_failed', tell: 'upstream_failed' });
  expect(result.status).toBe('failed');
}

describe('contract errors are never handled, even with an error alternative declared', () => {
  it('INVALID_OUTPUT: the result fails the outputSchema', async () => {
    const pay: Tool = { name: 'pay', outputSchema: { type: 'object' }, execute: () => 'not an object' };
    await expectContractFailures(pay, 'INVALID_OUTPUT');
  });

  it('INVALID_OUTPUT: the result is not JSON', async () => {
    const pay: Tool = { name: 'pay', execute: () => 10n };
    await expectContractFailures(pay, 'INVALID_OUTPUT');
  });

  it('INVALID_ARGUMENTS: the resolved arguments fail the inputSchema', async () => {
    const pay: Tool = {
      name: 'pay',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
      execute: () => 'never called',
    };
    // Compiled without the input (so its type is not known yet), run with a bad one.
    for (const [plan, tool] of [
      [payPlan({ amount: '†input.amount' }, false), { ...pay, errorBranch: true }],
      [payPlan({ amount: '†input.amount' }), pay],
    ] as const) {
      const compiled = compile(plan, { tools: [tool, note] }).plan!;
      const result = await run(compiled, { tools: [tool, note], input: { amount: 'fifty' } });
      expectContractFailure(result, 'INVALID_ARGUMENTS');
    }
  });

  it('NO_MODEL: a latent call with no latent function', async () => {
    const pay: Tool = { name: 'pay', latent: true };
    const lazy = (calls: Args[]) => ({ type: 'plan', mode: 'lazy', plan: calls });
    await expectContractFailures(pay, 'NO_MODEL', { approve: () => true }, lazy);
  });

  it('BAD_BRANCH: a branch value naming no alternative', async () => {
    const pay: Tool = { name: 'pay', execute: () => branch(7, 'x') };
    await expectContractFailures(pay, 'BAD_BRANCH');
  });

  it('BAD_BRANCH: a branch value naming the error alternative, which holds only errors', async () => {
    for (const named of [1, '†state.error']) {
      const pay: Tool = { name: 'pay', execute: () => branch(named, { message: 'looks like an error' }) };
      await expectContractFailures(pay, 'BAD_BRANCH', {}, undefined, (result) =>
        expect(result.calls[0]!.error!.message).toContain('the error alternative'),
      );
    }
  });

  it("TIMEOUT: the tool's timeoutMs, whether the attempt is abandoned or the tool rejects with its signal's reason", async () => {
    const hangs: Tool = { name: 'pay', timeoutMs: 5, execute: () => new Promise(() => {}) };
    await expectContractFailures(hangs, 'TIMEOUT');
    const relays: Tool = {
      name: 'pay',
      timeoutMs: 5,
      execute: (_args, { abortSignal }) =>
        new Promise((_resolve, reject) =>
          abortSignal.addEventListener('abort', () => reject(abortSignal.reason as Error)),
        ),
    };
    await expectContractFailures(relays, 'TIMEOUT');
  });

  it("TIMEOUT: the run's timeoutMs", async () => {
    const hangs: Tool = { name: 'pay', execute: () => new Promise(() => {}) };
    await expectContractFailures(hangs, 'TIMEOUT', { timeoutMs: 5 });
  });

  it('CANCELLED: a call cancelled while it runs ends cancelled, unhandled, and nothing is written', async () => {
    const controller = new AbortController();
    const pay: Tool = {
      name: 'pay',
      execute: (_args, { abortSignal }) =>
        new Promise((_resolve, reject) => {
          abortSignal.addEventListener('abort', () => reject(abortSignal.reason as Error));
          controller.abort();
        }),
    };
    const result = await run(payPlan(), { tools: [pay, note], signal: controller.signal });
    expect(result.calls[0]).toMatchObject({ status: 'cancelled', handled: false, branch: null });
    expect(result.state).toEqual({});
    expect(result.status).toBe('cancelled');
  });

  it('UNKNOWN_TOOL and NOT_EXECUTABLE: the run has no such tool, or no execute', async () => {
    const declared: Tool = { name: 'pay', errorBranch: true };
    const { plan } = compile(payPlan({}, false), { tools: [declared, note] });
    expect(plan!.calls[0]!.errorAlternative).toBe(1);
    expectContractFailure(await run(plan!, { tools: [note] }), 'UNKNOWN_TOOL');
    expectContractFailure(await run(plan!, { tools: [declared, note] }), 'NOT_EXECUTABLE');
  });

  it('LIMIT: a result past the limits', async () => {
    const pay: Tool = { name: 'pay', execute: () => 'x'.repeat(200) };
    await expectContractFailures(pay, 'LIMIT', { limits: { maxTextLength: 100 } });
  });

  it('STATE_CONFLICT: the output path writes a key into an array', async () => {
    const pay: Tool = { name: 'pay', errorBranch: true, execute: () => 'r-1' };
    const plan = [
      {
        _id: 'pay',
        _tool: 'pay',
        _outputPath: '†state.slot.receipt || †state.error',
      },
    ];
    const result = await run(plan, { tools: [pay], state: { slot: [] } });
    expect(result.calls[0]).toMatchObject({
      status: 'failed',
      handled: false,
      error: { code: 'STATE_CONFLICT' },
    });
    expect(result.state).toEqual({ slot: [] });
    expect(result.status).toBe('failed');
  });

  it('PERMISSION_DENIED: a guard refusing the call is not the tool failing', async () => {
    const pay: Tool = { name: 'pay', errorBranch: true, execute: () => 'r-1' };
    // A rule on the arguments: pay is offered, and refused when called.
    const guarded = guardTools([pay, note], {
      check: (name: string, args: unknown) =>
        name === 'pay' && args !== undefined
          ? { behavior: 'deny', reason: 'payments are off' }
          : { behavior: 'allow' },
    } as never);
    // Declared by the tool (errorBranch: true) and by the plan.
    expectContractFailure(await run(payPlan({}, false), { tools: guarded.tools() }), 'PERMISSION_DENIED');
    expectContractFailure(await run(payPlan(), { tools: guarded.tools() }), 'PERMISSION_DENIED');
  });

  it("REMOTE_FAILED and a worker's own errors: the dispatcher marks them as planmode's", () => {
    const lost = decodeError('job stalled more than allowable limit');
    expect(lost).toEqual({
      error: {
        message: 'the job failed in the queue: job stalled more than allowable limit',
        code: 'REMOTE_FAILED',
      },
      contract: true,
    });
    const timeout = { message: 'timed out after 5 ms', code: 'TIMEOUT' };
    expect(decodeError(encodeError(timeout, true))).toEqual({ error: timeout, contract: true });
    // A tool's own error crosses the queue as its own, whatever its code.
    expect(decodeError(encodeError(timeout))).toEqual({ error: timeout, contract: false });
  });

  it("a remote invoker's rejection is the tool's own, unless planmode made it", async () => {
    const pay: Tool = { name: 'pay', execute: () => 'never runs here' };
    const own = await run(payPlan(), {
      tools: [pay, note],
      remote: async (call) => {
        if (call.tool !== 'pay') return 'noted';
        throw new RemoteCallError({ message: 'declined', code: 'card_declined' }, { call: 'pay', job: 'j' });
      },
    });
    expect(own.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 1 });
    expect(own.status).toBe('succeeded');
  });
});

describe("a tool's own error goes only to a declared error alternative", () => {
  it('errorBranch: true declares the last alternative: handled, the run succeeds', async () => {
    const pay: Tool = {
      name: 'pay',
      errorBranch: true,
      execute: () => {
        throw declined();
      },
    };
    const result = await run(payPlan({}, false), { tools: [pay, note] });
    expect(result.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 1 });
    expect(result.state).toEqual({ error: { message: 'Your card was declined.', code: 'card_declined' } });
    expect(statuses(result)).toEqual({ pay: 'failed', confirm: 'skipped', tell: 'succeeded' });
    expect(result.status).toBe('succeeded');
  });

  it('without a declaration a throw fails the call unhandled, whatever the alternatives', async () => {
    const pay: Tool = {
      name: 'pay',
      execute: () => {
        throw declined();
      },
    };
    const result = await run(payPlan({}, false), { tools: [pay, note] });
    expect(result.calls[0]).toMatchObject({
      status: 'failed',
      handled: false,
      branch: null,
      error: { message: 'Your card was declined.', code: 'card_declined' },
    });
    expect(result.state).toEqual({});
    expect(statuses(result)).toEqual({ pay: 'failed', confirm: 'upstream_failed', tell: 'upstream_failed' });
    expect(result.status).toBe('failed');
  });

  it('errorBranch: true on a single path declares nothing: the throw fails the run', async () => {
    const pay: Tool = {
      name: 'pay',
      errorBranch: true,
      execute: () => {
        throw declined();
      },
    };
    const result = await run([{ _id: 'pay', _tool: 'pay', _outputPath: '†state.receipt' }], { tools: [pay] });
    expect(result.calls[0]).toMatchObject({ status: 'failed', handled: false });
    expect(result.status).toBe('failed');
  });

  it('_onError at the first of two: the error goes there, a plain value to the second', async () => {
    const plan = (amount: number) => [
      {
        _id: 'pay',
        _tool: 'pay',
        amount,
        _outputPath: '†state.error || †state.receipt',
        _onError: '†state.error',
      },
    ];
    const pay: Tool = {
      name: 'pay',
      execute: (args) => {
        if ((args.amount as number) > 100) throw declined();
        return { receiptId: 'r-1' };
      },
    };
    const ok = await run(plan(50), { tools: [pay] });
    expect(ok.calls[0]).toMatchObject({ status: 'succeeded', branch: 1 });
    expect(ok.state).toEqual({ receipt: { receiptId: 'r-1' } });
    const bad = await run(plan(500), { tools: [pay] });
    expect(bad.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 0 });
    expect(bad.state).toEqual({ error: { message: 'Your card was declined.', code: 'card_declined' } });
    expect(bad.status).toBe('succeeded');
  });

  it('_onError in the middle of three: the tool chooses among the others, its throw goes to the middle', async () => {
    const plan = [
      {
        _id: 'weather',
        _tool: 'weather',
        _outputPath: '†state.sunny || †state.weatherError || †state.notSunny',
        _onError: '†state.weatherError',
      },
    ];
    const choose = (city: string): Tool => ({
      name: 'weather',
      execute: () => {
        if (city === 'Atlantis') throw Object.assign(new Error('no station'), { code: 'unknown_city' });
        return city === 'Paris' ? 'sun' : branch(2, 'rain');
      },
    });
    expect((await run(plan, { tools: [choose('Paris')] })).state).toEqual({ sunny: 'sun' });
    expect((await run(plan, { tools: [choose('London')] })).state).toEqual({ notSunny: 'rain' });
    const lost = await run(plan, { tools: [choose('Atlantis')] });
    expect(lost.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 1 });
    expect(lost.state).toEqual({ weatherError: { message: 'no station', code: 'unknown_city' } });
  });

  it("_onError overrides the tool's errorBranch", async () => {
    const pay: Tool = {
      name: 'pay',
      errorBranch: true,
      execute: () => {
        throw declined();
      },
    };
    const result = await run(
      [
        {
          _id: 'pay',
          _tool: 'pay',
          _outputPath: '†state.failed || †state.receipt',
          _onError: '†state.failed',
        },
      ],
      { tools: [pay] },
    );
    expect(result.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 0 });
    expect(result.state).toHaveProperty('failed');
  });

  it("a tool's own error is handled by origin, not by its code: its own TIMEOUT or INVALID_OUTPUT", async () => {
    for (const code of ['TIMEOUT', 'INVALID_OUTPUT', 'BAD_BRANCH']) {
      const pay: Tool = {
        name: 'pay',
        execute: () => {
          throw Object.assign(new Error(`the bank said ${code}`), { code });
        },
      };
      const result = await run(payPlan(), { tools: [pay, note] });
      expect(result.calls[0]).toMatchObject({ status: 'failed', handled: true, error: { code } });
      expect(result.status).toBe('succeeded');
    }
  });

  it('a ToolTimeoutError the tool made itself is its own; the one planmode made is not', async () => {
    const own = new ToolTimeoutError(10, { call: 'elsewhere', tool: 'bank' });
    expect(isContractError(own)).toBe(false);
    const pay: Tool = {
      name: 'pay',
      execute: () => {
        throw own;
      },
    };
    const result = await run(payPlan(), { tools: [pay, note] });
    expect(result.calls[0]).toMatchObject({ handled: true, error: { code: 'TIMEOUT' } });
  });

  it('retries come first: only the final failure is routed', async () => {
    let attempts = 0;
    const flaky: Tool = {
      name: 'pay',
      retries: { limit: 2, delayMs: 1 },
      execute: () => {
        attempts += 1;
        if (attempts < 3) throw declined();
        return 'r-3';
      },
    };
    const recovered = await run(payPlan(), { tools: [flaky, note] });
    expect(recovered.calls[0]).toMatchObject({ status: 'succeeded', branch: 0, attempts: 3 });
    expect(recovered.state).toEqual({ receipt: 'r-3' });

    let badOutputs = 0;
    const fixesItsOutput: Tool = {
      name: 'pay',
      retries: { limit: 1, delayMs: 1 },
      outputSchema: { type: 'string' },
      execute: () => (++badOutputs === 1 ? 42 : 'r-2'),
    };
    const fixed = await run(payPlan(), { tools: [fixesItsOutput, note] });
    expect(fixed.calls[0]).toMatchObject({ status: 'succeeded', attempts: 2 });

    const always: Tool = {
      name: 'pay',
      retries: { limit: 2, delayMs: 1 },
      execute: () => {
        throw declined();
      },
    };
    const handled = await run(payPlan(), { tools: [always, note] });
    expect(handled.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 1, attempts: 3 });

    const alwaysInvalid: Tool = {
      name: 'pay',
      retries: { limit: 1, delayMs: 1 },
      outputSchema: { type: 'string' },
      execute: () => 42,
    };
    await expectContractFailures(alwaysInvalid, 'INVALID_OUTPUT', {}, undefined, (result) =>
      expect(result.calls[0]!.attempts).toBe(2),
    );
  });

  it("the latent function stands for a latent tool: its throw is the tool's own", async () => {
    const pay: Tool = { name: 'pay', latent: true };
    const result = await run(
      { type: 'plan', mode: 'lazy', plan: payPlan() },
      {
        tools: [pay, note],
        approve: () => true,
        latent: () => {
          throw declined();
        },
      },
    );
    expect(result.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 1 });
  });

  it('a throw of the reuse hook is not the tool failing', async () => {
    const pay: Tool = { name: 'pay', execute: () => 'r-1' };
    const result = await run(payPlan(), {
      tools: [pay, note],
      reuse: () => {
        throw declined();
      },
    });
    expect(result.calls[0]).toMatchObject({ status: 'failed', handled: false });
    expect(result.status).toBe('failed');
  });

  it("an MCP tool's isError result is the tool's own error", async () => {
    const client = {
      listTools: async () => ({ tools: [{ name: 'pay', inputSchema: { type: 'object' } }] }),
      callTool: async () => ({ content: [{ type: 'text', text: 'card declined' }], isError: true }),
    };
    const tools = await fromMcpClient(client);
    const result = await run(payPlan(), { tools: [...tools, note] });
    expect(result.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 1 });
    expect(result.state).toEqual({ error: { message: 'card declined' } });
    expect(result.status).toBe('succeeded');
  });

  it("an AI SDK tool's throw is the tool's own error", async () => {
    const tools = await fromAiSdkTools({
      pay: aiSdkTool({
        inputSchema: z.object({}),
        execute: async (): Promise<string> => {
          throw declined();
        },
      }),
    });
    const result = await run(payPlan(), { tools: [...tools, note] });
    expect(result.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 1 });
    expect(result.state).toEqual({ error: { message: 'Your card was declined.', code: 'card_declined' } });
  });
});
