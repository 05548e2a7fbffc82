/**
 * Tools modules that hang while loading, or whose exports and definitions throw or hold bad
 * values: every command that loads tools exits 2 with one line, in-process through main().
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { expectOneLineUsageError, planInProcess } from './in-process.js';

const { dir, cleanup } = tempDir({
  'plan.json': [{ _id: 'a', _tool: 'echo', _outputPath: '†state.a' }],
  'hangs.mjs': 'await new Promise(() => {});\nexport const tools = [];\n',
  'getter-name.mjs':
    'export const tools = [{ get name() { throw new Error("name getter boom"); }, execute: () => 1 }];\n',
  'getter-schema.mjs':
    'export const tools = [{ name: "echo", get inputSchema() { throw new Error("schema getter boom"); }, execute: () => 1 }];\n',
  'proxy-tool.mjs':
    'export const tools = [new Proxy({}, { get() { throw new Error("tool trap boom"); } })];\n',
  'proxy-tools.mjs':
    'export const tools = new Proxy([], { get() { throw new Error("array trap boom"); } });\n',
  'getter-entry.mjs':
    'export const tools = [];\nObject.defineProperty(tools, 0, { enumerable: true, get() { throw new Error("entry boom"); } });\n',
  'bad-retries.mjs':
    'export const tools = [{ name: "echo", retries: { limit: 2, delayMs: "x", factor: -3 }, execute: () => 1 }];\n',
  'typo-retries.mjs':
    'export const tools = [{ name: "echo", retries: { limit: 2, dealyMs: 100 }, execute: () => 1 }];\n',
  'bad-timeout.mjs': 'export const tools = [{ name: "echo", timeoutMs: 1e12, execute: () => 1 }];\n',
  'echo.mjs': 'export const tools = [{ name: "echo", execute: () => 1 }];\n',
});
afterAll(cleanup);

const plan = (args: string[]) => planInProcess(args);

/** Exit 2, nothing on stdout, and exactly one `plan: error:` line that matches. */
async function usageError(args: string[], pattern: RegExp): Promise<void> {
  expectOneLineUsageError(await planInProcess(args), pattern);
}

const at = (name: string) => `${dir}/${name}`;

describe('--load-timeout', () => {
  const hung =
    /tools module '.*hangs\.mjs' did not finish loading within 200 ms \(a top-level await that never settles\?\); fix the module or raise --load-timeout/;

  it.each([['validate'], ['graph'], ['simulate'], ['run']])(
    'plan %s gives up on a module whose top-level await never settles',
    async (command) => {
      await usageError([command, at('plan.json'), '--tools', at('hangs.mjs'), '--load-timeout', '200'], hung);
    },
  );

  it('plan worker and plan agent too', async () => {
    await usageError(['worker', '--tools', at('hangs.mjs'), '--load-timeout', '200'], hung);
    await usageError(
      [
        'agent',
        'do it',
        '--tools',
        at('hangs.mjs'),
        '--load-timeout',
        '200',
        '--model',
        'scripted:none.json',
      ],
      hung,
    );
  });

  it('a module that loads in time is used', async () => {
    const r = await plan([
      'run',
      at('plan.json'),
      '--tools',
      at('echo.mjs'),
      '--load-timeout',
      '60000',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).state).toEqual({ a: 1 });
  });

  it.each([
    ['0', /--load-timeout must be a whole number >= 1, not '0'/],
    ['soon', /--load-timeout must be a whole number >= 1, not 'soon'/],
    [
      '2147483648',
      /--load-timeout must be at most 2147483647 ms \(about 24\.8 days, the longest a timer can wait\), not '2147483648'/,
    ],
  ])('rejects --load-timeout %s', async (value, message) => {
    await usageError(['validate', at('plan.json'), '--load-timeout', value], message);
    await usageError(['worker', '--tools', at('echo.mjs'), '--load-timeout', value], message);
  });
});

describe('millisecond flags stay within what a timer can wait', () => {
  it('--timeout, --lock-duration and --stalled-interval', async () => {
    await usageError(
      ['run', at('plan.json'), '--tools', at('echo.mjs'), '--timeout', '2147483648'],
      /--timeout must be at most 2147483647 ms .*not '2147483648'/,
    );
    await usageError(
      ['worker', '--tools', at('echo.mjs'), '--lock-duration', '9999999999'],
      /--lock-duration must be at most 2147483647 ms .*not '9999999999'/,
    );
    await usageError(
      ['worker', '--tools', at('echo.mjs'), '--stalled-interval', '2147483648'],
      /--stalled-interval must be at most 2147483647 ms/,
    );
  });
});

describe('exports and definitions that throw when read', () => {
  it.each([
    ['getter-name.mjs', /tool 0: reading "name" threw: name getter boom$/m],
    ['getter-schema.mjs', /tool 'echo': reading "inputSchema" threw: schema getter boom$/m],
    ['proxy-tool.mjs', /tool 0: reading "name" threw: tool trap boom$/m],
    [
      'proxy-tools.mjs',
      /reading the length of export "tools" threw: array trap boom; fix the tools module$/m,
    ],
    ['getter-entry.mjs', /reading tools\[0\] threw: entry boom; fix the tools module$/m],
  ])('%s: exit 2 with one line', async (module, message) => {
    await usageError(['validate', at('plan.json'), '--tools', at(module)], message);
    await usageError(['run', at('plan.json'), '--tools', at(module)], message);
  });
});

describe('definition values', () => {
  it('a bad retry policy names the tool, the fields and the values', async () => {
    await usageError(
      ['run', at('plan.json'), '--tools', at('bad-retries.mjs')],
      /tool 'echo': "retries\.delayMs" must be a number of milliseconds from 0 to 2147483647, not "x"; tool 'echo': "retries\.factor" must be a finite number >= 1, not -3/,
    );
  });

  it('a typo in a retry policy does not pass silently', async () => {
    await usageError(
      ['validate', at('plan.json'), '--tools', at('typo-retries.mjs')],
      /"retries" has unknown key "dealyMs"/,
    );
  });

  it('a timeout beyond what a timer can wait', async () => {
    await usageError(
      ['run', at('plan.json'), '--tools', at('bad-timeout.mjs')],
      /tool 'echo': "timeoutMs" must be a number of milliseconds from 0 to 2147483647, not 1000000000000/,
    );
  });
});
