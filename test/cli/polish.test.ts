/**
 * The CLI's rough edges, smoothed: validate and graph say what they did not check, --report
 * says where it wrote, --concurrency takes 'unlimited' (and run() takes Infinity), the package
 * installs `planmode` too, and the help texts say what the code does. In process through main().
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/run/run.js';
import { defineTool } from '../../src/tools/tool.js';
import { errorsOf } from '../schemas/ajv.js';
import { MANIFEST, PLANS, ROOT, tempDir } from './helpers.js';
import { expectOneLineUsageError, planInProcess } from './in-process.js';

const { dir, cleanup } = tempDir({
  'plan.json': PLANS.valid,
  'no-input.json': [{ _tool: 'notify', message: 'hi' }],
  'unknown-tool.json': [
    { _tool: 'getWeather', city: 'Paris' },
    { _tool: 'getWeather', city: 'Rome' },
    { _tool: 'notify', message: 'hi' },
  ],
  'tools.json': MANIFEST,
  'input.json': { id: 7 },
  'tools.mjs': `export const tools = ${JSON.stringify(MANIFEST.tools)}.map((t) => ({ ...t, execute: async () => ({ name: 'Ada' }) }));\n`,
});
mkdirSync(join(dir, 'sub'));
afterAll(cleanup);

const plan = (args: string[]) => planInProcess(args, '', { cwd: dir });

describe('validate and graph say which checks they skipped', () => {
  it('without --tools: a note names the calls and tools not checked; the exit code stays 0', async () => {
    const r = await plan(['validate', 'unknown-tool.json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'unknown-tool.json: valid, 3 calls, 0 edges, 0 warnings\n' +
        'plan: note: no --tools given: tool names and arguments were not checked ' +
        '(3 calls use tools not checked: getWeather, notify); pass --tools <file> to check them\n',
    );
    const checked = await plan(['validate', 'unknown-tool.json', '--tools', 'tools.json']);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/error E_UNKNOWN_TOOL: unknown tool "getWeather"/);
    expect(checked.stderr).not.toMatch(/plan: note:/);
  });

  it('without input values: a note says †input reads were not checked', async () => {
    const r = await plan(['validate', 'plan.json', '--tools', 'tools.json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^plan: note: no --input given: †input reads were not checked/m);
    const given = await plan(['validate', 'plan.json', '--tools', 'tools.json', '--input', 'input.json']);
    expect(given.stderr).not.toMatch(/plan: note:/);
    // A plan that reads no input has nothing to skip.
    expect((await plan(['validate', 'no-input.json', '--tools', 'tools.json'])).stderr).not.toMatch(/note/);
  });

  it('--json carries the skipped checks, as the schema describes', async () => {
    const cases: [string[], string[]][] = [
      [['plan.json'], ['tools', 'arguments', 'input']],
      [['plan.json', '--tools', 'tools.json'], ['input']],
      [['plan.json', '--tools', 'tools.json', '--input', 'input.json'], []],
      [['unknown-tool.json', '--tools', 'tools.json'], []],
    ];
    for (const [args, skipped] of cases) {
      const r = await plan(['validate', ...args, '--json']);
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout);
      expect(out.skipped, args.join(' ')).toEqual(skipped);
      expect(errorsOf('validate-output.schema.json', out)).toEqual([]);
    }
    expect(
      errorsOf('validate-output.schema.json', {
        ...JSON.parse((await plan(['validate', 'plan.json', '--json'])).stdout),
        skipped: ['nope'],
      }),
    ).not.toEqual([]);
  });

  it('graph notes unchecked tools on stderr, and keeps stdout for the picture', async () => {
    const r = await plan(['graph', 'unknown-tool.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^%% .*\nflowchart/);
    expect(r.stderr).toMatch(/^plan: note: no --tools given: tool names and arguments were not checked/);
    expect((await plan(['graph', 'plan.json', '--tools', 'tools.json'])).stderr).toBe('');
  });
});

describe('--report says where it wrote', () => {
  it('plan run and plan simulate print the absolute path on stderr (not with --json)', async () => {
    const file = join(dir, 'sub', '..', 'run.html');
    const r = await plan([
      'run',
      'plan.json',
      '--tools',
      'tools.mjs',
      '--input',
      'input.json',
      '--report',
      file,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`\\nplan: report written to ${escape(join(dir, 'run.html'))}\\n$`));
    expect(existsSync(join(dir, 'run.html'))).toBe(true);

    const quiet = await plan([
      'run',
      'plan.json',
      '--tools',
      'tools.mjs',
      '--input',
      'input.json',
      '--report',
      file,
      '--json',
    ]);
    expect(quiet.stderr).toBe('');

    const sim = await plan([
      'simulate',
      'plan.json',
      '--tools',
      'tools.json',
      '--input',
      'input.json',
      '--report',
      'sim.html',
    ]);
    expect(sim.code).toBe(0);
    expect(sim.stderr).toMatch(new RegExp(`\\nplan: report written to ${escape(join(dir, 'sim.html'))}\\n$`));
  });
});

describe('concurrency without a bound', () => {
  it('plan run takes --concurrency unlimited or Infinity; a bad value names both forms', async () => {
    for (const value of ['unlimited', 'Infinity']) {
      const r = await plan([
        'run',
        'plan.json',
        '--tools',
        'tools.mjs',
        '--input',
        'input.json',
        '--concurrency',
        value,
        '--json',
      ]);
      expect(r.code, value).toBe(0);
      expect(JSON.parse(r.stdout).status).toBe('succeeded');
    }
    expectOneLineUsageError(
      await plan(['run', 'plan.json', '--tools', 'tools.mjs', '--concurrency', 'lots']),
      /--concurrency must be a whole number >= 1, not 'lots' \(or 'unlimited' for no bound\)/,
    );
  });

  it('plan worker refuses it, saying why', async () => {
    expectOneLineUsageError(
      await plan(['worker', '--tools', 'tools.mjs', '--concurrency', 'unlimited']),
      /--concurrency must be a whole number >= 1 here, not 'unlimited': a worker takes that many jobs/,
    );
  });

  it('run({ concurrency: Infinity }) starts every ready call at once', async () => {
    // Each call waits until all of them have started: a bound below 24 would never let that happen.
    const n = 24;
    let started = 0;
    let release!: () => void;
    const all = new Promise<void>((resolve) => (release = resolve));
    const gate = defineTool({
      name: 'gate',
      execute: async () => {
        if (++started === n) release();
        await all;
        return started;
      },
    });
    const calls = Array.from({ length: n }, (_, i) => ({ _tool: 'gate', _outputPath: `†state.c${i}` }));
    const result = await run(calls, { tools: [gate], concurrency: Infinity });
    expect(result.status).toBe('succeeded');
    expect(started).toBe(n);
    for (const bad of [-Infinity, Number.NaN, 0, 1.5]) {
      const error = await run(calls, { tools: [gate], concurrency: bad }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(
        /^Expected concurrency to be a whole number >= 1, or Infinity for no bound, got .*(Infinity|NaN|0|1\.5)/,
      );
    }
  });
});

describe('the planmode bin and the help texts', () => {
  it('package.json installs the same program as plan and planmode', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.bin).toEqual({ plan: 'bin/plan.js', planmode: 'bin/plan.js' });
  });

  it('plan --help says both names work', async () => {
    const r = await plan(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/installed as both plan and planmode\./);
    // planmode is not on the registry: the help must not promise that npx fetches it.
    expect(r.stdout).toMatch(/not on the npm registry/);
    expect(r.stdout).not.toMatch(/without installing/);
  });

  it('plan run --help tells how latent tools get their results, and what the output is', async () => {
    const r = await plan(['run', '--help']);
    expect(r.code).toBe(0);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).not.toMatch(/has none yet/);
    expect(text).toMatch(/may export latent\(\{ call, tool,\s+definition, args, signal \}\)/);
    expect(text).toMatch(/a latent call without one is E_NO_OUTPUT/);
    expect(text).toMatch(/off one, a summary when the run ends/);
    expect(text).toMatch(/--concurrency <n> most tool calls running at once, or 'unlimited'/);
    expect(text).toMatch(/"durationMs", "approvalWaitMs"/);
  });

  it("a latent tool of a lazy plan gets its result from the module's latent(); an eager plan's call without _output is E_NO_OUTPUT", async () => {
    const { dir: latentDir, cleanup: done } = tempDir({
      'tools.mjs': `export const tools = [{ name: 'summarize', latent: true }];
export const latent = ({ args }) => 'summary of ' + args.text;\n`,
      'plan.json': [{ _id: 'sum', _tool: 'summarize', text: 'a book', _outputPath: '†state.summary' }],
    });
    try {
      const lazy = ['run', 'plan.json', '--tools', 'tools.mjs', '--mode', 'lazy', '--yes', '--json'];
      const r = await planInProcess(lazy, '', { cwd: latentDir });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).state).toEqual({ summary: 'summary of a book' });
      // Eager, nothing asks the model: the call must carry its result, and the module's latent() is not used.
      const eager = await planInProcess(['run', 'plan.json', '--tools', 'tools.mjs', '--json'], '', {
        cwd: latentDir,
      });
      expect(eager.code).toBe(1);
      expect(eager.stderr).toMatch(
        /plan\.json:\d+:\d+: error E_NO_OUTPUT: the call to latent tool "summarize" has no _output/,
      );
    } finally {
      done();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
