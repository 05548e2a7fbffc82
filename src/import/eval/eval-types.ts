/**
 * What `scorePlans` and `plan eval` read and report: per sample, NESTFUL's metrics (tool-name
 * F1, argument F1, partial and full sequence match), whether the model's plan compiles against
 * the gold sample's tools, and whether it wins (runs, against the same mocks, to the same final
 * output as the gold plan); overall, their means and rates.
 */
import type { Limits } from '../../language/limits.js';
import type { ToolManifest } from '../types.js';

/** One sample: a plan (a planmode context document or plan document, as a value) and its tools. */
export interface EvalSample {
  /** The plan as a JSON value: `DIR/<id>/plan.json` parsed. */
  readonly plan: unknown;
  /** The tools the model was offered: `DIR/<id>/tools.json` parsed. */
  readonly tools: ToolManifest;
}

/** Precision, recall and F1 of one multiset against another. */
export interface F1Score {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** One diagnostic of the predicted plan's compile, with its place in plan.json. */
export interface EvalDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  /** 1-based; 0 when the diagnostic has no place in the text. */
  readonly line: number;
  readonly column: number;
}

/**
 * Why a sample is not a win. `missing`: no predicted sample for the gold id; `unreadable`: a
 * plan.json or tools.json that cannot be read (see `error`); `not_compiled`: the predicted plan
 * does not compile against the gold tools; `call_failed`: a call of the predicted run failed (or
 * the run did not finish within the limits); `gold_failed`: the gold plan itself did not compile
 * or run (a defect of the gold data: no plan can win the sample); `output_differs`: both ran, to
 * different final outputs.
 */
export type LossReason =
  'missing' | 'unreadable' | 'not_compiled' | 'call_failed' | 'gold_failed' | 'output_differs';

/** The score of one gold sample. */
export interface SampleScore {
  readonly id: string;
  readonly toolF1: F1Score;
  readonly argumentF1: F1Score;
  /** Share of the gold calls the predicted plan has, in order (longest common subsequence). */
  readonly partialMatch: number;
  /** The predicted calls equal the gold calls, one for one, in order. */
  readonly exactMatch: boolean;
  /** The predicted plan compiles against the gold sample's tools. */
  readonly compiles: boolean;
  /** The predicted plan's compile diagnostics (errors and warnings), at most `maxDiagnostics`. */
  readonly diagnostics: readonly EvalDiagnostic[];
  readonly win: boolean;
  /** Why the sample is not a win; absent on a win. */
  readonly reason?: LossReason;
  /** What went wrong, in words, for `unreadable`, `call_failed` and `gold_failed`. */
  readonly error?: string;
}

/** Means over the gold samples (a missing or unreadable sample counts as 0 everywhere). */
export interface EvalOverall {
  /** Gold samples scored (every gold id, found or not). */
  readonly samples: number;
  readonly toolF1: number;
  readonly argumentF1: number;
  readonly partialMatch: number;
  /** Share of samples whose predicted plan matches exactly. */
  readonly exactMatch: number;
  /** Share of samples whose predicted plan compiles. */
  readonly compileRate: number;
  readonly wins: number;
  /** wins / samples (0 for no samples). */
  readonly winRate: number;
  readonly missing: number;
}

/** The result of `scorePlans` (and `plan eval --json`). */
export interface EvalResult {
  readonly seed: number;
  /** One per gold sample, in id order (code units). */
  readonly samples: readonly SampleScore[];
  readonly overall: EvalOverall;
  /** Predicted ids that are not gold ids, in id order, at most `maxListed`. */
  readonly extraPredicted: readonly string[];
  /** How many predicted ids are not gold ids, listed or not. */
  readonly extraPredictedCount: number;
}

/** Options of `scorePlans` and `scoreSample`. */
export interface ScoreOptions {
  /**
   * Seed of the mock tools both plans run against.
   * @default 0
   */
  readonly seed?: number;
  /**
   * Most calls a plan may have; a larger one does not compile (E_LIMIT), and is scored on its
   * first `maxCalls` calls.
   * @default 10_000
   */
  readonly maxCalls?: number;
  /**
   * Time limit of one plan's run, in ms: past it the run is cancelled (a loss for a predicted
   * plan).
   * @default 10_000
   */
  readonly runTimeoutMs?: number;
  /**
   * Most compile diagnostics kept per sample.
   * @default 50
   */
  readonly maxDiagnostics?: number;
  /**
   * Other bounds on each plan and on what its calls return.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
}

/** The defaults of {@link ScoreOptions}. */
export const EVAL_DEFAULTS = {
  seed: 0,
  maxCalls: 10_000,
  runTimeoutMs: 10_000,
  maxDiagnostics: 50,
} as const;
