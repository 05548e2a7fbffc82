import { afterAll, describe, expect, it } from 'vitest';
import { errorsOf } from '../schemas/ajv.js';
import { expectUsageError, ROOT, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const { dir, cleanup } = tempDir({
  'tools.json': {
    tools: [
      // allOf: compile's type check does not follow it (E_REF_TYPE would catch a plain number),
      // so the mismatch is left for the dry run to find.
      { name: 'thermometer', outputSchema: { allOf: [{ type: 'number' }] } },
      { name: 'speak', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      { name: 'check', outputSchema: { type: 'boolean' } },
    ],
  },
  'mismatch.json': [
    { _id: 'temp', _tool: 'thermometer', _outputPath: '†state.temp' },
    { _id: 'say', _tool: 'speak', text: '†state.temp' },
  ],
  'branch.json': [
    { _id: 'ok', _tool: 'check', _outputPath: '†state.yes || †state.no' },
    { _id: 'onYes', _tool: 'speak', text: 'yes', flag: '†state.yes' },
    { _id: 'onNo', _tool: 'speak', text: 'no', flag: '†state.no' },
  ],
  'invalid.json': [{ _tool: 'speak', text: '†state.nothing' }],
});
afterAll(cleanup);

/** `plan simulate <args>` in this process, from the temp dir. */
const run = (args: string[]) => planInProcess(['simulate', ...args], '', { cwd: dir });

describe('plan simulate', () => {
  it('prints the scenarios, critical path and parallelism on stderr; exit 0', async () => {
    const r = await run(['branch.json', '--tools', 'tools.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'dry run: 2 scenarios, 1 branch group\n' +
        '  #0  ok=0  runs 2, skips onNo\n' +
        '  #1  ok=1  runs 2, skips onYes\n' +
        '  critical path: ok -> onYes (weight 2)\n' +
        '  max parallelism: 1 (level 0: ok)\n',
    );
  });

  it('--json prints exactly the SPEC 12 keys (and ours), valid against the schema', async () => {
    const r = await run(['branch.json', '--tools', 'tools.json', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      scenarios: [
        { choices: { ok: 0 }, run: ['ok', 'onYes'], skipped: ['onNo'], argumentErrors: [] },
        { choices: { ok: 1 }, run: ['ok', 'onNo'], skipped: ['onYes'], argumentErrors: [] },
      ],
      truncated: false,
      criticalPath: ['ok', 'onYes'],
      maxParallelism: 1, // onYes and onNo never run together
    });
    expect(errorsOf('simulate-output.schema.json', out)).toEqual([]);
  });

  it('an argument error: E_SIM_ARGS at the argument, exit 1', async () => {
    const r = await run(['mismatch.json', '--tools', 'tools.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^mismatch\.json:10:13: error E_SIM_ARGS: argument \/text of call "say" \(tool "speak"\) must be string, but †state\.temp \(written by call "temp", tool "thermometer"\) is number /m,
    );
    const json = await run(['mismatch.json', '--tools', 'tools.json', '--json']);
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout);
    expect(out.scenarios[0].argumentErrors).toEqual([
      expect.objectContaining({ call: 'say', path: '/text', writer: 'temp', line: 10, column: 13 }),
    ]);
    expect(errorsOf('simulate-output.schema.json', out)).toEqual([]);
  });

  it('an invalid plan: its diagnostics, exit 1; with --json an empty simulation and the diagnostics', async () => {
    const r = await run(['invalid.json', '--tools', 'tools.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/invalid\.json:\d+:\d+: error E_UNRESOLVED/);
    const json = await run(['invalid.json', '--tools', 'tools.json', '--json']);
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout);
    expect(out.scenarios).toEqual([]);
    expect(out.diagnostics[0].code).toBe('E_UNRESOLVED');
    expect(errorsOf('simulate-output.schema.json', out)).toEqual([]);
  });

  it('usage errors: exit 2, one line', async () => {
    expectUsageError(await run(['branch.json']), /needs --tools/);
    expectUsageError(
      await run(['branch.json', '--tools', 'tools.json', '--seed', 'x']),
      /--seed must be a whole number/,
    );
    expectUsageError(
      await run(['branch.json', '--tools', 'tools.json', '--max-scenarios', '0']),
      /--max-scenarios/,
    );
    expectUsageError(await run(['missing.json', '--tools', 'tools.json']), /missing\.json/);
  });

  it('--max-scenarios truncates', async () => {
    const out = JSON.parse(
      (await run(['branch.json', '--tools', 'tools.json', '--json', '--max-scenarios', '1'])).stdout,
    );
    expect(out.scenarios).toHaveLength(1);
    expect(out.truncated).toBe(true);
  });

  it('runs a bundled example', async () => {
    const example = `${ROOT}/fixtures/examples/payment-failure`;
    const r = await run([
      `${example}/plan.json`,
      '--tools',
      `${example}/tools.json`,
      '--input',
      `${example}/input.json`,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('#1  0=1  runs 1, skips 1\n');
  });
});
