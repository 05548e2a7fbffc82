export * from './eval-types.js';
export {
  MAX_LISTED_EXTRAS,
  resolveScoreOptions,
  type Samples,
  type ScorePlansOptions,
  scoreOne,
  scorePlans,
  summarize,
} from './score-plans.js';
export { type ResolvedScoreOptions } from './score-sample.js';
export { RESULT_TOOL } from './final-output.js';
export { MAX_SAMPLES, type ScoreDirsOptions, scoreDirs } from './score-dirs.js';
export { DEFAULT_MAX_FILE_BYTES, isSafeSampleId } from './eval-dir.js';
