/**
 * One gold sample against the model's plan for it: NESTFUL's metrics over the normalised calls
 * (see normalize-calls.ts), the predicted plan's compile against the gold tools, and the win:
 * both plans run against the same mocks of the gold tools, their final outputs compared.
 */
import { compile, type CompileResult } from '../../compile/index.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { PlanInput } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import type { Tool } from '../../tools/index.js';
import { mockTools } from '../mock/index.js';
import type { EvalDiagnostic, EvalSample, LossReason, SampleScore } from './eval-types.js';
import { finalOutput } from './final-output.js';
import { commonSubsequenceLength, multisetF1 } from './multiset-f1.js';
import { type NormalizedCall, normalizeCompiled, normalizeRaw } from './normalize-calls.js';

/** The options of a score, resolved. */
export interface ResolvedScoreOptions {
  readonly seed: number;
  readonly runTimeoutMs: number;
  readonly maxDiagnostics: number;
  /** The limits, with `maxCalls` set. */
  readonly limits: Limits;
}

const ZERO = { precision: 0, recall: 0, f1: 0 } as const;

/** A sample that scores 0 everywhere, for `reason` (missing, unreadable). */
export function lostSample(id: string, reason: LossReason, error?: string): SampleScore {
  return {
    id,
    toolF1: ZERO,
    argumentF1: ZERO,
    partialMatch: 0,
    exactMatch: false,
    compiles: false,
    diagnostics: [],
    win: false,
    reason,
    ...(error !== undefined && { error }),
  };
}

/**
 * Scores `predicted` against `gold` (undefined: the model gave no plan for the sample).
 *
 * @throws {ToolsFileError} when the gold tools are not a manifest.
 */
export async function scoreSample(
  id: string,
  gold: EvalSample,
  predicted: EvalSample | undefined,
  options: ResolvedScoreOptions,
): Promise<SampleScore> {
  const tools = mockTools(gold.tools, { seed: options.seed, limits: options.limits });
  if (predicted === undefined) return lostSample(id, 'missing');
  const goldCompile = compile(gold.plan as PlanInput, {
    tools,
    limits: options.limits,
    source: 'gold plan.json',
  });
  const predictedCompile = compile(predicted.plan as PlanInput, {
    tools,
    limits: options.limits,
    source: 'plan.json',
  });
  const goldCalls = callsOf(goldCompile, gold.plan, options.limits);
  const predictedCalls = callsOf(predictedCompile, predicted.plan, options.limits);
  const exactMatch =
    goldCalls.length === predictedCalls.length &&
    goldCalls.every((call, i) => call.key === predictedCalls[i]!.key);
  const metrics = {
    id,
    toolF1: multisetF1(
      goldCalls.map((c) => c.tool),
      predictedCalls.map((c) => c.tool),
    ),
    argumentF1: multisetF1(argumentItems(goldCalls), argumentItems(predictedCalls)),
    partialMatch:
      goldCalls.length === 0
        ? Number(predictedCalls.length === 0)
        : commonSubsequenceLength(
            goldCalls.map((c) => c.key),
            predictedCalls.map((c) => c.key),
          ) / goldCalls.length,
    exactMatch,
    compiles: predictedCompile.ok,
    diagnostics: predictedCompile.diagnostics.slice(0, options.maxDiagnostics).map(evalDiagnostic),
  };
  const outcome = await winOf(goldCompile, predictedCompile, tools, options);
  return { ...metrics, ...outcome };
}

async function winOf(
  gold: CompileResult,
  predicted: CompileResult,
  tools: readonly Tool[],
  options: ResolvedScoreOptions,
): Promise<{ win: boolean; reason?: LossReason; error?: string }> {
  if (!gold.ok || !gold.plan) {
    const first = gold.diagnostics.find((d) => d.severity === 'error');
    return {
      win: false,
      reason: 'gold_failed',
      error: `the gold plan does not compile: ${first?.message ?? ''}`,
    };
  }
  if (!predicted.ok || !predicted.plan) return { win: false, reason: 'not_compiled' };
  const run = { timeoutMs: options.runTimeoutMs, limits: options.limits };
  const goldOutput = await finalOutput(gold.plan, tools, run);
  if (!goldOutput.ok)
    return { win: false, reason: 'gold_failed', error: `the gold plan: ${goldOutput.error}` };
  const predictedOutput = await finalOutput(predicted.plan, tools, run);
  if (!predictedOutput.ok) return { win: false, reason: 'call_failed', error: predictedOutput.error };
  const same =
    goldOutput.output.length === predictedOutput.output.length &&
    goldOutput.output.every((item, i) => item === predictedOutput.output[i]);
  return same ? { win: true } : { win: false, reason: 'output_differs' };
}

/**
 * The normalised calls of a plan: from its compile against the gold tools when that succeeded,
 * else from a compile without tools or types (the bindings alone), else as written.
 */
function callsOf(compiled: CompileResult, plan: unknown, limits: Limits): NormalizedCall[] {
  if (compiled.ok && compiled.plan) return normalizeCompiled(compiled.plan);
  const bare = compile(plan as PlanInput, { limits, checkTypes: false });
  if (bare.ok && bare.plan) return normalizeCompiled(bare.plan);
  const document = compiled.document ?? bare.document;
  return document ? normalizeRaw(document.calls.slice(0, limits.maxCalls)) : [];
}

/** NESTFUL's parameter items: (tool, argument name, normalised value), one per argument. */
function argumentItems(calls: readonly NormalizedCall[]): string[] {
  const items: string[] = [];
  for (const call of calls)
    for (const [name, value] of call.args) items.push(JSON.stringify([call.tool, name, value]));
  return items;
}

function evalDiagnostic(d: Diagnostic): EvalDiagnostic {
  return { severity: d.severity, code: d.code, message: d.message, line: d.line ?? 0, column: d.column ?? 0 };
}
