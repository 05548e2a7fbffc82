import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { EvalResult } from '../../src/import/index.js';
import { expectOneLineUsageError, planInProcess } from './in-process.js';

const EVAL = fileURLToPath(new URL('../fixtures/eval/', import.meta.url));
const GOLD = join(EVAL, 'gold');
const PREDICTED = join(EVAL, 'predicted');
const empty = mkdtempSync(join(tmpdir(), 'plan-eval-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe('plan eval', () => {
  it('prints a table: a row per gold sample, the overall row, why samples lost, ids not in gold; exit 0', async () => {
    const result = await planInProcess(['eval', '--gold', GOLD, '--predicted', PREDICTED]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^sample\s+tool F1\s+arg F1\s+partial\s+exact\s+compiles\s+win\s+reason$/);
    expect(lines.find((l) => l.startsWith('identical'))).toMatch(
      /1\.000\s+1\.000\s+1\.000\s+yes\s+yes\s+yes$/,
    );
    expect(lines.find((l) => l.startsWith('swapped'))).toMatch(
      /1\.000\s+0\.875\s+0\.750\s+no\s+yes\s+no\s+output_differs$/,
    );
    expect(lines.find((l) => l.startsWith('missing'))).toMatch(/no\s+no\s+no\s+missing$/);
    expect(lines.find((l) => l.startsWith('overall (5)'))).toMatch(
      /0\.750\s+0\.675\s+0\.600\s+0\.400\s+0\.600\s+0\.400 \(2\/5\)\s+1 missing$/,
    );
    expect(result.stdout).toContain('not-compiling: E_UNKNOWN_TOOL at 12:18: unknown tool "get_dist"');
    expect(result.stdout).toContain('not in gold (1): extra');
  });

  it('--json prints the result object, the same one scoreDirs returns', async () => {
    const result = await planInProcess([
      'eval',
      '--gold',
      GOLD,
      '--predicted',
      PREDICTED,
      '--json',
      '--seed',
      '3',
    ]);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as EvalResult;
    expect(json.seed).toBe(3);
    expect(json.samples.map((s) => s.id)).toEqual([
      'identical',
      'missing',
      'not-compiling',
      'renamed',
      'swapped',
    ]);
    expect(json.overall).toMatchObject({ samples: 5, wins: 2, winRate: 0.4, missing: 1 });
    expect(json.samples[2]!.diagnostics[0]).toEqual({
      severity: 'error',
      code: 'E_UNKNOWN_TOOL',
      message: 'unknown tool "get_dist"',
      line: 12,
      column: 18,
    });
    expect(json.extraPredicted).toEqual(['extra']);
  });

  it('exits 2 with one line for a missing flag, a folder that does not exist, a file given as a folder, a bad seed', async () => {
    const missingFlag = await planInProcess(['eval', '--gold', GOLD]);
    expect(missingFlag.code).toBe(2);
    expect(missingFlag.stderr).toMatch(/--predicted/);
    expectOneLineUsageError(
      await planInProcess(['eval', '--gold', join(empty, 'nowhere'), '--predicted', PREDICTED]),
      /--gold .*cannot be read/,
    );
    expectOneLineUsageError(
      await planInProcess(['eval', '--gold', GOLD, '--predicted', join(GOLD, 'identical', 'plan.json')]),
      /--predicted .*is not a folder/,
    );
    expectOneLineUsageError(
      await planInProcess(['eval', '--gold', GOLD, '--predicted', PREDICTED, '--seed', '-1']),
      /--seed must be a whole number/,
    );
  });

  it('scores an empty gold folder as no samples (exit 0)', async () => {
    const result = await planInProcess(['eval', '--gold', empty, '--predicted', PREDICTED, '--json']);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as EvalResult;
    expect(json.overall).toMatchObject({ samples: 0, winRate: 0 });
    expect(json.extraPredictedCount).toBe(5);
  });
});

describe('schemas/eval-output.schema.json', () => {
  it('accepts what plan eval --json prints, and refuses a sample without its scores', async () => {
    const { errorsOf } = await import('../schemas/ajv.js');
    const result = await planInProcess(['eval', '--gold', GOLD, '--predicted', PREDICTED, '--json']);
    const json = JSON.parse(result.stdout) as EvalResult;
    expect(errorsOf('eval-output.schema.json', json)).toEqual([]);
    const { toolF1: _dropped, ...withoutToolF1 } = json.samples[0]!;
    expect(errorsOf('eval-output.schema.json', { ...json, samples: [withoutToolF1] })).not.toEqual([]);
  });
});
