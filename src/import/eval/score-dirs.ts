/**
 * `scoreDirs`: `scorePlans` over two folders of samples as `plan import` writes them (see
 * eval-dir.ts for what is refused), one sample read and scored at a time.
 */
import type { EvalResult, SampleScore, ScoreOptions } from './eval-types.js';
import { DEFAULT_MAX_FILE_BYTES, forEachSampleName, isSafeSampleId, readSample } from './eval-dir.js';
import { MAX_LISTED_EXTRAS, resolveScoreOptions, scoreOne, summarize } from './score-plans.js';
import { lostSample } from './score-sample.js';
import { checkOptions, type OptionSpec } from '../../language/option-keys.js';

/** Options of {@link scoreDirs}. */
export interface ScoreDirsOptions extends ScoreOptions {
  /** The gold samples' folder: `<id>/plan.json` and `<id>/tools.json` per sample. */
  readonly gold: string;
  /** The model's samples' folder, laid out the same way. */
  readonly predicted: string;
  /**
   * Most gold samples; a gold folder with more is refused (RangeError) before anything is scored.
   * @default 100_000
   */
  readonly maxSamples?: number;
  /**
   * Largest plan.json or tools.json read, in bytes; a larger one makes its sample unreadable.
   * @default 16_777_216 (16 MiB)
   */
  readonly maxFileBytes?: number;
}

export const MAX_SAMPLES = 100_000;

/**
 * Scores the model's samples in `predicted` against the gold ones in `gold`.
 *
 * @throws {RangeError} when the gold folder holds more than `maxSamples` entries.
 * @throws the file system's error when a folder cannot be listed.
 * @throws {TypeError} for a bad option value.
 */
/** The numbers have their own checks (resolveScoreOptions). */
const SCORE_DIRS_OPTIONS: OptionSpec<ScoreDirsOptions> = {
  gold: 'string',
  predicted: 'string',
  maxSamples: 'count',
  maxFileBytes: 'count',
  seed: 'any',
  maxCalls: 'any',
  runTimeoutMs: 'any',
  maxDiagnostics: 'any',
  limits: 'any',
};

export async function scoreDirs(options: ScoreDirsOptions): Promise<EvalResult> {
  checkOptions('scoreDirs', options, SCORE_DIRS_OPTIONS);
  const resolved = resolveScoreOptions(options);
  const maxSamples = options.maxSamples ?? MAX_SAMPLES;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const goldNames = new Set<string>();
  await forEachSampleName(options.gold, (name) => {
    goldNames.add(name);
    if (goldNames.size > maxSamples)
      throw new RangeError(`the gold folder holds more than ${maxSamples} samples (maxSamples)`);
  });
  const present = new Set<string>();
  const extras: string[] = [];
  let extraCount = 0;
  await forEachSampleName(options.predicted, (name) => {
    if (goldNames.has(name)) present.add(name);
    else {
      extraCount++;
      extras.push(name);
      // Kept bounded: the first ones in id order are listed, the rest counted.
      if (extras.length > 4 * MAX_LISTED_EXTRAS) extras.sort().splice(MAX_LISTED_EXTRAS);
    }
  });
  const samples: SampleScore[] = [];
  for (const id of [...goldNames].sort()) {
    if (!isSafeSampleId(id)) {
      samples.push(lostSample(id, 'unreadable', 'the gold id is not a plain folder name'));
      continue;
    }
    const gold = await readSample(options.gold, id, maxFileBytes);
    if (!gold.ok) {
      samples.push(lostSample(id, 'unreadable', `the gold sample: ${gold.error}`));
      continue;
    }
    if (!present.has(id)) {
      samples.push(lostSample(id, 'missing'));
      continue;
    }
    const predicted = await readSample(options.predicted, id, maxFileBytes);
    if (!predicted.ok) {
      samples.push(
        predicted.missing ? lostSample(id, 'missing') : lostSample(id, 'unreadable', predicted.error),
      );
      continue;
    }
    samples.push(await scoreOne(id, gold.sample, predicted.sample, resolved));
  }
  return summarize(samples, resolved.seed, extras.sort().slice(0, MAX_LISTED_EXTRAS), extraCount);
}
