/** `--limit name=value` and the bounds on what the CLI reads: files, input and state. */
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { expectOneLineUsageError, planInProcess } from './in-process.js';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

const { dir, cleanup } = tempDir({
  'deep-arg.json': [{ _tool: 'echo', v: nested(5), _outputPath: '†state.v' }],
  'plan.json': [{ _tool: 'echo', v: '†input.q', _outputPath: '†state.v' }],
  'deep-input.json': { q: nested(100) },
  'input.json': { q: 1 },
  'tools.mjs': 'export const tools = [{ name: "echo", execute: (a) => a.v }];\n',
  'big-result.mjs': 'export const tools = [{ name: "echo", execute: () => "x".repeat(5000) }];\n',
});
afterAll(cleanup);
const at = (name: string) => `${dir}/${name}`;

describe('--limit', () => {
  it('lowers a limit for validate: the plan that passed is E_LIMIT (exit 1) with the flag named in the hint', async () => {
    expect((await planInProcess(['validate', at('deep-arg.json')])).code).toBe(0);
    const limited = await planInProcess(['validate', at('deep-arg.json'), '--limit', 'maxDepth=4', '--json']);
    expect(limited.code).toBe(1);
    const out = JSON.parse(limited.stdout) as { diagnostics: { code: string; pointer: string }[] };
    expect(out.diagnostics.map((d) => [d.code, d.pointer])).toEqual([['E_LIMIT', '/0/v/a/a/a']]);
  });

  it('reaches the run: a result over maxTextLength fails its call (exit 3)', async () => {
    const ran = await planInProcess([
      'run',
      at('plan.json'),
      '--tools',
      at('big-result.mjs'),
      '--input',
      at('input.json'),
      '--limit',
      'maxTextLength=1000',
      '--json',
    ]);
    expect(ran.code).toBe(3);
    const out = JSON.parse(ran.stdout) as { calls: { error: { code: string } }[] };
    expect(out.calls[0]!.error.code).toBe('LIMIT');
  });

  it.each([
    [['maxDepth'], /--limit 'maxDepth' is not name=value/],
    [['maxDepth=x'], /is not name=value/],
    [['maxDepht=3'], /Unknown limit --limit maxDepht; the limits are maxCalls/],
    [['maxDepth=0'], /--limit maxDepth=N to be a whole number from 1 to 1000, got number 0/],
    [['maxDepth=5000'], /from 1 to 1000/],
  ])('--limit %j is exit 2 with one line', async (values, pattern) => {
    const args = ['validate', at('plan.json')];
    for (const value of values) args.push('--limit', value);
    expectOneLineUsageError(await planInProcess(args), pattern);
  });
});

describe('files the CLI reads are bounded', () => {
  it('an input file nested past maxDepth is exit 2 naming the file and the place', async () => {
    const result = await planInProcess([
      'run',
      at('plan.json'),
      '--tools',
      at('tools.mjs'),
      '--input',
      at('deep-input.json'),
    ]);
    expectOneLineUsageError(
      result,
      /input file '.*deep-input\.json' at \/q(\/a)+ nests deeper than 64 levels; .*--limit maxDepth/,
    );
  });

  it('a plan on standard input longer than maxTextLength is refused as it is read', async () => {
    const result = await planInProcess(['validate', '-', '--limit', 'maxTextLength=100'], 'x'.repeat(1_000));
    expectOneLineUsageError(
      result,
      /plan file '<stdin>' is longer than 100 characters \(limits\.maxTextLength\)/,
    );
  });

  it('a plan file that never ends (/dev/zero) is refused, not read forever', async () => {
    const result = await planInProcess(['validate', '/dev/zero', '--limit', 'maxTextLength=1000']);
    expectOneLineUsageError(result, /plan file '\/dev\/zero' is longer than 1000 characters/);
  });
});
