/**
 * One reply of the model read as a solution, or explained: a reply that cannot be used (not
 * JSON, JSON that is not a solution, a solution that does not compile, a plan over the budget's
 * calls per plan, a reply cut at its byte bound) always comes back as located diagnostics, for
 * the repair turn and for the result when the loop gives up. Never an empty "invalid".
 */
import { type CompileOptions, type CompileResult, compile } from '../../compile/compile.js';
import type { CompiledPlan } from '../../compile/types.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import { compileStrictReply } from './strict-nulls.js';

export type ReadReply =
  | {
      readonly ok: true;
      readonly plan: CompiledPlan;
      readonly calls: unknown[];
      readonly output: unknown;
      /** Warnings of the compile, if any. */
      readonly diagnostics: readonly Diagnostic[];
    }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      /** What the model reads in the repair turn. */
      readonly repair: string;
    };

export interface ReadReplyOptions {
  readonly compile: CompileOptions;
  /** The budget's most calls per plan, when it is the bound compile checks (for the hint). */
  readonly maxCallsPerPlan: number | null;
  /**
   * The reply was written under the strict plan schema: the nulls it holds for left-out keys
   * are dropped before the plan is compiled (see strict-nulls).
   * @default false
   */
  readonly strict?: boolean;
}

const ANSWER_AGAIN = 'Answer again with the JSON object {"calls": [...], "output": ...} only.';

export function readReply(text: string, options: ReadReplyOptions): ReadReply {
  const compiled = options.strict
    ? compileStrictReply(text, options.compile)
    : compile(text, options.compile);
  const diagnostics = budgetHints(compiled.diagnostics, options.maxCallsPerPlan);
  const shape = shapeProblem(compiled);
  if (shape) {
    const all = shape.fromCompile ? diagnostics : [shape.diagnostic, ...diagnostics];
    return {
      ok: false,
      diagnostics: all,
      repair: [
        `${shape.heading} Positions are line:column in your answer.`,
        ...lines(all),
        ANSWER_AGAIN,
      ].join('\n'),
    };
  }
  const { document } = compiled;
  if (compiled.ok && compiled.plan && document?.shape === 'solution') {
    return {
      ok: true,
      plan: compiled.plan,
      calls: [...document.calls],
      output: document.output,
      diagnostics,
    };
  }
  return {
    ok: false,
    diagnostics,
    repair: [
      'Your solution does not compile. Positions are line:column in your answer.',
      ...lines(diagnostics),
      'Fix these and answer again with the whole corrected JSON object.',
    ].join('\n'),
  };
}

/** A reply cut at the byte bound: nothing of it was read. */
export function tooLargeReply(maxBytes: number): Extract<ReadReply, { ok: false }> {
  const diagnostic: Diagnostic = {
    severity: 'error',
    code: 'E_LIMIT',
    message: `the reply is longer than ${maxBytes} bytes (maxReplyBytes): it was cut there and not read`,
    pointer: '',
    line: 1,
    column: 1,
    hint: 'answer with fewer calls: give the calls needed first, the rest in later turns once their results are in the state',
  };
  return {
    ok: false,
    diagnostics: [diagnostic],
    repair: ['Your answer was too long to read.', ...lines([diagnostic]), ANSWER_AGAIN].join('\n'),
  };
}

/**
 * Why the reply is not a solution, as an E_SHAPE (or the compile's own E_JSON / E_SHAPE /
 * E_LIMIT when it could not read a document at all), or null when it is one.
 */
function shapeProblem(
  compiled: CompileResult,
): { heading: string; diagnostic: Diagnostic; fromCompile: boolean } | null {
  const { document } = compiled;
  if (!document) {
    const first =
      compiled.diagnostics.find((d) => d.severity === 'error') ?? shapeError('', 'the answer is empty');
    const heading = first.code === 'E_JSON' ? 'Your answer is not JSON.' : 'Your answer is not a solution.';
    return { heading, diagnostic: first, fromCompile: compiled.diagnostics.length > 0 };
  }
  const problem = (message: string, pointer = '') => ({
    heading: 'Your answer is not a solution.',
    diagnostic: shapeError(pointer, message),
    fromCompile: false,
  });
  if (document.shape !== 'solution') {
    return problem(
      `the answer is ${shapeName(document.shape)}, not a solution {"calls": [...], "output": ...}`,
    );
  }
  if (document.output === undefined)
    return problem('the solution has no "output" (null while the task is not done)');
  if (document.calls.length === 0 && document.output === null) {
    return problem(
      'the solution has no calls and no output: give the calls still needed, or the output',
      '/output',
    );
  }
  return null;
}

function shapeError(pointer: string, message: string): Diagnostic {
  return {
    severity: 'error',
    code: 'E_SHAPE',
    message,
    pointer,
    line: 1,
    column: 1,
    hint: 'a solution is {"calls": [{"_tool": ...}, ...], "output": null} while work remains, and {"calls": [], "output": <the answer>} when done',
  };
}

function shapeName(shape: string): string {
  switch (shape) {
    case 'calls':
      return 'a plan (an array of calls)';
    case 'plan':
      return 'a plan message';
    case 'context':
      return 'a context array';
    default:
      return `a ${shape}`;
  }
}

/** The per-plan call bound's E_LIMIT says which budget it is and what to do instead. */
function budgetHints(diagnostics: readonly Diagnostic[], maxCallsPerPlan: number | null): Diagnostic[] {
  return diagnostics.map((d) =>
    maxCallsPerPlan !== null &&
    d.code === 'E_LIMIT' &&
    /^the plan has \d+ calls; the limit is/.test(d.message)
      ? {
          ...d,
          message: `${d.message} (budget.maxCallsPerPlan)`,
          hint: `write at most ${maxCallsPerPlan} calls in one plan: give the calls needed first, the rest in later turns once their results are in the state`,
        }
      : d,
  );
}

/** One line per error: where, which call, the code, the message and the hint. */
function lines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => {
      const where = `${d.line}:${d.column}`;
      const call = d.call !== undefined ? ` (call ${d.call})` : '';
      const hint = d.hint ? ` Hint: ${d.hint}` : '';
      return `- ${where}${call} ${d.code}: ${d.message}.${hint}`;
    });
}
