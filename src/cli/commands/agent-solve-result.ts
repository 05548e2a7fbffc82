/**
 * What the plan loop's result becomes in `plan agent`: its exit code, the lines on stderr that
 * say why the loop gave up (the last reply's diagnostics, the budget that ran out, a stall),
 * and the object `--json` prints.
 */
import type { SolveResult } from '../../agent/plan-loop/index.js';
import { ExitCode } from '../exit-codes.js';
import { formatCliError, formatDiagnostics } from '../output/index.js';
import { toRunJson } from './run.js';

export function solveExitCode(result: SolveResult): number {
  switch (result.status) {
    case 'done':
    case 'ended': // a tool ended the loop on purpose (endLoop())
      return ExitCode.OK;
    case 'invalid':
      return ExitCode.INVALID;
    case 'rejected':
      return ExitCode.REJECTED;
    case 'cancelled':
      return ExitCode.INTERRUPTED;
    case 'budget_exceeded':
      return ExitCode.BUDGET_EXCEEDED;
    case 'stalled':
      return ExitCode.STALLED;
    default:
      return ExitCode.RUN_FAILED;
  }
}

/**
 * Why the plan loop gave up, for stderr: the diagnostics of the reply that could not be used,
 * located in it as `plan validate` prints a plan's, and which budget ran out or that the model
 * repeated itself. Nothing when it ended otherwise.
 */
export function giveUpText(result: SolveResult, color: boolean): string {
  const { spent, budget, exceeded } = result.budget;
  let text = '';
  if (result.status === 'invalid') {
    text += formatCliError(
      `the model's reply could not be used, even after repairs (${plural(spent.turns, 'model turn')}); why, at line:column in its last reply:`,
      { color },
    );
  } else if (result.status === 'budget_exceeded' && exceeded) {
    const used: Record<string, string> = {
      maxCalls: `${spent.calls} calls run`,
      maxTurns: plural(spent.turns, 'model turn'),
      maxTokens: `${spent.tokens} tokens`,
      maxWallMs: `${spent.wallMs} ms`,
    };
    text += formatCliError(
      `the plan loop's budget ${exceeded} (${budget[exceeded]}) ran out after ${used[exceeded]}: what was running then was cancelled, and the state so far is kept; raise it with --budget ${exceeded}=<n>`,
      { color },
    );
  } else if (result.status === 'ended' && result.endedBy) {
    const { tool, callId, reason } = result.endedBy;
    // Not an error: a tool decided the loop was over.
    text += `plan: the tool '${tool}' (call ${callId}) ended the loop: ${reason}\n`;
  } else if (result.status === 'stalled') {
    text += formatCliError(
      'stalled: the model gave a plan that had already run from the same state, again after being told so; nothing new would happen',
      { color },
    );
  }
  if (result.diagnostics.length > 0 && result.status !== 'done') {
    text += formatDiagnostics(result.diagnostics, { file: 'reply', color });
  }
  return text;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function solveJson(result: SolveResult): Record<string, unknown> {
  return {
    status: result.status,
    output: result.output,
    state: result.state,
    iterations: result.iterations,
    runs: result.runs.map(toRunJson),
    diagnostics: result.diagnostics,
    budget: result.budget,
    ...(result.endedBy && { endedBy: result.endedBy }),
  };
}
