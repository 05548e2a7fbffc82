/**
 * `scorePlans`: a model's plans against gold plans of the same samples, sample by sample, then
 * overall. The samples are scored one at a time, so a set of them costs the memory of one run.
 */
import { resolveLimits } from '../../language/limits.js';
import { isToolsFileError } from '../../errors.js';
import {
  EVAL_DEFAULTS,
  type EvalOverall,
  type EvalResult,
  type EvalSample,
  type SampleScore,
  type ScoreOptions,
} from './eval-types.js';
import { lostSample, type ResolvedScoreOptions, scoreSample } from './score-sample.js';
import { checkOptions, type OptionSpec } from '../../language/option-keys.js';

/** Most predicted ids not in gold that a result lists (the rest are counted). */
export const MAX_LISTED_EXTRAS = 100;

export type Samples = ReadonlyMap<string, EvalSample> | Readonly<Record<string, EvalSample>>;

/** Options of {@link scorePlans}: the samples, and how they are scored. */
export interface ScorePlansOptions extends ScoreOptions {
  /** The gold samples, by id. */
  readonly gold: Samples;
  /** The model's samples, by id: an id of gold missing here is a loss (`missing`). */
  readonly predicted: Samples;
}

/**
 * Scores a model's plans against gold plans: per sample, tool-name F1, argument F1, partial and
 * exact sequence match, whether the plan compiles against the gold sample's tools (with its
 * diagnostics), and whether it wins (runs against the same mock tools to the same final output
 * as the gold plan); overall, their means and the win rate. See docs/evaluation.md.
 *
 * @throws {TypeError} for a bad option value.
 */
/** The numbers have their own checks (resolveScoreOptions), the samples theirs. */
const SCORE_PLANS_OPTIONS: OptionSpec<ScorePlansOptions> = {
  gold: 'any',
  predicted: 'any',
  seed: 'any',
  maxCalls: 'any',
  runTimeoutMs: 'any',
  maxDiagnostics: 'any',
  limits: 'any',
};

export async function scorePlans(options: ScorePlansOptions): Promise<EvalResult> {
  checkOptions('scorePlans', options, SCORE_PLANS_OPTIONS);
  const resolved = resolveScoreOptions(options);
  const gold = asMap(options.gold, 'gold');
  const predicted = asMap(options.predicted, 'predicted');
  const ids = [...gold.keys()].sort();
  const samples: SampleScore[] = [];
  for (const id of ids) samples.push(await scoreOne(id, gold.get(id)!, predicted.get(id), resolved));
  const extras = [...predicted.keys()].filter((id) => !gold.has(id)).sort();
  return summarize(samples, resolved.seed, extras.slice(0, MAX_LISTED_EXTRAS), extras.length);
}

/** One sample's score; a gold manifest that is not one makes the sample `unreadable`. */
export async function scoreOne(
  id: string,
  gold: EvalSample,
  predicted: EvalSample | undefined,
  options: ResolvedScoreOptions,
): Promise<SampleScore> {
  try {
    return await scoreSample(id, gold, predicted, options);
  } catch (error) {
    if (!isToolsFileError(error)) throw error;
    return lostSample(id, 'unreadable', `the gold tools.json: ${error.message}`);
  }
}

/** The options of a score with their defaults, checked. @throws {TypeError} naming a bad one. */
export function resolveScoreOptions(options: ScoreOptions): ResolvedScoreOptions {
  const seed = options.seed ?? EVAL_DEFAULTS.seed;
  if (!Number.isSafeInteger(seed))
    throw new TypeError(`Expected seed to be a whole number, got ${String(seed)}`);
  const whole = (name: string, value: number) => {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new TypeError(`Expected ${name} to be a positive whole number, got ${String(value)}`);
    return value;
  };
  const maxCalls = whole('maxCalls', options.maxCalls ?? EVAL_DEFAULTS.maxCalls);
  const runTimeoutMs = whole('runTimeoutMs', options.runTimeoutMs ?? EVAL_DEFAULTS.runTimeoutMs);
  const maxDiagnostics = whole('maxDiagnostics', options.maxDiagnostics ?? EVAL_DEFAULTS.maxDiagnostics);
  const limits = resolveLimits({ ...options.limits, maxCalls });
  return { seed, runTimeoutMs, maxDiagnostics, limits };
}

/** The result of scored samples: the overall means and rates over them. */
export function summarize(
  samples: readonly SampleScore[],
  seed: number,
  extraPredicted: readonly string[],
  extraPredictedCount: number,
): EvalResult {
  const n = samples.length;
  const mean = (pick: (s: SampleScore) => number) =>
    n === 0 ? 0 : samples.reduce((t, s) => t + pick(s), 0) / n;
  const wins = samples.filter((s) => s.win).length;
  const overall: EvalOverall = {
    samples: n,
    toolF1: mean((s) => s.toolF1.f1),
    argumentF1: mean((s) => s.argumentF1.f1),
    partialMatch: mean((s) => s.partialMatch),
    exactMatch: mean((s) => Number(s.exactMatch)),
    compileRate: mean((s) => Number(s.compiles)),
    wins,
    winRate: n === 0 ? 0 : wins / n,
    missing: samples.filter((s) => s.reason === 'missing').length,
  };
  return { seed, samples, overall, extraPredicted, extraPredictedCount };
}

function asMap(samples: Samples, name: string): ReadonlyMap<string, EvalSample> {
  if (samples instanceof Map) return samples;
  if (samples === null || typeof samples !== 'object')
    throw new TypeError(`Expected ${name} to be a Map or an object of samples by id, got ${String(samples)}`);
  return new Map(Object.entries(samples as Record<string, EvalSample>));
}
