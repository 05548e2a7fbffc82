import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES, grammarEngineReport } from '../compile/grammar-engine-rules.js';
import { strictModeViolations } from '../compile/strict-mode-rules.js';
import { MANIFEST, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const { dir, cleanup } = tempDir({ 'tools.json': MANIFEST });
afterAll(cleanup);
/** `plan <args>` in this process, from the temp dir. */
const run = (args: string[]) => planInProcess(args, '', { cwd: dir });
const WEATHER = join(import.meta.dirname, '../../fixtures/examples/weather-branch');

describe('plan schema', () => {
  it('prints the JSON Schema of a call array over exactly the given tools', async () => {
    const r = await run(['schema', '--tools', join(WEATHER, 'tools.json')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const schema = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(schema.type).toBe('array');
    const validate = new Ajv2020({ strict: false, logger: false }).compile(schema);
    expect(validate([{ _tool: 'getWeather', city: '†input.city', _outputPath: '†state.w' }])).toBe(true);
    expect(validate([{ _tool: 'getWether', city: 'Paris' }])).toBe(false);
  });

  it('prints a schema OpenAI strict mode accepts with --format openai-strict', async () => {
    const r = await run(['schema', '--tools', 'tools.json', '--format', 'openai-strict', '--mode', 'lazy']);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(strictModeViolations(schema)).toEqual([]);
    expect(Object.keys(schema.properties as object)).toEqual(['calls']);
    const solution = await run(['schema', '--tools', 'tools.json', '--shape', 'solution']);
    expect(Object.keys((JSON.parse(solution.stdout) as { properties: object }).properties)).toEqual([
      'calls',
      'output',
    ]);
  });

  it('prints a schema every grammar-based decoder turns into grammar with --format grammar', async () => {
    const r = await run(['schema', '--tools', join(WEATHER, 'tools.json'), '--format', 'grammar']);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as Record<string, unknown>;
    for (const engine of ENGINES) expect(grammarEngineReport(schema, engine).violations, engine).toEqual([]);
    expect(r.stdout).not.toContain('"anyOf"');
  });

  it('exits 2 with one line for a missing --tools, a bad choice or an unreadable tools file', async () => {
    for (const args of [
      ['schema'],
      ['schema', '--tools', 'tools.json', '--format', 'openai'],
      ['schema', '--tools', 'tools.json', '--mode', 'fast'],
      ['schema', '--tools', 'missing.json'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect((await run(['schema'])).stderr).toMatch(/needs --tools <file>/);
  });
});

describe('the flag choices of plan schema', () => {
  it('are the library lists, in the same order (the CLI keeps a copy so that --help loads no compiler)', async () => {
    const library = await import('../../src/compile/plan-schema/plan-schema.js');
    const cli = await import('../../src/cli/commands/flag-choices.js');
    expect(cli.PLAN_SCHEMA_MODES).toEqual(library.PLAN_SCHEMA_MODES);
    expect(cli.PLAN_SCHEMA_FORMATS).toEqual(library.PLAN_SCHEMA_FORMATS);
    expect(cli.PLAN_SCHEMA_SHAPES).toEqual(library.PLAN_SCHEMA_SHAPES);
  });
});
