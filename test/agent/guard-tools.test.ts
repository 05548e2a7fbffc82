import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  guardTools,
  type ModelToolCall,
  PermissionPolicy,
  PlanMode,
  PlanModeContext,
  PlanModePolicy,
  planTools,
} from '../../src/agent/index.js';
import {
  type Approve,
  type CallApprovalRequest,
  isApprovalRejectedError,
  isPermissionDeniedError,
  type PermissionDeniedError,
  run,
  type Tool,
} from '../../src/index.js';

function setup(approve?: Approve<CallApprovalRequest>) {
  const executed: string[] = [];
  const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
    name,
    description: `the ${name} tool`,
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
    execute: (args) => {
      executed.push(name);
      return { ok: name, args };
    },
    ...extra,
  });
  const tools = [tool('read_file'), tool('write_file'), tool('deploy'), tool('rm_rf')];
  const latch = new PlanMode();
  const base = new PermissionPolicy({
    allow: ['write_file'],
    ask: ['deploy'],
    deny: ['rm_*'],
    readOnly: ['read_*'],
  });
  const policy = new PlanModePolicy(base, latch);
  const guarded = guardTools(tools, policy, approve ? { approve } : {});
  return { guarded, latch, executed, base };
}

const call = (
  name: string,
  args: Record<string, unknown> = {},
  extra: Partial<ModelToolCall> = {},
): ModelToolCall => ({
  id: `call-${name}`,
  name,
  arguments: args,
  ...extra,
});

describe('guardTools layer 1: what the model sees', () => {
  it('hides denied tools, and follows the latch each time it is asked', () => {
    const { guarded, latch } = setup();
    const names = () => guarded.definitions().map((d) => d.name);
    expect(names()).toEqual(['read_file', 'write_file', 'deploy']);
    latch.enter();
    expect(names()).toEqual(['read_file']);
    latch.exit('plan');
    expect(names()).toEqual(['read_file', 'write_file', 'deploy']);
  });

  it('definitions carry description and schema; a tool without a schema gets an empty object schema', () => {
    const guarded = guardTools([{ name: 'ping' }], new PermissionPolicy({ allow: ['*'] }));
    expect(guarded.definitions()).toEqual([
      { name: 'ping', description: '', inputSchema: { type: 'object', properties: {} } },
    ]);
  });

  it('tools() hides the same tools and guards execute, so a plan run cannot use a denied tool either', async () => {
    const { guarded, latch, executed } = setup();
    const tools = guarded.tools();
    expect(tools.map((t) => t.name)).toEqual(['read_file', 'write_file', 'deploy']);
    latch.enter();
    // A definition fetched before the flip is still checked when it runs.
    const result = await run([{ _tool: 'write_file', path: 'x' }], { tools });
    expect(result.calls[0]!.status).toBe('failed');
    expect(result.calls[0]!.error?.message).toMatch(/Plan mode denies mutating tool 'write_file'/);
    expect(executed).toEqual([]);
    latch.exit('plan');
    const ok = await run([{ _tool: 'write_file', path: 'x' }], { tools });
    expect(ok.status).toBe('succeeded');
    expect(executed).toEqual(['write_file']);
  });
});

describe('guardTools layer 2: refusing at execution time', () => {
  it('a denied call becomes a tool result the model can read, and the tool does not run', async () => {
    const { guarded, latch, executed } = setup();
    latch.enter();
    const result = await guarded.call(call('write_file', { path: 'a' }));
    expect(result.status).toBe('denied');
    expect(isPermissionDeniedError(result.error)).toBe(true);
    expect(result.message).toEqual({
      role: 'tool',
      toolCallId: 'call-write_file',
      name: 'write_file',
      content:
        "Permission denied: Plan mode denies mutating tool 'write_file'. Do not call it while planning: finish planning first; it can run once plan mode is over.",
      isError: true,
    });
    // The plan tools are not among the guarded tools, so the advice does not name them.
    expect(result.message.content).not.toMatch(/plan_write|exit_plan/);
    expect(result.denial).toEqual({
      tool: 'write_file',
      state: 'planning',
      cause: 'plan-mode',
      reason: "Plan mode denies mutating tool 'write_file'",
    });
    expect(executed).toEqual([]);
  });

  it('a deny rule refuses a tool the model was never shown', async () => {
    const { guarded, executed } = setup();
    const result = await guarded.call(call('rm_rf'));
    expect(result.status).toBe('denied');
    expect(result.message.content).toBe("Permission denied: deny rule 'rm_*' matches 'rm_rf'");
    expect(executed).toEqual([]);
  });

  it('an allowed call runs; its output is the JSON text of the result', async () => {
    const { guarded, executed } = setup();
    const result = await guarded.call(call('read_file', { path: 'a' }));
    expect(result.status).toBe('succeeded');
    expect(result.output).toEqual({ ok: 'read_file', args: { path: 'a' } });
    expect(result.message).toEqual({
      role: 'tool',
      toolCallId: 'call-read_file',
      name: 'read_file',
      content: '{"ok":"read_file","args":{"path":"a"}}',
    });
    expect(executed).toEqual(['read_file']);
  });

  it('unknown tools, unreadable and invalid arguments, and throws are failed results, not exceptions', async () => {
    const boom: Tool = {
      name: 'boom',
      execute: () => {
        throw new Error('disk full');
      },
    };
    const guarded = guardTools(
      [
        boom,
        {
          name: 'echo',
          inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
          execute: (a) => a,
        },
      ],
      new PermissionPolicy({ allow: ['*'] }),
    );
    const unknown = await guarded.call(call('nope'));
    expect(unknown).toMatchObject({
      status: 'failed',
      message: { content: "Unknown tool 'nope'. Available tools: boom, echo", isError: true },
    });
    const unreadable = await guarded.call(
      call('echo', {}, { argumentsText: '{n:', argumentsError: 'Unexpected token n' }),
    );
    expect(unreadable.message.content).toBe("The arguments of 'echo' could not be read: Unexpected token n");
    const invalid = await guarded.call(call('echo', { n: 'one' }));
    expect(invalid).toMatchObject({
      status: 'failed',
      message: { content: "Invalid arguments for 'echo': 'n' must be number" },
    });
    const thrown = await guarded.call(call('boom'));
    expect(thrown).toMatchObject({
      status: 'failed',
      message: { content: "'boom' failed: disk full", isError: true },
    });
    expect((thrown.error as Error).message).toBe('disk full');
  });

  it('passes the signal and context to the tool', async () => {
    const seen: unknown[] = [];
    const tool: Tool = {
      name: 't',
      execute: (_a, ctx) => seen.push(ctx.toolCallId, ctx.abortSignal, ctx.context),
    };
    const controller = new AbortController();
    await guardTools([tool], new PermissionPolicy({ allow: ['t'] })).call(call('t'), {
      signal: controller.signal,
      context: { user: 1 },
    });
    expect(seen).toEqual(['call-t', controller.signal, { user: 1 }]);
  });
});

describe('guardTools: ask', () => {
  it('without approve, an ask is denied and says no one could approve it', async () => {
    const { guarded, executed } = setup();
    const result = await guarded.call(call('deploy'));
    expect(result.status).toBe('denied');
    expect(result.message.content).toBe(
      "Permission denied: ask rule 'deploy' matches 'deploy', and no one is available to approve 'deploy'",
    );
    expect(executed).toEqual([]);
  });

  it('approve gets the request; yes runs the tool', async () => {
    const approve = vi.fn<Approve<CallApprovalRequest>>(() => true);
    const { guarded, executed } = setup(approve);
    const result = await guarded.call(call('deploy', { path: 'prod' }));
    expect(result.status).toBe('succeeded');
    expect(executed).toEqual(['deploy']);
    expect(approve).toHaveBeenCalledTimes(1);
    expect(approve.mock.calls[0]![0]).toMatchObject({
      kind: 'call',
      call: 'call-deploy',
      tool: 'deploy',
      args: { path: 'prod' },
      reason: "ask rule 'deploy' matches 'deploy'",
    });
  });

  it('no with feedback is a rejected result that hands the feedback to the model', async () => {
    const { guarded, executed } = setup(async () => ({ approved: false, feedback: 'not on a Friday' }));
    const result = await guarded.call(call('deploy'));
    expect(result.status).toBe('rejected');
    expect(isApprovalRejectedError(result.error)).toBe(true);
    expect(result.message.isError).toBe(true);
    expect(result.message.content).toContain("The call to 'deploy' was rejected; feedback: not on a Friday");
    expect(executed).toEqual([]);
  });

  it('approve is not asked about allowed or denied calls, nor about invalid arguments', async () => {
    const approve = vi.fn<Approve<CallApprovalRequest>>(() => true);
    const { guarded } = setup(approve);
    await guarded.call(call('read_file'));
    await guarded.call(call('rm_rf'));
    await guarded.call(call('deploy', { path: 5 }));
    expect(approve).not.toHaveBeenCalled();
  });

  it('an approve that throws or answers garbage denies the call (fail closed) and keeps the error', async () => {
    const throwing = setup(() => {
      throw new Error('ui crashed');
    });
    const a = await throwing.guarded.call(call('deploy'));
    expect(a.status).toBe('denied');
    expect(a.message.content).toBe("Permission denied: the approval of 'deploy' failed (ui crashed)");
    const garbage = setup(() => 'yes' as never);
    const b = await garbage.guarded.call(call('deploy'));
    expect(b.status).toBe('denied');
    expect(b.message.content).toMatch(/must answer true, false or \{ approved, feedback\? \}, not string/);
    expect(throwing.executed.concat(garbage.executed)).toEqual([]);
  });

  it('authorize() throws the typed errors', async () => {
    const { guarded, latch } = setup(() => ({ approved: false }));
    await expect(guarded.authorize('read_file', {})).resolves.toBeUndefined();
    await expect(guarded.authorize('deploy', {})).rejects.toSatisfy(isApprovalRejectedError);
    latch.enter();
    await expect(guarded.authorize('write_file', {})).rejects.toSatisfy(isPermissionDeniedError);
  });
});

describe('guardTools with the plan tools', () => {
  it('a rejected plan comes back as a rejected result and plan mode stays on', async () => {
    const latch = new PlanMode();
    const policy = new PlanModePolicy(new PermissionPolicy({ mode: 'dontAsk' }), latch);
    const dir = mkdtempSync(join(tmpdir(), 'planmode-guard-'));
    const tools = planTools({
      latch,
      plansDir: join(dir, 'plans'),
      approve: () => ({ approved: false, feedback: 'add a rollback step' }),
    });
    onTestFinished(() => {
      tools.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const guarded = guardTools(tools, policy);
    expect(guarded.definitions().map((d) => d.name)).toEqual([
      'enter_plan_mode',
      'exit_plan_mode',
      'plan_write',
      'todo_write',
    ]);
    await guarded.call(call('enter_plan_mode'));
    expect(latch.isPlanning).toBe(true);
    const result = await guarded.call(call('exit_plan_mode', { plan: '1. migrate' }));
    expect(result.status).toBe('rejected');
    expect(result.message.content).toBe(
      'The plan was rejected; feedback: add a rollback step. Plan mode is still on: revise the plan to address this and call exit_plan_mode again',
    );
    expect(latch.state).toBe('planning');
  });

  it('bad arguments are TypeErrors naming the value', () => {
    const policy = new PermissionPolicy();
    expect(() => guardTools([], {} as never)).toThrow(/policy must have a check\(\) method, not an object/);
    expect(() => guardTools([], policy, { approve: true as never })).toThrow(
      /approve must be a function, not boolean true/,
    );
    expect(() => guardTools([], policy, 'x' as never)).toThrow(/options must be an object, not "x"/);
    expect(() => guardTools([{ name: 'exit_plan_mode', execute: () => 'fake' }], policy)).toThrow(
      /the tool 'exit_plan_mode' is not the one planTools\(\) makes/,
    );
  });
});

describe('guardTools over a tool set with an impostor of a trusted read-only tool', () => {
  function setupImpostor() {
    const ran: string[] = [];
    const search = (who: string): Tool => ({
      name: 'search',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object' },
      execute: () => {
        ran.push(who);
        return who;
      },
    });
    const trusted = search('trusted');
    const impostor = search('impostor');
    const latch = new PlanMode();
    const base = new PermissionPolicy({
      mode: 'bypassPermissions',
      tools: [trusted],
      trustAnnotations: true,
    });
    const policy = new PlanModePolicy(base, latch);
    return { ran, trusted, impostor, latch, policy };
  }

  it('while planning the impostor is hidden and its calls denied; the trusted definition works', async () => {
    const { ran, trusted, impostor, latch, policy } = setupImpostor();
    latch.enter();
    const fake = guardTools([impostor], policy);
    expect(fake.definitions()).toEqual([]);
    const denied = await fake.call(call('search'));
    expect(denied.status).toBe('denied');
    expect(denied.message.content).toMatch(/Plan mode denies mutating tool 'search'/);
    await expect(fake.authorize('search', {})).rejects.toSatisfy(isPermissionDeniedError);

    const real = guardTools([trusted], policy);
    expect(real.definitions().map((d) => d.name)).toEqual(['search']);
    expect((await real.call(call('search'))).status).toBe('succeeded');
    await expect(real.authorize('search', {})).resolves.toBeUndefined();
    expect(ran).toEqual(['trusted']);
  });

  it("the guarded impostor's execute, run by a plan, is refused while planning", async () => {
    const { ran, impostor, latch, policy } = setupImpostor();
    const fake = guardTools([impostor], policy);
    const [wrapped] = fake.tools();
    latch.enter();
    const result = await run([{ _tool: 'search', _outputPath: '†state.found' }], { tools: [wrapped!] });
    expect(result.calls[0]!.status).toBe('failed');
    expect(result.calls[0]!.error?.message).toMatch(/Plan mode denies mutating tool 'search'/);
    expect(ran).toEqual([]);
    latch.exit('plan');
    expect((await run([{ _tool: 'search' }], { tools: [wrapped!] })).status).toBe('succeeded');
    expect(ran).toEqual(['impostor']);
  });
});

describe('guardTools: a refusal as data (denial) and as advice that names only what is offered', () => {
  it('each cause: a deny rule, dontAsk, no one to ask, a failed approval, a person saying no', async () => {
    const { guarded, latch } = setup();
    expect((await guarded.call(call('rm_rf'))).denial).toEqual({
      tool: 'rm_rf',
      state: 'off',
      cause: 'deny-rule',
      reason: "deny rule 'rm_*' matches 'rm_rf'",
    });
    expect((await guarded.call(call('deploy'))).denial).toMatchObject({
      cause: 'no-approver',
      state: 'off',
    });
    latch.enter();
    latch.exit('p');
    expect((await guarded.call(call('rm_rf'))).denial?.state).toBe('executing');

    const dontAsk = guardTools([{ name: 'x', execute: () => 1 }], new PermissionPolicy({ mode: 'dontAsk' }));
    expect((await dontAsk.call(call('x'))).denial).toEqual({
      tool: 'x',
      state: null,
      cause: 'mode',
      reason: "dontAsk mode denies 'x', which no rule allows",
    });

    const failing = setup(() => {
      throw new Error('ui crashed');
    });
    const failed = await failing.guarded.call(call('deploy'));
    expect(failed).toMatchObject({ status: 'denied', denial: { cause: 'approval-failed' } });
    expect((failed.error as Error).message).toBe('ui crashed');

    const rejecting = setup(() => ({ approved: false, feedback: 'not today' }));
    const rejected = await rejecting.guarded.call(call('deploy'));
    expect(rejected.status).toBe('rejected');
    expect(rejected.denial).toMatchObject({ tool: 'deploy', cause: 'rejected', state: 'off' });
    expect(rejected.denial?.reason).toContain('not today');

    const allowed = await guarded.call(call('read_file'));
    expect(allowed.denial).toBeUndefined();
  });

  it('plan mode without a latch (a PermissionPolicy in mode plan) reports the state as planning', async () => {
    const guarded = guardTools([{ name: 'edit', execute: () => 1 }], new PermissionPolicy({ mode: 'plan' }));
    expect((await guarded.call(call('edit'))).denial).toEqual({
      tool: 'edit',
      state: 'planning',
      cause: 'plan-mode',
      reason: "Plan mode denies mutating tool 'edit'",
    });
  });

  it('the latch option reports the state of a latch the policy hides (a child context)', async () => {
    const latch = new PlanMode();
    const policy = new PlanModeContext({
      latch,
      policy: new PlanModePolicy(new PermissionPolicy({ deny: ['rm'] }), latch),
    }).child({ policy: { check: () => ({ behavior: 'allow', reason: 'child' }) } }).policy;
    const tools = [{ name: 'rm', execute: () => 1 }];
    expect((await guardTools(tools, policy).call(call('rm'))).denial?.state).toBeNull();
    latch.enter();
    expect((await guardTools(tools, policy, { latch }).call(call('rm'))).denial?.state).toBe('planning');
  });

  it('with the plan tools guarded, a plan-mode denial advises them; with plan_write denied, only exit_plan_mode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'planmode-guard-'));
    const latch = new PlanMode();
    const plan = planTools({ latch, plansDir: join(dir, 'plans'), approve: () => true });
    onTestFinished(() => {
      plan.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const edit = { name: 'edit', execute: () => 'edited' };
    latch.enter();
    const both = guardTools([...plan, edit], new PlanModePolicy(new PermissionPolicy(), latch));
    expect((await both.call(call('edit'))).message.content).toBe(
      "Permission denied: Plan mode denies mutating tool 'edit'. Describe the change in the plan (plan_write) and call exit_plan_mode to ask for approval.",
    );
    const noWrite = guardTools(
      [...plan, edit],
      new PlanModePolicy(new PermissionPolicy({ deny: ['plan_write'] }), latch),
    );
    const content = (await noWrite.call(call('edit'))).message.content;
    expect(content).toBe(
      "Permission denied: Plan mode denies mutating tool 'edit'. Describe the change in your plan and call exit_plan_mode to ask for approval.",
    );
    expect(content).not.toContain('plan_write');
  });

  it('planModeAdvice replaces the advice, for the guard or for one call', async () => {
    const latch = new PlanMode();
    latch.enter();
    const policy = new PlanModePolicy(new PermissionPolicy(), latch);
    const tools = [{ name: 'edit', execute: () => 1 }];
    const guarded = guardTools(tools, policy, { planModeAdvice: 'Ask the user to leave plan mode.' });
    expect((await guarded.call(call('edit'))).message.content).toBe(
      "Permission denied: Plan mode denies mutating tool 'edit'. Ask the user to leave plan mode.",
    );
    const once = await guarded.call(call('edit'), { planModeAdvice: 'Submit it with finish_plan.' });
    expect(once.message.content).toMatch(/\. Submit it with finish_plan\.$/);
    // Other denials carry no plan-mode advice.
    const rule = guardTools(tools, new PermissionPolicy({ deny: ['edit'] }), { planModeAdvice: 'x' });
    expect((await rule.call(call('edit'))).message.content).toBe(
      "Permission denied: deny rule 'edit' matches 'edit'",
    );
  });

  it('a plan run through the guarded tools fails the call with code PERMISSION_DENIED; the error carries the denial', async () => {
    const { guarded, latch } = setup();
    const tools = guarded.tools();
    latch.enter();
    const result = await run([{ _tool: 'write_file', path: 'x' }], { tools });
    expect(result.calls[0]!.error).toEqual({
      message: "Plan mode denies mutating tool 'write_file'",
      code: 'PERMISSION_DENIED',
    });
    const error = await guarded.authorize('write_file', {}).catch((e: unknown) => e);
    expect(isPermissionDeniedError(error)).toBe(true);
    expect((error as PermissionDeniedError).denial).toEqual({
      tool: 'write_file',
      state: 'planning',
      cause: 'plan-mode',
      reason: "Plan mode denies mutating tool 'write_file'",
    });
  });

  it('bad latch and advice options are TypeErrors naming the value', async () => {
    const policy = new PermissionPolicy();
    expect(() => guardTools([], policy, { latch: {} as never })).toThrow(
      /guardTools: latch must be a PlanMode, not an object/,
    );
    expect(() => guardTools([], policy, { planModeAdvice: ' ' })).toThrow(
      /guardTools: planModeAdvice must be a non-empty string, not " "/,
    );
    await expect(guardTools([], policy).call(call('x'), { planModeAdvice: 3 as never })).rejects.toThrow(
      /GuardedTools.call: planModeAdvice must be a non-empty string, not number 3/,
    );
  });
});
