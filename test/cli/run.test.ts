/**
 * `plan run` with an ES module of tools in a temp dir: in process through main(), and as the
 * real, built CLI in a child process where a process is the point (signals, a pseudo-terminal).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ANSI_ESCAPE, BIN, expectUsageError, ROOT, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';
import { spawnPlan } from './spawned.js';

/** Every tool appends `{"tool", "args"}` to calls.log beside the module, so tests see what ran. */
const TOOLS = `
import { appendFileSync } from 'node:fs';
const log = (tool, args) =>
  appendFileSync(new URL('./calls.log', import.meta.url), JSON.stringify({ tool, args }) + '\\n');
const wait = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  });
export const tools = [
  {
    name: 'get_user',
    inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    execute: async (args) => { log('get_user', args); return { name: 'Ada ' + args.id }; },
  },
  {
    name: 'check_user',
    branchJson: true,
    execute: async (args) => {
      log('check_user', args);
      return args.name.startsWith('Ada') ? { '†branch': 0, value: 'fine' } : { '†branch': 1, value: 'odd' };
    },
  },
  { name: 'notify', execute: async (args) => { log('notify', args); return 'sent'; } },
  {
    name: 'pay',
    execute: async (args) => {
      log('pay', args);
      throw Object.assign(new Error('card declined'), { code: 'DECLINED' });
    },
  },
  { name: 'slow', execute: async (args, ctx) => { log('slow', args); await wait(args.ms, ctx.abortSignal); return 'late'; } },
  { name: 'hang', execute: async (args, ctx) => { log('hang', args); await wait(60000, ctx.abortSignal); return 'never'; } },
  { name: 'guarded', needsApproval: true, execute: async (args) => { log('guarded', args); return 'done'; } },
  { name: 'summarize', latent: true, description: 'written by the model' },
];
`;

const PLAN = [
  { _id: 'fetch', _tool: 'get_user', id: '†input.id', _outputPath: '†state.user' },
  { _id: 'check', _tool: 'check_user', name: '†state.user.name', _outputPath: '†state.ok || †state.odd' },
  { _id: 'notify', _tool: 'notify', message: '†state.ok || †state.odd' },
];

const { dir, cleanup } = tempDir({
  'tools.mjs': TOOLS,
  'tools.json': { tools: [{ name: 'get_user' }, { name: 'check_user' }, { name: 'notify' }] },
  'no-execute.mjs':
    'export const tools = [{ name: "get_user" }, { name: "check_user" }, { name: "notify" }];\n',
  'input.json': { id: 7 },
  'plan.json': PLAN,
  'lazy.json': { type: 'plan', mode: 'lazy', plan: PLAN },
  'invalid.json': [{ _tool: 'notify', message: '†state.nothing' }],
  'unknown-tool.json': [{ _tool: 'notifi', message: 'hi' }],
  // pay fails unhandled; after reads its output (upstream_failed); other is independent.
  'fails.json': [
    { _id: 'pay', _tool: 'pay', amount: 5, _outputPath: '†state.receipt' },
    { _id: 'after', _tool: 'notify', message: '†state.receipt' },
    { _id: 'other', _tool: 'notify', message: 'independent' },
  ],
  // The plan declares where pay's throw goes (pay itself declares nothing).
  'handled.json': [
    {
      _id: 'pay',
      _tool: 'pay',
      amount: 5,
      _outputPath: '†state.receipt || †state.error',
      _onError: '†state.error',
    },
    { _id: 'tell', _tool: 'notify', message: '†state.error.message' },
  ],
  'undeclared.json': [
    { _id: 'pay', _tool: 'pay', amount: 5, _outputPath: '†state.receipt || †state.error' },
    { _id: 'tell', _tool: 'notify', message: '†state.error.message' },
  ],
  'atlantis.json': { city: 'Atlantis' },
  'slow.json': [{ _id: 'slow', _tool: 'slow', ms: 20000, _outputPath: '†state.slow' }],
  'short.json': [
    { _id: 'first', _tool: 'slow', ms: 300, _outputPath: '†state.a' },
    { _id: 'second', _tool: 'slow', ms: 300, _outputPath: '†state.b' },
    { _id: 'third', _tool: 'notify', message: '†state.a' },
  ],
  'hang.json': [
    { _id: 'hang', _tool: 'hang', _outputPath: '†state.h' },
    { _id: 'quick', _tool: 'notify', message: 'hi', _outputPath: '†state.q' },
    { _id: 'after', _tool: 'notify', message: '†state.h' },
  ],
  'guarded.json': [
    { _id: 'danger', _tool: 'guarded', target: 'prod', _outputPath: '†state.d' },
    { _id: 'safe', _tool: 'notify', message: 'hi' },
  ],
  'latent.json': [
    { _id: 'sum', _tool: 'summarize', text: 'long', _output: 'short', _outputPath: '†state.summary' },
    { _id: 'tell', _tool: 'notify', message: '†state.summary' },
  ],
});
afterAll(cleanup);

const LOG = join(dir, 'calls.log');
beforeEach(() => rmSync(LOG, { force: true }));

/** `plan run <args>` in this process, from the temp dir. */
const run = (args: string[], stdin = '') => planInProcess(['run', ...args], stdin, { cwd: dir });

/** The tools that ran, in order. */
function ran(): string[] {
  if (!existsSync(LOG)) return [];
  return readFileSync(LOG, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { tool: string }).tool);
}

// eslint-disable-next-line no-control-regex -- finding ANSI escapes is the point
const ESCAPES = /\u001b\[[0-9;]*[A-Za-z]/g;
// eslint-disable-next-line no-control-regex -- a redraw in place: cursor up, then clear to the end
const REDRAW = /\u001b\[\d+A\r\u001b\[J/;
// eslint-disable-next-line no-control-regex -- colors are SGR sequences, ending in m
const COLOR = /\u001b\[[0-9;]*m/;
const plainText = (text: string) => text.replace(ESCAPES, '');

/** SPEC 12's keys, then the run's timing. */
const RUN_KEYS = ['status', 'state', 'calls', 'diagnostics', 'durationMs', 'approvalWaitMs'];
const CALL_KEYS = ['id', 'tool', 'status', 'branch', 'handled', 'attempts', 'startedAt', 'endedAt', 'error'];

function parseJson(stdout: string) {
  const lines = stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  const out = JSON.parse(lines[0]!);
  expect(Object.keys(out)).toEqual(RUN_KEYS);
  for (const call of out.calls) expect(Object.keys(call)).toEqual(CALL_KEYS);
  return out;
}

describe('plan run', () => {
  it('exits 0 for a run that succeeds, with one plain line per event (--events) and a summary on stderr', async () => {
    const r = await run(['plan.json', '--tools', 'tools.mjs', '--input', 'input.json', '--events']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(ANSI_ESCAPE);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('run:start eager 3 calls');
    expect(lines).toContain('call:start fetch get_user');
    expect(lines).toContain('state:write fetch †state.user');
    expect(lines.some((l) => /^call:end fetch succeeded \d+ms$/.test(l))).toBe(true);
    expect(lines.some((l) => /^call:end check succeeded \d+ms branch 0$/.test(l))).toBe(true);
    expect(lines).toContain('run:end succeeded');
    expect(r.stderr).toMatch(/\nplan\.json: run succeeded in \d+ms, 3 calls: 3 succeeded\nstate: \{\n/);
    expect(r.stderr).toContain('"name": "Ada 7"');
    expect(ran()).toEqual(['get_user', 'check_user', 'notify']);
  });

  it('--json prints one object, alone on stdout, with exactly the keys of SPEC 12', async () => {
    const r = await run(['plan.json', '--tools', 'tools.mjs', '--input', 'input.json', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = parseJson(r.stdout);
    expect(out.status).toBe('succeeded');
    expect(out.state).toEqual({ user: { name: 'Ada 7' }, ok: 'fine' });
    expect(out.diagnostics).toEqual([]);
    expect(out.calls.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ['fetch', 'succeeded'],
      ['check', 'succeeded'],
      ['notify', 'succeeded'],
    ]);
    const check = out.calls[1];
    expect(check).toMatchObject({ tool: 'check_user', branch: 0, handled: false, attempts: 1, error: null });
    expect(new Date(check.startedAt).toISOString()).toBe(check.startedAt);
    expect(new Date(check.endedAt).toISOString()).toBe(check.endedAt);
  });

  it('--events prints one JSON line per event, then the --json object last', async () => {
    const r = await run(['plan.json', '--tools', 'tools.mjs', '--input', 'input.json', '--events', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const events = lines.slice(0, -1);
    expect(events[0]).toMatchObject({ type: 'run:start', mode: 'eager', calls: 3 });
    expect(events.at(-1)).toMatchObject({ type: 'run:end', status: 'succeeded' });
    expect(events.every((e) => typeof e.type === 'string' && typeof e.at === 'string')).toBe(true);
    expect(events.filter((e) => e.type === 'call:end')).toHaveLength(3);
    expect(events.find((e) => e.type === 'call:start' && e.call === 'fetch').args).toEqual({ id: 7 });
    expect(Object.keys(lines.at(-1))).toEqual(RUN_KEYS);
  });

  it('--events without --json keeps stdout for the events and the human output on stderr', async () => {
    const r = await run(['plan.json', '--tools', 'tools.mjs', '--input', 'input.json', '--events']);
    expect(r.code).toBe(0);
    const types = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).type);
    expect(types[0]).toBe('run:start');
    expect(types.at(-1)).toBe('run:end');
    expect(r.stderr).toMatch(/^run:start eager 3 calls\n/);
    expect(r.stderr).toMatch(/plan\.json: run succeeded/);
  });

  it('reads the plan from stdin with -', async () => {
    const r = await run(
      ['-', '--tools', 'tools.mjs', '--input', 'input.json', '--json'],
      JSON.stringify(PLAN),
    );
    expect(r.code).toBe(0);
    expect(parseJson(r.stdout).state.user).toEqual({ name: 'Ada 7' });
    const human = await run(['-', '--tools', 'tools.mjs', '--input', 'input.json'], JSON.stringify(PLAN));
    expect(human.stderr).toMatch(/<stdin>: run succeeded/);
  });

  it('writes the _output of latent calls in eager mode without running anything for them', async () => {
    const r = await run(['latent.json', '--tools', 'tools.mjs', '--json']);
    expect(r.code).toBe(0);
    expect(parseJson(r.stdout).state).toEqual({ summary: 'short' });
    expect(ran()).toEqual(['notify']);
  });

  describe('exit 1: the plan is invalid', () => {
    it('prints the diagnostics as validate does, and runs nothing', async () => {
      const r = await run(['invalid.json', '--tools', 'tools.mjs']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^invalid\.json:\d+:\d+: error E_UNRESOLVED: /);
      expect(r.stderr).toMatch(/invalid\.json: invalid, 1 error, 0 warnings\n$/);
      expect(ran()).toEqual([]);
    });

    it('checks tool names against the module, with --json too', async () => {
      const r = await run(['unknown-tool.json', '--tools', 'tools.mjs', '--json']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/error E_UNKNOWN_TOOL: .*\n {2}hint: did you mean "notify"\?/);
    });
  });

  describe('exit 2: usage', () => {
    it('rejects --concurrency and --timeout values that are not whole numbers in range', async () => {
      const base = ['plan.json', '--tools', 'tools.mjs', '--input', 'input.json'];
      expectUsageError(
        await run([...base, '--concurrency', '0']),
        /--concurrency must be a whole number >= 1, not '0'/,
      );
      expectUsageError(
        await run([...base, '--concurrency', 'abc']),
        /--concurrency must be a whole number >= 1/,
      );
      expectUsageError(await run([...base, '--concurrency', '1.5']), /--concurrency must be a whole number/);
      expectUsageError(await run([...base, '--timeout', 'soon']), /--timeout must be a whole number >= 0/);
      expectUsageError(await run([...base, '--mode', 'later']), /--mode/);
      expect(ran()).toEqual([]);
    });

    it('needs --tools, as an ES module: a JSON manifest cannot run', async () => {
      expectUsageError(
        await run(['plan.json']),
        /plan run needs --tools <module> \(a \.js\/\.mjs ES module.* or --mcp <server>$/m,
      );
      expectUsageError(
        await run(['plan.json', '--tools', 'tools.json']),
        /--tools 'tools\.json' is a JSON manifest, .*plan run needs a \.js\/\.mjs ES module/,
      );
      expectUsageError(
        await run(['plan.json', '--tools', 'no-execute.mjs', '--input', 'input.json']),
        /'get_user' \(call fetch\), 'check_user' \(call check\), 'notify' \(call notify\) have no execute function/,
      );
    });

    it('a missing plan or tools file', async () => {
      expectUsageError(
        await run(['missing.json', '--tools', 'tools.mjs']),
        /plan file 'missing\.json' does not exist/,
      );
      expectUsageError(
        await run(['plan.json', '--tools', 'missing.mjs']),
        /tools file 'missing\.mjs' does not exist/,
      );
    });
  });

  describe('exit 3: the run failed', () => {
    it('a tool that throws fails its call; what reads its output is upstream_failed; the rest goes on', async () => {
      const r = await run(['fails.json', '--tools', 'tools.mjs', '--json']);
      expect(r.code).toBe(3);
      const out = parseJson(r.stdout);
      expect(out.status).toBe('failed');
      expect(out.calls.map((c: { status: string }) => c.status)).toEqual([
        'failed',
        'upstream_failed',
        'succeeded',
      ]);
      expect(out.calls[0].error).toEqual({ message: 'card declined', code: 'DECLINED' });
      expect(out.calls[1]).toMatchObject({ attempts: 0, startedAt: null, endedAt: null });
      const human = await run(['fails.json', '--tools', 'tools.mjs', '--events']);
      expect(human.stderr).toMatch(/^call:end pay failed \d+ms: card declined \(DECLINED\)$/m);
      expect(human.stderr).toMatch(/^call:end after upstream_failed$/m);
      expect(human.stderr).toMatch(/run failed in .*: 1 succeeded, 1 failed, 1 upstream_failed/);
    });

    it('a throw routed to the error alternative _onError declares is handled: the run succeeds', async () => {
      const r = await run(['handled.json', '--tools', 'tools.mjs', '--json']);
      expect(r.code).toBe(0);
      const out = parseJson(r.stdout);
      expect(out.calls[0]).toMatchObject({ status: 'failed', handled: true, branch: 1 });
      expect(out.state.error).toEqual({ message: 'card declined', code: 'DECLINED' });
    });

    it('the same throw without _onError fails the call and the run: exit 3, the reader upstream_failed', async () => {
      const r = await run(['undeclared.json', '--tools', 'tools.mjs', '--json']);
      expect(r.code).toBe(3);
      const out = parseJson(r.stdout);
      expect(out.status).toBe('failed');
      expect(out.calls[0]).toMatchObject({ status: 'failed', handled: false, branch: null });
      expect(out.calls[1]).toMatchObject({ status: 'upstream_failed' });
      expect(out.state).toEqual({});
    });

    it('the weather example with an unknown city ends failed, exit 3, and suggests no movie', async () => {
      const example = join(ROOT, 'fixtures/examples/weather-branch');
      const args = [join(example, 'plan.json'), '--tools', join(example, 'tools.mjs')];
      const r = await run([...args, '--input', 'atlantis.json', '--json']);
      expect(r.code).toBe(3);
      const out = parseJson(r.stdout);
      expect(out.status).toBe('failed');
      expect(out.calls.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
        ['weather', 'failed'],
        ['park', 'upstream_failed'],
        ['movie', 'upstream_failed'],
        ['present', 'upstream_failed'],
      ]);
      expect(out.calls[0]).toMatchObject({
        handled: false,
        error: { message: 'no weather station in "Atlantis"', code: 'unknown_city' },
      });
      expect(out.state).toEqual({});
      expect(r.stdout).not.toContain('Film House');
      // Without --json: the summary says the run failed, and why the movie did not run.
      const human = await run([...args, '--input', 'atlantis.json']);
      expect(human.code).toBe(3);
      expect(human.stdout + human.stderr).not.toMatch(/Film House|handled/);
      expect(human.stderr).toMatch(/run failed/);
    });

    it('--fail-fast starts nothing after the first failure, and exits 3', async () => {
      const r = await run([
        'fails.json',
        '--tools',
        'tools.mjs',
        '--fail-fast',
        '--concurrency',
        '1',
        '--json',
      ]);
      expect(r.code).toBe(3);
      const out = parseJson(r.stdout);
      expect(out.status).toBe('failed');
      expect(out.calls.find((c: { id: string }) => c.id === 'other').status).toBe('cancelled');
      expect(ran()).toEqual(['pay']);
      const human = await run(['fails.json', '--tools', 'tools.mjs', '--fail-fast', '--concurrency', '1']);
      expect(human.code).toBe(3);
      expect(human.stderr).toMatch(/fails\.json: run stopped by --fail-fast after /);
    });

    it('--timeout fails a call that takes too long', async () => {
      // The tool waits 20 s unless cancelled: a timeout that did not cancel it hangs this test.
      const r = await run(['slow.json', '--tools', 'tools.mjs', '--timeout', '100', '--json']);
      expect(r.code).toBe(3);
      const call = parseJson(r.stdout).calls[0];
      expect(call.status).toBe('failed');
      expect(call.error).toEqual({ message: 'timed out after 100 ms', code: 'TIMEOUT' });
    });

    it('--concurrency 1 runs one call at a time', async () => {
      const r = await run(['short.json', '--tools', 'tools.mjs', '--concurrency', '1', '--json']);
      expect(r.code).toBe(0);
      const [first, second] = parseJson(r.stdout).calls;
      expect(Date.parse(second.startedAt)).toBeGreaterThanOrEqual(Date.parse(first.endedAt));
      const parallel = parseJson((await run(['short.json', '--tools', 'tools.mjs', '--json'])).stdout).calls;
      expect(Date.parse(parallel[1].startedAt)).toBeLessThan(Date.parse(parallel[0].endedAt));
    });
  });

  describe('exit 4: approval', () => {
    it('off a terminal, a lazy plan without --yes is refused in one line and nothing runs', async () => {
      const r = await run(['lazy.json', '--tools', 'tools.mjs', '--input', 'input.json']);
      expect(r.code).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^plan: not running lazy\.json: .*pass --yes to approve it\n$/);
      expect(ran()).toEqual([]);
    });

    it('--mode lazy makes any plan lazy; --json still gives the object, every call rejected', async () => {
      const r = await run([
        'plan.json',
        '--tools',
        'tools.mjs',
        '--input',
        'input.json',
        '--mode',
        'lazy',
        '--json',
      ]);
      expect(r.code).toBe(4);
      const out = parseJson(r.stdout);
      expect(out.status).toBe('rejected');
      expect(out.calls.every((c: { status: string }) => c.status === 'rejected')).toBe(true);
      expect(ran()).toEqual([]);
    });

    it('--yes approves a lazy plan', async () => {
      const r = await run([
        'lazy.json',
        '--tools',
        'tools.mjs',
        '--input',
        'input.json',
        '--yes',
        '--events',
      ]);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^run:start lazy 3 calls\napproval:requested plan\n/);
      expect(ran()).toEqual(['get_user', 'check_user', 'notify']);
    });

    it('a tool that needs approval is rejected off a terminal, and approved by --yes', async () => {
      const r = await run(['guarded.json', '--tools', 'tools.mjs', '--events']);
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/^approval:requested call danger\n/m);
      expect(r.stderr).toMatch(/^call:end danger rejected$/m);
      expect(r.stderr).toMatch(/1 call was rejected: its tool needs approval.*pass --yes/);
      expect(ran()).toEqual(['notify']);
      const yes = await run(['guarded.json', '--tools', 'tools.mjs', '--yes', '--json']);
      expect(yes.code).toBe(0);
      expect(parseJson(yes.stdout).state).toEqual({ d: 'done' });
      expect(ran().sort()).toEqual(['guarded', 'notify', 'notify']);
    });

    it('latent calls of a lazy plan fail with the executor message: there is no model yet', async () => {
      const r = await run(['latent.json', '--tools', 'tools.mjs', '--mode', 'lazy', '--yes', '--json']);
      // `_output` is an error in a lazy plan; the same call without it is what reaches the executor.
      expect(r.code).toBe(1);
      const plan = JSON.stringify([
        { _id: 'sum', _tool: 'summarize', text: 'long', _outputPath: '†state.s' },
      ]);
      const lazy = await run(['-', '--tools', 'tools.mjs', '--mode', 'lazy', '--yes', '--json'], plan);
      expect(lazy.code).toBe(3);
      expect(parseJson(lazy.stdout).calls[0].error).toMatchObject({
        code: 'NO_MODEL',
        message: expect.stringContaining('latent tool'),
      });
    });
  });

  it('exit 130: Ctrl-C cancels the running calls, prints the result, and exits 130', async () => {
    const plan = spawnPlan(['run', 'hang.json', '--tools', 'tools.mjs', '--events', '--json'], { cwd: dir });
    // Both waits: on a loaded machine `quick` may still be running when `hang` starts.
    await plan.waitFor('stdout', /"type":"call:start","call":"hang"/);
    await plan.waitFor('stdout', /"type":"call:end","call":"quick"/);
    plan.child.kill('SIGINT');
    expect(await plan.exited).toBe(130);
    const lines = plan.stdout.trimEnd().split('\n');
    const out = JSON.parse(lines.at(-1)!);
    expect(out.status).toBe('cancelled');
    const status = Object.fromEntries(out.calls.map((c: { id: string; status: string }) => [c.id, c.status]));
    expect(status).toEqual({ hang: 'cancelled', quick: 'succeeded', after: 'cancelled' });
    expect(out.calls[0].attempts).toBe(1);
    expect(JSON.parse(lines.at(-2)!)).toMatchObject({ type: 'run:end', status: 'cancelled' });
    expect(plan.stderr).toBe('');
  });

  it('exit 130 with the human summary, off a terminal', async () => {
    const plan = spawnPlan(['run', 'hang.json', '--tools', 'tools.mjs', '--events'], { cwd: dir });
    await plan.waitFor('stderr', /^call:start hang hang$/m);
    await plan.waitFor('stderr', /^call:end quick succeeded/m);
    plan.child.kill('SIGINT');
    expect(await plan.exited).toBe(130);
    expect(plan.stderr).toMatch(/^call:end hang cancelled \d+ms$/m);
    expect(plan.stderr).toMatch(/hang\.json: run interrupted after .*, 3 calls: 1 succeeded, 2 cancelled\n/);
  });

  // script(1) from util-linux runs the CLI in a pseudo-terminal; without it these are skipped.
  const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
  const hasScript = script.status === 0 && /util-linux/.test(script.stdout + script.stderr);
  const onTerminal = hasScript ? describe : describe.skip;
  onTerminal(
    hasScript
      ? 'on a terminal (a pseudo-terminal from script(1))'
      : 'on a terminal: SKIPPED, script(1) from util-linux is not installed to give the CLI a pseudo-terminal',
    () => {
      function terminalCommand(args: string[], extraEnv: Record<string, string> = {}) {
        const command = [process.execPath, BIN, 'run', ...args]
          .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
          .join(' ');
        const env: NodeJS.ProcessEnv = { ...process.env };
        delete env.NO_COLOR;
        delete env.FORCE_COLOR;
        return { args: ['-qfec', command, '/dev/null'], env: { ...env, ...extraEnv } };
      }

      /** Types Ctrl-C into the terminal once the output matches `when`: the line discipline sends SIGINT. */
      function interruptInTerminal(args: string[], when: RegExp) {
        const { args: scriptArgs, env } = terminalCommand(args);
        const child = spawn('script', scriptArgs, { cwd: dir, env, stdio: ['pipe', 'pipe', 'ignore'] });
        let output = '';
        let sent = false;
        return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`timed out; output so far:\n${output}`));
          }, 20_000);
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            output += chunk;
            if (!sent && when.test(plainText(output.replace(/\r\n/g, '\n')))) {
              sent = true;
              child.stdin.write('\u0003');
            }
          });
          child.on('close', (code) => {
            clearTimeout(timer);
            resolve({ code, output: plainText(output.replace(/\r\n/g, '\n')) });
          });
        });
      }

      it('Ctrl-C cancels the running calls, draws them cancelled, and exits 130', async () => {
        // Interrupt once `hang` runs and `quick` has ended (on a loaded machine it may not have yet).
        const r = await interruptInTerminal(
          ['hang.json', '--tools', 'tools.mjs'],
          /^(?=[\s\S]*hang\s+hang\s+\d+ms\n)(?=[\s\S]*✓ quick\s+notify)/,
        );
        expect(r.code).toBe(130);
        expect(r.output).toMatch(/- hang\s+hang\s+cancelled after \d+ms\n/);
        expect(r.output).toMatch(/- after\s+notify\s+cancelled\n/);
        expect(r.output).toMatch(/hang\.json: run interrupted after .*: 1 succeeded, 2 cancelled\n/);
      });

      it('Ctrl-C at the plan prompt runs nothing and exits 130', async () => {
        const r = await interruptInTerminal(
          ['lazy.json', '--tools', 'tools.mjs', '--input', 'input.json'],
          /Run this plan\? \[y\/N\/e\(dit\)\] $/,
        );
        expect(r.code).toBe(130);
        expect(r.output).toMatch(/Run this plan\? \[y\/N\/e\(dit\)\] (\^C)?\n/);
        expect(r.output).toMatch(/lazy\.json: run interrupted after /);
        expect(ran()).toEqual([]);
      });
    },
  );

  describe('in-process, with a terminal on stdin and stderr', () => {
    function terminalIo(answers: string, env: Record<string, string> = { NO_COLOR: '1' }) {
      const out = { stdout: '', stderr: '' };
      const io = {
        stdout: { write: (text: string) => (out.stdout += text) },
        stderr: { isTTY: true, columns: 100, rows: 30, write: (text: string) => (out.stderr += text) },
        stdin: Object.assign(Readable.from([answers]), { isTTY: true }),
        env,
      };
      return { io, out };
    }

    /** `plan run <args>` from the temp dir, as on a terminal: what it drew on stderr, then stdout. */
    async function inTerminal(
      args: string[],
      options: { stdin?: string; env?: Record<string, string> } = {},
    ) {
      const { io, out } = terminalIo(options.stdin ?? '', options.env ?? {});
      const previous = process.cwd();
      process.chdir(dir);
      try {
        const code = await main(['run', ...args], io);
        return { code, output: out.stderr + out.stdout };
      } finally {
        process.chdir(previous);
      }
    }

    it('draws a live view in place, then the summary', async () => {
      const r = await inTerminal(['short.json', '--tools', 'tools.mjs']);
      expect(r.code).toBe(0);
      expect(r.output).toMatch(REDRAW);
      expect(r.output).toMatch(ANSI_ESCAPE);
      const plain = plainText(r.output);
      expect(plain).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] first\s+slow\s+\d+ms/);
      expect(plain).toMatch(/\d\/3 done · 2 running · \d+ms/);
      expect(plain).toMatch(/✓ first\s+slow\s+\d+ms\n/);
      expect(plain).toMatch(/✓ third\s+notify\s+\d+ms\n/);
      expect(plain).toMatch(/short\.json: run succeeded in .*, 3 calls: 3 succeeded\nstate: \{/);
      expect(plain).not.toMatch(/call:start/);
    });

    it('marks failed and upstream_failed calls; no colors with NO_COLOR', async () => {
      const r = await inTerminal(['fails.json', '--tools', 'tools.mjs'], { env: { NO_COLOR: '1' } });
      expect(r.code).toBe(3);
      expect(r.output).not.toMatch(COLOR);
      expect(r.output).toMatch(/✗ pay\s+pay\s+\d+ms {2}card declined \(DECLINED\)\n/);
      expect(r.output).toMatch(/- after\s+notify\s+upstream failed\n/);
    });

    it('shows a lazy plan and asks; y runs it, anything else rejects it', async () => {
      const yes = await inTerminal(['lazy.json', '--tools', 'tools.mjs', '--input', 'input.json'], {
        stdin: 'y\n',
      });
      expect(yes.code).toBe(0);
      const plain = plainText(yes.output);
      expect(plain).toMatch(/lazy\.json: lazy plan, 3 calls, 2 edges\n/);
      expect(plain).toMatch(/\n {2}fetch\s+get_user\s+\{"id":7\} {2}→ †state\.user\n/);
      expect(plain).toMatch(
        /\n {2}check\s+check_user {2}\{"name":†state\.user\.name\} {2}→ †state\.ok \|\| †state\.odd\n/,
      );
      // The dry run before the question: check branches, notify joins both ways; nothing ran yet.
      expect(plain).toContain(
        'dry run: 2 scenarios, 1 branch group\n' +
          '  #0  check=0  runs 3, skips none\n' +
          '  #1  check=1  runs 3, skips none\n' +
          '  critical path: fetch -> check -> notify (weight 3)\n' +
          '  max parallelism: 1 (level 0: fetch)\n' +
          'Run this plan? [y/N/e(dit)] ',
      );
      expect(ran()).toEqual(['get_user', 'check_user', 'notify']);
      rmSync(LOG, { force: true });
      const no = await inTerminal(['lazy.json', '--tools', 'tools.mjs', '--input', 'input.json'], {
        stdin: 'n\n',
      });
      expect(no.code).toBe(4);
      expect(ran()).toEqual([]);
    });

    it('asks before a call whose tool needs approval', async () => {
      const r = await inTerminal(['guarded.json', '--tools', 'tools.mjs'], { stdin: 'yes\n' });
      expect(r.code).toBe(0);
      expect(r.output).toMatch(/Run .*danger.* \(.*guarded.*\) with \{"target":"prod"\}\? \[y\/N\] /);
      expect(ran().sort()).toEqual(['guarded', 'notify']);
    });

    it('asks once per question and reads each answer from its own line', async () => {
      const { io, out } = terminalIo('y\ny\n');
      const code = await main(
        ['run', join(dir, 'guarded.json'), '--tools', join(dir, 'tools.mjs'), '--mode', 'lazy'],
        io,
      );
      expect(code).toBe(0);
      expect(out.stderr).toMatch(/guarded\.json: lazy plan, 2 calls/);
      expect(out.stderr).toMatch(
        /danger\s+guarded\s+\{"target":"prod"\} {2}→ †state\.d {2}\[needs approval\]\n/,
      );
      expect(out.stderr).toContain('Run this plan? [y/N/e(dit)] ');
      expect(out.stderr).toContain('Run danger (guarded) with {"target":"prod"}? [y/N] ');
      expect(out.stdout).toBe('');
    });

    it('takes the end of input for no', async () => {
      const { io } = terminalIo('');
      const code = await main(
        [
          'run',
          join(dir, 'lazy.json'),
          '--tools',
          join(dir, 'tools.mjs'),
          '--input',
          join(dir, 'input.json'),
        ],
        io,
      );
      expect(code).toBe(4);
      expect(ran()).toEqual([]);
    });
  });
});

describe('plan run --journal and --resume', () => {
  it('journals every event to the directory, and a resumed run reuses completed calls', async () => {
    const journal = join(dir, 'journal');
    const first = await run([
      'plan.json',
      '--tools',
      'tools.mjs',
      '--input',
      'input.json',
      '--journal',
      journal,
      '--json',
    ]);
    expect(first.code).toBe(0);
    expect(ran()).toEqual(['get_user', 'check_user', 'notify']);
    rmSync(LOG, { force: true });
    const again = await run([
      'plan.json',
      '--tools',
      'tools.mjs',
      '--input',
      'input.json',
      '--journal',
      journal,
      '--resume',
      '--json',
    ]);
    expect(again.code).toBe(0);
    // Every call completed in the journaled run: nothing runs again, the state is the same.
    expect(existsSync(LOG)).toBe(false);
    expect(parseJson(again.stdout).state).toEqual(parseJson(first.stdout).state);
  });

  it('--resume without --journal is a usage error', async () => {
    expectUsageError(
      await run(['plan.json', '--tools', 'tools.mjs', '--resume']),
      /--resume needs --journal/,
    );
  });
});

describe('plan run --journal errors', () => {
  it('a journal directory that cannot be made is a usage error, with one line', async () => {
    expectUsageError(
      await run([
        'plan.json',
        '--tools',
        'tools.mjs',
        '--input',
        'input.json',
        '--journal',
        join(dir, 'tools.mjs', 'journal'),
      ]),
      /cannot create the journal directory .*a part of the path is a file/,
    );
  });
});
