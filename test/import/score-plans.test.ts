import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type EvalSample, scoreDirs, scorePlans, type ToolManifest } from '../../src/import/index.js';

const EVAL = fileURLToPath(new URL('../fixtures/eval/', import.meta.url));

function sample(dir: 'gold' | 'predicted', id: string): EvalSample {
  return {
    plan: readFileSync(`${EVAL}${dir}/${id}/plan.json`, 'utf8'),
    tools: JSON.parse(readFileSync(`${EVAL}${dir}/${id}/tools.json`, 'utf8')) as ToolManifest,
  };
}

const GOLD = sample('gold', 'identical');

/** The gold plan's calls, from its plan.json, to edit into a predicted plan. */
function goldCalls(): Record<string, unknown>[] {
  const document = JSON.parse(GOLD.plan as string) as [unknown, { plan: Record<string, unknown>[] }];
  return document[1].plan;
}

function planOf(calls: unknown[]): EvalSample {
  return { plan: [{ type: 'plan', mode: 'lazy', plan: calls }], tools: GOLD.tools };
}

async function scoreAgainstGold(predicted: EvalSample | undefined) {
  const result = await scorePlans({
    gold: { s: GOLD },
    predicted: predicted ? { s: predicted } : {},
    seed: 0,
  });
  return result.samples[0]!;
}

describe('scorePlans: NESTFUL metrics on hand-built pairs', () => {
  it('identical plans score 1.0 everywhere and win', async () => {
    const score = await scoreAgainstGold(sample('predicted', 'identical'));
    expect(score).toMatchObject({
      toolF1: { precision: 1, recall: 1, f1: 1 },
      argumentF1: { precision: 1, recall: 1, f1: 1 },
      partialMatch: 1,
      exactMatch: true,
      compiles: true,
      diagnostics: [],
      win: true,
    });
    expect(score.reason).toBeUndefined();
  });

  it('renamed labels (var1 -> step_a) still match exactly and win: references compare by what they read', async () => {
    const score = await scoreAgainstGold(sample('predicted', 'renamed'));
    expect(score).toMatchObject({ exactMatch: true, partialMatch: 1, win: true });
    expect(score.argumentF1.f1).toBe(1);
  });

  it('a swapped reference: argument F1 7/8, partial match 3/4, not exact, no win (its output differs)', async () => {
    // Gold's 8 (tool, argument, value) items: convert_units.value reads get_distance#1.distance;
    // the prediction reads get_distance#2.distance there, so 7 of 8 match on both sides.
    const score = await scoreAgainstGold(sample('predicted', 'swapped'));
    expect(score.toolF1.f1).toBe(1);
    expect(score.argumentF1).toEqual({ precision: 0.875, recall: 0.875, f1: 0.875 });
    expect(score.partialMatch).toBe(0.75);
    expect(score).toMatchObject({ exactMatch: false, compiles: true, win: false, reason: 'output_differs' });
  });

  it('a plan that does not compile against the gold tools: compiles false with its diagnostics, no win', async () => {
    // get_distance -> get_dist in the first call: tools 3 of 4 match (0.75); arguments 4 of 8
    // (the call's own two, and the two reads of get_distance outputs now counted differently).
    const score = await scoreAgainstGold(sample('predicted', 'not-compiling'));
    expect(score.toolF1).toEqual({ precision: 0.75, recall: 0.75, f1: 0.75 });
    expect(score.argumentF1.f1).toBe(0.5);
    expect(score.partialMatch).toBe(0.25);
    expect(score).toMatchObject({ compiles: false, exactMatch: false, win: false, reason: 'not_compiled' });
    expect(score.diagnostics).toEqual([
      { severity: 'error', code: 'E_UNKNOWN_TOOL', message: 'unknown tool "get_dist"', line: 12, column: 18 },
    ]);
  });

  it('a missing predicted sample is a loss with reason missing, and scores 0', async () => {
    const score = await scoreAgainstGold(undefined);
    expect(score).toMatchObject({ reason: 'missing', win: false, compiles: false, partialMatch: 0 });
    expect(score.toolF1.f1).toBe(0);
  });

  it('another literal argument changes the mocks answer, so the output differs', async () => {
    const calls = goldCalls();
    calls[1] = { ...calls[1], to: 'Bergen' };
    const score = await scoreAgainstGold(planOf(calls));
    expect(score).toMatchObject({ compiles: true, win: false, reason: 'output_differs' });
    expect(score.argumentF1.f1).toBe(0.875);
  });

  it('a reordered but equivalent plan wins though it does not match exactly', async () => {
    const calls = goldCalls();
    // The two independent get_distance calls swapped: var2's call is now the first of its tool.
    const reordered = [calls[1], calls[0], calls[2], calls[3]];
    const score = await scoreAgainstGold(planOf(reordered));
    expect(score).toMatchObject({ exactMatch: false, compiles: true, win: true });
  });

  it('a predicted call that fails at run time is a loss with call_failed', async () => {
    // A tool no answer can be sampled for: its mock answers null, which its outputSchema refuses.
    const broken = {
      name: 'broken',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', minProperties: 2_000_000 },
    };
    const tools = { tools: [...GOLD.tools.tools, broken] };
    const gold = { plan: GOLD.plan, tools };
    const predicted = { plan: planOf([...goldCalls(), { _tool: 'broken' }]).plan, tools };
    const result = await scorePlans({ gold: new Map([['s', gold]]), predicted: new Map([['s', predicted]]) });
    expect(result.samples[0]).toMatchObject({ compiles: true, win: false, reason: 'call_failed' });
    expect(result.samples[0]!.error).toMatch(/broken/);
  });
});

describe('scoreDirs: the hand-built folders', () => {
  it('scores every gold id, lists predicted ids that are not gold, and averages over the gold samples', async () => {
    const result = await scoreDirs({ gold: `${EVAL}gold`, predicted: `${EVAL}predicted` });
    expect(result.samples.map((s) => [s.id, s.win, s.reason ?? null])).toEqual([
      ['identical', true, null],
      ['missing', false, 'missing'],
      ['not-compiling', false, 'not_compiled'],
      ['renamed', true, null],
      ['swapped', false, 'output_differs'],
    ]);
    expect(result.extraPredicted).toEqual(['extra']);
    expect(result.extraPredictedCount).toBe(1);
    // Means over 5 samples: tool F1 (1 + 0 + 0.75 + 1 + 1) / 5; argument F1 (1 + 0 + 0.5 + 1 + 0.875) / 5.
    expect(result.overall).toEqual({
      samples: 5,
      toolF1: 0.75,
      argumentF1: 0.675,
      partialMatch: 0.6,
      exactMatch: 0.4,
      compileRate: 0.6,
      wins: 2,
      winRate: 0.4,
      missing: 1,
    });
  });
});
