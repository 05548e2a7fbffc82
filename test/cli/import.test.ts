/** `plan import`: samples written as DIR/<id>/plan.json and tools.json, problems with their lines, exit codes. */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectUsageError, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const SPEC = [
  {
    name: 'Distance',
    query_parameters: { from: { type: 'string', required: true } },
    output_parameters: { km: { type: 'number' } },
  },
];
const DATA = [
  { input: 'How far?', output: [{ name: 'Distance', arguments: { from: 'Paris' }, label: 'var1' }] },
  { input: 'broken' },
  { input: 'And the answer', output: [{ name: 'var_result', arguments: { km: '$var1.km$ km' } }] },
];

const { dir, cleanup } = tempDir({ 'trip-data.json': DATA, 'trip-spec.json': SPEC, 'bad.json': '[{' });
afterAll(cleanup);
const run = (args: string[], stdin = '') => planInProcess(args, stdin, { cwd: dir });

describe('plan import', () => {
  it('writes each sample, names the rows it could not read, and exits 1 when some failed', async () => {
    const r = await run(['import', 'nestful', 'trip-data.json', '--spec', 'trip-spec.json', '--out', 'out']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      'trip-data.json:17: warning W_IMPORT_EMBEDDED_REFERENCE [trip-3]: call 0 (var_result), argument "km": "$var1.km$ km" has references inside longer text, which a plan passes as text (to pass the values, compute them in a call of their own)',
      'trip-data.json:17: warning W_IMPORT_UNKNOWN_REFERENCE [trip-3]: call 0 (var_result), argument "km": "$var1.km$ km" names "var1", which no call of the sample has',
      'trip-data.json:14: error E_IMPORT_ROW [trip-2]: sample 2: a sample needs "output": the array of its calls; it is left out',
      'imported 2 sample(s) into out (1 with warnings); 1 row(s) could not be imported',
    ]);
    const plan = JSON.parse(readFileSync(join(dir, 'out/trip-1/plan.json'), 'utf8')) as unknown;
    expect(plan).toEqual([
      { type: 'input', task: 'How far?' },
      {
        type: 'plan',
        mode: 'lazy',
        plan: [{ _id: 'var1', _tool: 'Distance', from: 'Paris', _outputPath: '†state.var1' }],
      },
    ]);
    const tools = JSON.parse(readFileSync(join(dir, 'out/trip-1/tools.json'), 'utf8')) as {
      tools: { name: string }[];
    };
    expect(tools.tools.map((t) => t.name)).toEqual(['Distance']);
    expect(existsSync(join(dir, 'out/trip-2'))).toBe(false);
    // What it wrote is a plan `plan validate` takes as it is.
    const valid = await run(['validate', 'out/trip-1/plan.json', '--tools', 'out/trip-1/tools.json']);
    expect(valid.code).toBe(0);
  });

  it('prints one JSON object with --json', async () => {
    const r = await run([
      'import',
      'nestful',
      'trip-data.json',
      '--spec',
      'trip-spec.json',
      '--out',
      'json-out',
      '--json',
      '--id-prefix',
      'x',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const json = JSON.parse(r.stdout) as { samples: { id: string; calls: number }[]; errors: unknown[] };
    expect(json.samples.map((s) => [s.id, s.calls])).toEqual([
      ['x-1', 1],
      ['x-3', 1],
    ]);
    expect(json.errors).toHaveLength(1);
  });

  it('imports NesTools from standard input, and exits 0 when every row imported', async () => {
    const line = JSON.stringify({
      test_id: 1,
      api: [{ api_name: 'a', parameters: {}, required: [], responses: { x: { type: 'int' } } }],
      task: 't',
      call: [{ api_name: 'a', parameters: {}, responses: ['API_call_0'] }],
    });
    const r = await run(['import', 'nestools', '-', '--out', 'stdin-out', '--mode', 'eager'], `${line}\n`);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'imported 1 sample(s) into stdin-out (0 with warnings); 0 row(s) could not be imported\n',
    );
    const plan = JSON.parse(readFileSync(join(dir, 'stdin-out/nestools-1/plan.json'), 'utf8')) as {
      mode?: string;
    }[];
    expect(plan[1]!.mode).toBe('eager');
  });

  it('exits 2 when a whole file cannot be used, and for bad flags', async () => {
    const noSpec = await run(['import', 'nestful', 'trip-data.json', '--out', 'o2']);
    expect(noSpec.code).toBe(2);
    expect(noSpec.stderr).toContain(
      '<spec>: error E_IMPORT_FILE: NESTFUL data needs its API spec (pass the *-spec.json file',
    );
    const notJson = await run(['import', 'nestful', 'bad.json', '--spec', 'trip-spec.json', '--out', 'o3']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^bad\.json:1: error E_IMPORT_FILE: the data is not JSON: /);
    expectUsageError(
      await run(['import', 'csv', 'trip-data.json', '--out', 'o']),
      /the format must be one of nestful, nestools, llmcompiler, not 'csv'/,
    );
    expectUsageError(await run(['import', 'nestools', 'trip-data.json']), /--out <dir> is required/);
    expectUsageError(
      await run(['import', 'nestools', 'trip-data.json', '--out', 'o', '--id-prefix', '../up']),
      /--id-prefix must be a plain folder name/,
    );
    expectUsageError(
      await run(['import', 'nestools', 'missing.jsonl', '--out', 'o']),
      /data file 'missing.jsonl' does not exist/,
    );
  });

  it('never writes through a link planted in the output folder', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    mkdirSync(join(dir, 'trap'));
    symlinkSync(outside, join(dir, 'trap/trip-1'));
    mkdirSync(join(dir, 'trap/trip-3'));
    writeFileSync(join(outside, 'target.json'), 'keep');
    symlinkSync(join(outside, 'target.json'), join(dir, 'trap/trip-3/plan.json'));
    const r = await run(['import', 'nestful', 'trip-data.json', '--spec', 'trip-spec.json', '--out', 'trap']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '[trip-1]: cannot write trap/trip-1: it exists and is not a folder (a link or a file); remove it',
    );
    expect(r.stderr).toMatch(/\[trip-3\]: cannot write trap\/trip-3: .*ELOOP/);
    expect(readFileSync(join(outside, 'target.json'), 'utf8')).toBe('keep');
    expect(existsSync(join(outside, 'plan.json'))).toBe(false);
  });
});
