import { spawnSync } from 'node:child_process';
import {
  link,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlanMode, planTools, type PlanToolsOptions, TodoList } from '../../src/agent/index.js';
import {
  type Approve,
  isApprovalRejectedError,
  isPermissionDeniedError,
  isPlanModeTransitionError,
  type PlanApprovalRequest,
  type Tool,
  type ToolContext,
} from '../../src/index.js';

let dir: string;
let plansDir: string;
let outside: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'planmode-plan-tools-'));
  plansDir = join(dir, 'plans');
  outside = join(dir, 'outside');
  await mkdir(outside);
});
const made: { close(): void }[] = [];
afterEach(async () => {
  for (const tools of made.splice(0)) tools.close();
  await rm(dir, { recursive: true, force: true });
});

const ctx: ToolContext = { toolCallId: 'c1', abortSignal: new AbortController().signal, outputPaths: [] };

function make(options: Partial<PlanToolsOptions> = {}) {
  const latch = options.latch ?? new PlanMode();
  const approve = vi.fn<Approve<PlanApprovalRequest<string>>>(options.approve ?? (() => true));
  const tools = planTools({ latch, plansDir, ...options, approve });
  made.push(tools);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t])) as Record<string, Tool>;
  const exec = async (name: string, args: Record<string, unknown> = {}) => byName[name]!.execute!(args, ctx);
  return { latch, approve, tools, exec };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('planTools: the definitions', () => {
  it('four tools with object schemas, in a fixed order', () => {
    const { tools } = make();
    expect(tools.map((t) => t.name)).toEqual([
      'enter_plan_mode',
      'exit_plan_mode',
      'plan_write',
      'todo_write',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.description!.length).toBeGreaterThan(20);
    }
  });

  it('bad options are TypeErrors naming the value', () => {
    const latch = new PlanMode();
    const approve = () => true;
    const cases: [Partial<PlanToolsOptions>, RegExp][] = [
      [{ latch: {} as never }, /latch must be a PlanMode, not an object/],
      [
        { approve: undefined as never },
        /approve must be a function that asks a person about the plan, not undefined/,
      ],
      [{ plansDir: 3 as never }, /plansDir must be a directory path, not number 3/],
      [
        { planFile: '../escape.md' },
        /planFile must be a plain file name inside plansDir .*, not "..\/escape.md"/,
      ],
      [{ planFile: '/etc/passwd' }, /planFile must be a plain file name/],
      [{ planFile: 'sub/PLAN.md' }, /planFile must be a plain file name/],
      [{ planFile: '..' }, /planFile must be a plain file name/],
      [{ planFile: 'a\\b.md' }, /planFile must be a plain file name/],
      [{ todos: [] as never }, /todos must be a TodoList, not an array/],
      [{ maxPlanLength: 0 }, /maxPlanLength must be a positive integer, not number 0/],
    ];
    for (const [override, message] of cases) {
      expect(() => planTools({ latch, plansDir, approve, ...override })).toThrow(TypeError);
      expect(() => planTools({ latch, plansDir, approve, ...override })).toThrow(message);
    }
    expect(() => planTools(undefined as never)).toThrow(/options must be an object, not undefined/);
  });

  it('a bad option creates no plans directory', async () => {
    expect(() => planTools({ latch: new PlanMode(), plansDir, approve: () => true, planFile: '..' })).toThrow(
      TypeError,
    );
    await expect(lstat(plansDir)).rejects.toThrow(/ENOENT/);
  });

  it('a plan file name too long for the temporary file beside it is a TypeError', () => {
    expect(() => make({ planFile: `${'x'.repeat(201)}` })).toThrow(
      /planFile must be at most 200 bytes long, not "x{60}…" \(201 bytes\)/,
    );
  });

  it('a plansDir that cannot be a folder is a TypeError naming it, at once', async () => {
    await writeFile(join(dir, 'file'), 'not a folder');
    expect(() => make({ plansDir: join(dir, 'file') })).toThrow(TypeError);
    expect(() => make({ plansDir: join(dir, 'file', 'plans') })).toThrow(
      /plansDir ".*file\/plans" cannot be created and opened as a folder \(ENOTDIR: .*\); give a directory path you can write to/,
    );
  });

  it('plansDir defaults to `plans` under the working directory, resolved when the tools are made', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    let tools: ReturnType<typeof planTools>;
    try {
      tools = planTools({ latch: new PlanMode(), approve: () => true });
      made.push(tools);
    } finally {
      process.chdir(cwd);
    }
    const real = join(await realpath(dir), 'plans', 'PLAN.md');
    expect(tools.file.path).toBe(real);
    await tools[2]!.execute!({ content: 'the plan' }, ctx);
    expect(await readFile(real, 'utf8')).toBe('the plan');
  });

  it('the list carries its plan file and todo list, not enumerable', async () => {
    const todos = new TodoList();
    const { tools, exec } = make({ todos });
    expect(tools.todos).toBe(todos);
    expect(Object.keys(tools)).toEqual(['0', '1', '2', '3']);
    await exec('plan_write', { content: 'read me' });
    expect(await tools.file.read()).toBe('read me');
  });
});

describe('enter_plan_mode and exit_plan_mode', () => {
  it('enter flips the latch; entering again says so and changes nothing', async () => {
    const { latch, exec } = make();
    expect(await exec('enter_plan_mode')).toMatch(/^Plan mode is on\./);
    expect(latch.state).toBe('planning');
    expect(await exec('enter_plan_mode')).toMatch(/^Plan mode is already on\./);
    expect(latch.state).toBe('planning');
  });

  it('exit asks a person; yes moves the latch to executing with the plan', async () => {
    const { latch, approve, exec } = make();
    latch.enter();
    expect(await exec('exit_plan_mode', { plan: '1. add index\n2. migrate' })).toMatch(/approved/);
    expect(approve).toHaveBeenCalledWith({
      kind: 'plan',
      plan: '1. add index\n2. migrate',
      reason: 'the model asks to leave plan mode and carry out this plan',
    });
    expect([latch.state, latch.plan]).toEqual(['executing', '1. add index\n2. migrate']);
  });

  it('no keeps planning and hands the feedback to the model', async () => {
    const { latch, exec } = make({
      approve: async () => ({ approved: false, feedback: 'what about rollback?' }),
    });
    latch.enter();
    const error = await failure(exec('exit_plan_mode', { plan: 'p' }));
    expect(isApprovalRejectedError(error)).toBe(true);
    expect(error.message).toBe(
      'the plan was rejected; feedback: what about rollback?. Plan mode is still on: revise the plan to address this and call exit_plan_mode again',
    );
    expect([latch.state, latch.plan]).toEqual(['planning', null]);
  });

  it('a plain no is a rejection without feedback', async () => {
    const { latch, exec } = make({ approve: () => false });
    latch.enter();
    expect((await failure(exec('exit_plan_mode', { plan: 'p' }))).message).toMatch(
      /^the plan was rejected without feedback/,
    );
    expect(latch.isPlanning).toBe(true);
  });

  it('exit when not planning is an error the model can act on, and no one is asked', async () => {
    const { latch, approve, exec } = make();
    const off = await failure(exec('exit_plan_mode', { plan: 'p' }));
    expect(isPlanModeTransitionError(off)).toBe(true);
    expect(off.message).toMatch(/plan mode is off; call enter_plan_mode first/);
    latch.enter();
    latch.exit('earlier');
    expect((await failure(exec('exit_plan_mode', { plan: 'p' }))).message).toMatch(
      /already left \(executing\)/,
    );
    expect(approve).not.toHaveBeenCalled();
  });

  it('a latch reset while the person decides is not overridden by a late yes', async () => {
    let answer: (value: boolean) => void = () => {};
    const { latch, exec } = make({ approve: () => new Promise<boolean>((r) => (answer = r)) });
    latch.enter();
    const pending = exec('exit_plan_mode', { plan: 'p' });
    await new Promise((r) => setTimeout(r, 0));
    latch.reset();
    answer(true);
    expect((await failure(pending)).message).toMatch(/plan mode was left while the plan waited for approval/);
    expect(latch.state).toBe('off');
  });

  it('the programmatic latch.exit() asks no one', () => {
    const { latch, approve } = make();
    latch.enter();
    latch.exit('by the app');
    expect(approve).not.toHaveBeenCalled();
    expect(latch.state).toBe('executing');
  });

  it('exit without a plan submits the plan file; without either it says what to do', async () => {
    const { latch, approve, exec } = make();
    latch.enter();
    expect((await failure(exec('exit_plan_mode'))).message).toMatch(
      /there is no plan to submit: pass `plan`, or write .*PLAN\.md with plan_write first/,
    );
    await exec('plan_write', { content: '# Plan\n1. step' });
    await exec('exit_plan_mode');
    expect(approve).toHaveBeenLastCalledWith({
      kind: 'plan',
      plan: '# Plan\n1. step',
      reason: 'the model asks to leave plan mode and carry out this plan',
      file: join(plansDir, 'PLAN.md'),
    });
    expect(latch.plan).toBe('# Plan\n1. step');
  });

  it('an empty or oversized plan is refused before anyone is asked', async () => {
    const { latch, approve, exec } = make({ maxPlanLength: 10 });
    latch.enter();
    expect((await failure(exec('exit_plan_mode', { plan: '   ' }))).message).toMatch(
      /plan must be a non-empty string/,
    );
    expect((await failure(exec('exit_plan_mode', { plan: 'x'.repeat(11) }))).message).toMatch(
      /11 characters; at most 10/,
    );
    expect(approve).not.toHaveBeenCalled();
  });
});

describe('plan_write: only the plan file, inside the plans directory', () => {
  it('creates the directory when the tools are made; writes the plan file; a second write replaces it', async () => {
    const { exec } = make();
    expect(await readdir(plansDir)).toEqual([]);
    expect(await exec('plan_write', { content: 'v1' })).toMatch(
      /^Wrote the plan to .*PLAN\.md \(2 characters\)/,
    );
    await exec('plan_write', { content: 'version 2' });
    expect(await readFile(join(plansDir, 'PLAN.md'), 'utf8')).toBe('version 2');
    expect(await readdir(plansDir)).toEqual(['PLAN.md']);
  });

  it('uses the configured plan file name', async () => {
    const { exec } = make({ planFile: 'refactor.md' });
    await exec('plan_write', { content: 'x' });
    expect(await readdir(plansDir)).toEqual(['refactor.md']);
  });

  it('refuses a plan file that is a symbolic link to a file outside, and leaves that file alone', async () => {
    const secret = join(outside, 'secret.txt');
    await writeFile(secret, 'keep me');
    await mkdir(plansDir);
    await symlink(secret, join(plansDir, 'PLAN.md'));
    const { exec } = make();
    const error = await failure(exec('plan_write', { content: 'overwrite?' }));
    expect(isPermissionDeniedError(error)).toBe(true);
    expect(error.message).toMatch(/is a symbolic link; plan mode reads and writes only a regular file/);
    expect(await readFile(secret, 'utf8')).toBe('keep me');
  });

  it('refuses a symbolic link even when it points inside, and a dangling one, without creating its target', async () => {
    await mkdir(plansDir);
    await symlink(join(plansDir, 'other.md'), join(plansDir, 'PLAN.md'));
    const { exec } = make();
    expect(isPermissionDeniedError(await failure(exec('plan_write', { content: 'x' })))).toBe(true);
    await expect(lstat(join(plansDir, 'other.md'))).rejects.toThrow(/ENOENT/);
  });

  it('exit_plan_mode does not read a plan file that is a symbolic link', async () => {
    const secret = join(outside, 'secret.txt');
    await writeFile(secret, 'private key');
    await mkdir(plansDir);
    await symlink(secret, join(plansDir, 'PLAN.md'));
    const { latch, approve, exec } = make();
    latch.enter();
    expect(isPermissionDeniedError(await failure(exec('exit_plan_mode')))).toBe(true);
    expect(approve).not.toHaveBeenCalled();
  });

  it('refuses to write or read once the plans directory is moved or removed', async () => {
    const { latch, exec } = make();
    await exec('plan_write', { content: 'first' });
    await rename(plansDir, join(dir, 'moved'));
    const error = await failure(exec('plan_write', { content: 'second' }));
    expect(isPermissionDeniedError(error)).toBe(true);
    expect(error.message).toMatch(/plans directory .*plans was moved or removed after plan mode opened it/);
    latch.enter();
    expect(isPermissionDeniedError(await failure(exec('exit_plan_mode')))).toBe(true);
    expect(await readFile(join(dir, 'moved', 'PLAN.md'), 'utf8')).toBe('first');
  });

  it('close() releases the folder: plan_write and reading the plan file are refused after it', async () => {
    const { latch, tools, exec } = make();
    await exec('plan_write', { content: 'written' });
    tools.close();
    tools.close();
    const error = await failure(exec('plan_write', { content: 'again' }));
    expect(isPermissionDeniedError(error)).toBe(true);
    expect(error.message).toMatch(/its plan tools were closed; make new plan tools/);
    latch.enter();
    expect(isPermissionDeniedError(await failure(exec('exit_plan_mode')))).toBe(true);
    expect(await exec('exit_plan_mode', { plan: 'given inline' })).toMatch(/approved/);
    expect(Object.keys(tools)).toEqual(['0', '1', '2', '3']);
  });

  it('exit_plan_mode refuses a plan file that is a FIFO without blocking on it', async () => {
    await mkdir(plansDir);
    expect(spawnSync('mkfifo', [join(plansDir, 'PLAN.md')]).status).toBe(0);
    const { latch, approve, exec } = make();
    latch.enter();
    const error = await failure(exec('exit_plan_mode'));
    expect(isPermissionDeniedError(error)).toBe(true);
    expect(error.message).toMatch(/is not a regular file/);
    expect(approve).not.toHaveBeenCalled();
  });

  it('exit_plan_mode reads at most 3 bytes per allowed character of the plan file', async () => {
    const { latch, approve, exec } = make({ maxPlanLength: 10 });
    await writeFile(join(plansDir, 'PLAN.md'), 'é'.repeat(15));
    latch.enter();
    expect((await failure(exec('exit_plan_mode'))).message).toMatch(/15 characters; at most 10/);
    await writeFile(join(plansDir, 'PLAN.md'), 'x'.repeat(31));
    expect((await failure(exec('exit_plan_mode'))).message).toMatch(
      /the plan file .*PLAN\.md is larger than 30 bytes, the most plan mode reads; shorten it/,
    );
    expect(approve).not.toHaveBeenCalled();
  });

  it('refuses to write once the plans directory is swapped for a link to elsewhere', async () => {
    await mkdir(plansDir);
    const { exec } = make();
    await exec('plan_write', { content: 'first' });
    await rename(plansDir, join(dir, 'moved'));
    await symlink(outside, plansDir);
    const error = await failure(exec('plan_write', { content: 'second' }));
    expect(isPermissionDeniedError(error)).toBe(true);
    expect(error.message).toMatch(/now leads to .*outside/);
    expect(await readdir(outside)).toEqual([]);
  });

  it('a hard link to a file outside is replaced, not written through', async () => {
    const secret = join(outside, 'secret.txt');
    await writeFile(secret, 'keep me');
    await mkdir(plansDir);
    await link(secret, join(plansDir, 'PLAN.md'));
    const { exec } = make();
    await exec('plan_write', { content: 'the plan' });
    expect(await readFile(secret, 'utf8')).toBe('keep me');
    expect(await readFile(join(plansDir, 'PLAN.md'), 'utf8')).toBe('the plan');
  });

  it('refuses a plan file that is a directory', async () => {
    await mkdir(join(plansDir, 'PLAN.md'), { recursive: true });
    const { exec } = make();
    expect((await failure(exec('plan_write', { content: 'x' }))).message).toMatch(/is not a regular file/);
  });

  it('content must be a non-empty string', async () => {
    const { exec } = make();
    expect((await failure(exec('plan_write', { content: 42 }))).message).toMatch(
      /content must be a non-empty string .*, not number 42/,
    );
    expect((await failure(exec('plan_write', {}))).message).toMatch(/not undefined/);
  });
});

describe('todo_write', () => {
  it('replaces the whole list and summarizes it', async () => {
    const todos = new TodoList();
    const { exec } = make({ todos });
    await exec('todo_write', {
      todos: [
        { content: 'a', status: 'pending' },
        { content: 'b', status: 'pending' },
      ],
    });
    const answer = await exec('todo_write', {
      todos: [
        { content: 'a', status: 'completed' },
        { content: 'c', status: 'in_progress' },
      ],
    });
    expect(todos.items).toEqual([
      { content: 'a', status: 'completed' },
      { content: 'c', status: 'in_progress' },
    ]);
    expect(answer).toBe('Todo list updated: 1 completed, 1 in progress, 0 pending. Now: c');
    expect(await exec('todo_write', { todos: [] })).toBe('The todo list is now empty.');
    expect(todos.items).toEqual([]);
  });

  it('an invalid list is refused with what to fix, and the old list stays', async () => {
    const todos = new TodoList();
    const { exec } = make({ todos });
    await exec('todo_write', { todos: [{ content: 'keep', status: 'pending' }] });
    const error = await failure(
      exec('todo_write', {
        todos: [
          { content: 'a', status: 'in_progress' },
          { content: 'b', status: 'in_progress' },
        ],
      }),
    );
    expect(error.message).toBe(
      '2 todos are in_progress (todos[0], todos[1]); at most one may be in_progress at a time, so mark the others pending or completed',
    );
    expect(todos.items).toEqual([{ content: 'keep', status: 'pending' }]);
  });
});
