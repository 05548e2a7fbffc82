/**
 * `plan eval` reads folders a model's output filled: nothing in them may steer a read outside
 * the folder, hang the scorer or exhaust it. Each hostile sample becomes a per-sample loss with
 * its reason; the others are still scored.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scoreDirs, scorePlans, type EvalSample, type SampleScore } from '../../src/import/index.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/eval/gold/identical/', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'plan-eval-hostile-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A gold and a predicted folder, each with the fixture sample under every id in `ids`. */
function dirs(name: string, ids: readonly string[]): { gold: string; predicted: string } {
  const gold = join(root, name, 'gold');
  const predicted = join(root, name, 'predicted');
  for (const id of ids) {
    cpSync(FIXTURE, join(gold, id), { recursive: true });
    cpSync(FIXTURE, join(predicted, id), { recursive: true });
  }
  mkdirSync(gold, { recursive: true });
  mkdirSync(predicted, { recursive: true });
  return { gold, predicted };
}

function byId(samples: readonly SampleScore[], id: string): SampleScore {
  return samples.find((s) => s.id === id)!;
}

describe('plan eval on hostile folders', () => {
  it('refuses a predicted sample folder that is a symbolic link out of the folder', async () => {
    const { gold, predicted } = dirs('symlink-dir', ['good', 'linked']);
    const outside = join(root, 'outside-sample');
    cpSync(FIXTURE, outside, { recursive: true });
    rmSync(join(predicted, 'linked'), { recursive: true });
    symlinkSync(outside, join(predicted, 'linked'));
    const result = await scoreDirs({ gold, predicted });
    expect(byId(result.samples, 'good').win).toBe(true);
    expect(byId(result.samples, 'linked')).toMatchObject({ win: false, reason: 'unreadable' });
    expect(byId(result.samples, 'linked').error).toMatch(/symbolic link/);
  });

  it('refuses a plan.json or tools.json that is a symbolic link (to /etc/passwd, say)', async () => {
    const { gold, predicted } = dirs('symlink-file', ['plan-link', 'tools-link']);
    rmSync(join(predicted, 'plan-link', 'plan.json'));
    symlinkSync('/etc/passwd', join(predicted, 'plan-link', 'plan.json'));
    rmSync(join(predicted, 'tools-link', 'tools.json'));
    symlinkSync(join(FIXTURE, 'tools.json'), join(predicted, 'tools-link', 'tools.json'));
    const result = await scoreDirs({ gold, predicted });
    for (const id of ['plan-link', 'tools-link']) {
      expect(byId(result.samples, id)).toMatchObject({ win: false, reason: 'unreadable' });
      expect(byId(result.samples, id).error).toMatch(/symbolic link/);
    }
  });

  it('refuses a gold sample folder that is a symbolic link', async () => {
    const { gold, predicted } = dirs('gold-link', ['good']);
    symlinkSync(join(gold, 'good'), join(gold, 'alias'));
    cpSync(FIXTURE, join(predicted, 'alias'), { recursive: true });
    const result = await scoreDirs({ gold, predicted });
    expect(byId(result.samples, 'alias')).toMatchObject({ reason: 'unreadable' });
    expect(byId(result.samples, 'good').win).toBe(true);
  });

  it('refuses ids that are not plain folder names, and shows them escaped', async () => {
    const { gold, predicted } = dirs('names', ['good']);
    const odd = 'bad\u001b[31mname';
    cpSync(FIXTURE, join(gold, odd), { recursive: true });
    cpSync(FIXTURE, join(predicted, odd), { recursive: true });
    const result = await scoreDirs({ gold, predicted });
    expect(byId(result.samples, odd)).toMatchObject({ win: false, reason: 'unreadable' });
    expect(byId(result.samples, odd).error).toMatch(/not a plain folder name/);
    const { formatEvalTable } = await import('../../src/cli/output/index.js');
    const table = formatEvalTable(result);
    expect(table).not.toContain('\u001b');
    expect(table).toContain('bad\\u001b[31mname');
  });

  it('refuses a file over the size limit unread (a 50 MB plan), and unreadable JSON, per sample', async () => {
    const { gold, predicted } = dirs('sizes', ['good', 'huge', 'broken']);
    writeFileSync(join(predicted, 'huge', 'plan.json'), Buffer.alloc(50 * 1024 * 1024, 0x20));
    writeFileSync(join(predicted, 'broken', 'tools.json'), '{"tools": [');
    const result = await scoreDirs({ gold, predicted });
    expect(byId(result.samples, 'huge')).toMatchObject({ reason: 'unreadable' });
    expect(byId(result.samples, 'huge').error).toMatch(/over the 16777216-byte limit/);
    expect(byId(result.samples, 'broken')).toMatchObject({ reason: 'unreadable' });
    expect(byId(result.samples, 'broken').error).toMatch(/not JSON/);
    expect(byId(result.samples, 'good').win).toBe(true);
  });

  it('a plan that is not JSON is scored as a plan that does not compile, with its diagnostic', async () => {
    const { gold, predicted } = dirs('syntax', ['bad']);
    writeFileSync(join(predicted, 'bad', 'plan.json'), '[{"type": "plan", "plan": [');
    const score = (await scoreDirs({ gold, predicted })).samples[0]!;
    expect(score).toMatchObject({ compiles: false, win: false, reason: 'not_compiled' });
    expect(score.diagnostics[0]!.code).toMatch(/^E_/);
  });

  it('bounds the predicted folder: ids not in gold are counted, and only the first 100 listed', async () => {
    const { gold, predicted } = dirs('many', ['good']);
    for (let i = 0; i < 2_000; i++) mkdirSync(join(predicted, `x${String(i).padStart(4, '0')}`));
    const result = await scoreDirs({ gold, predicted });
    expect(result.extraPredictedCount).toBe(2_000);
    // The first 100 in id order, whatever order the file system listed them in.
    expect(result.extraPredicted).toEqual(
      Array.from({ length: 100 }, (_, i) => `x${String(i).padStart(4, '0')}`),
    );
    expect(result.samples).toHaveLength(1);
    rmSync(predicted, { recursive: true });
  });

  it('refuses a gold folder of more samples than maxSamples before scoring any', async () => {
    const { gold, predicted } = dirs('too-many', ['a', 'b', 'c']);
    await expect(scoreDirs({ gold, predicted, maxSamples: 2 })).rejects.toThrow(RangeError);
  });

  it('bounds a plan of many calls: past maxCalls it does not compile (E_LIMIT); a 10k-call plan is scored', async () => {
    const tools = {
      tools: [{ name: 'noop', inputSchema: { type: 'object' }, outputSchema: { type: 'integer' } }],
    };
    const calls = Array.from({ length: 10_000 }, (_, i) => ({ _tool: 'noop', n: i }));
    const gold: EvalSample = { plan: [{ type: 'plan', plan: calls.slice(0, 2) }], tools };
    const predicted: EvalSample = { plan: [{ type: 'plan', plan: calls }], tools };
    const limited = await scorePlans({ gold: { s: gold }, predicted: { s: predicted }, maxCalls: 1000 });
    expect(limited.samples[0]).toMatchObject({ compiles: false, reason: 'not_compiled' });
    expect(limited.samples[0]!.diagnostics.map((d) => d.code)).toContain('E_LIMIT');
    const scored = await scorePlans({ gold: { s: gold }, predicted: { s: predicted } });
    // 2 gold calls among 10,000 predicted ones: recall 1, precision 2/10,000.
    expect(scored.samples[0]!.toolF1.recall).toBe(1);
    expect(scored.samples[0]!.toolF1.precision).toBe(2 / 10_000);
    expect(scored.samples[0]).toMatchObject({
      compiles: true,
      partialMatch: 1,
      win: false,
      reason: 'output_differs',
    });
  });

  it('a predicted plan whose run does not end in time is cancelled: a loss, not a hang', async () => {
    const tools = {
      tools: [{ name: 'noop', inputSchema: { type: 'object' }, outputSchema: { type: 'integer' } }],
    };
    // 20,000 calls in one chain cannot all run within 1 ms.
    const chain = Array.from({ length: 20_000 }, (_, i) => ({
      _id: `c${i}`,
      _tool: 'noop',
      ...(i > 0 && { after: `†state.c${i - 1}` }),
      _outputPath: `†state.c${i}`,
    }));
    const gold: EvalSample = { plan: [{ type: 'plan', plan: chain.slice(0, 1) }], tools };
    const predicted: EvalSample = { plan: [{ type: 'plan', plan: chain }], tools };
    const result = await scorePlans({
      gold: { s: gold },
      predicted: { s: predicted },
      maxCalls: 20_000,
      runTimeoutMs: 1,
    });
    expect(result.samples[0]).toMatchObject({ win: false });
    expect(['call_failed', 'gold_failed']).toContain(result.samples[0]!.reason);
    expect(result.samples[0]!.error).toMatch(/took longer than 1 ms/);
  });
});
